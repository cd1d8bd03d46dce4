#!/usr/bin/env bash
# Compiles every source of bertkit, its tests and tools for 64-bit ARM with Debian's cross compiler
# (g++-aarch64-linux-gnu), syntax only: x86 intrinsics and __builtin_cpu_supports must stay behind
# `#if defined(__x86_64__)` (core/ops/simd.h), so that another architecture builds the portable path.
# The dependencies' headers are the host's (oneDNN's, fmt's, CLI11's, ... are the same on every
# architecture), seen through a folder of links so that the host's C library headers stay out of it.
# The files are compiled in the batches of BUILD_DIR's unity build (a configured build folder), which
# parse the heavy headers once per batch; the files outside them one by one.
#   tests/cross_compile_check.sh BUILD_DIR [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: tests/cross_compile_check.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
cxx=aarch64-linux-gnu-g++
if ! command -v "$cxx" >/dev/null; then
  echo "$0: $cxx not found (tests/setup.sh installs g++-aarch64-linux-gnu)" >&2
  exit 2
fi
# The thread tests' batches hold files of the main test program's again.
mapfile -t batches < <(find "$build" -path '*/Unity/unity_*_cxx.cxx' -not -path '*/bertkit_thread_tests.dir/*' | sort)
if ((${#batches[@]} == 0)); then
  echo "$0: no unity batches in $build: configure it first (cmake -S . -B $build)" >&2
  exit 2
fi
in_batches=$(cat "${batches[@]}" | sed -n 's|^#include "'"$PWD"'/\(.*\)"$|\1|p' | sort)
mapfile -t alone < <(find cli commands core records tokenizer tests -name '*.cpp' | sort | comm -23 - <(echo "$in_batches"))

headers=$(mktemp -d)
trap 'rm -rf "$headers"' EXIT
for h in CLI doctest editline fmt nlohmann oneapi utf8proc.h zlib.h zconf.h; do ln -s "/usr/include/$h" "$headers/$h"; done
# libcurl's headers sit in the host's multiarch folder; they are the same on every architecture.
for d in /usr/include/*/curl /usr/include/curl; do
  if [ -e "$d/curl.h" ]; then ln -s "$d" "$headers/curl"; break; fi
done
printf '%s\n' "${batches[@]}" "${alone[@]}" |
  xargs -P "$jobs" -I{} "$cxx" -std=c++20 -fsyntax-only -fopenmp -Wall -Wextra -Werror -I. -Itests \
    -isystem "$headers" -DBERTKIT_VERSION='"0"' -DBERTKIT_SHARED_DIR='"."' -DBERTKIT_BINARY='"bertkit"' \
    -DBERTKIT_SOURCE_DIR='"."' {}
echo "cross_compile_check: $((${#batches[@]} + ${#alone[@]})) files (${#batches[@]} unity batches) compile for aarch64"
