#!/usr/bin/env bash
# Builds bertkit for 64-bit ARM and runs its golden tests there: cross-compiled on this x86-64 Debian with
# Debian's g++-aarch64-linux-gnu against Debian's arm64 packages (multiarch, installed by tests/setup.sh),
# run by qemu-user-static (the tests start bertkit through it too: tests/CMakeLists.txt). Everything runs
# the code an Arm server runs: bertkit's portable kernels (the x86 ones are not compiled) and oneDNN's
# aarch64 path. The golden tests only (bertkit_golden_tests:
# tokenizer corpora, every encoder fixture and head, every task's pipeline); the whole suite under
# emulation would not fit CI's time, and under emulation the corpus sweeps take every 8th line
# (kSweepStride, tests/support.h). Left out for time, as from the portable x86 run (tests/run.sh): the seven
# cases of the bf16 and int8 types and the packed files (they pass under emulation too, in about five
# minutes more: bertkit_golden_tests with --test-case= the exclusion's list below).
# A case batched with others agrees with itself to rounding there, not bit for bit (README, Many machines).
# `build` only builds; `goldens` only runs (tests/run.sh runs them beside the sanitizer stage's tests).
#   tests/arm64_check.sh BUILD_DIR [JOBS] [all|build|goldens]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-arm64}
jobs=${2:-$(nproc)}
steps=${3:-all}
case $steps in all | build | goldens) ;; *) echo "$0: steps are all, build or goldens, not $steps" >&2; exit 2 ;; esac
for tool in aarch64-linux-gnu-g++ qemu-aarch64-static; do
  if ! command -v "$tool" >/dev/null; then
    echo "$0: $tool not found (tests/setup.sh installs it)" >&2
    exit 2
  fi
done

# oneDNN's arm64 headers differ from the host's in one line (no OpenCL runtime), so Debian cannot install
# both -dev packages at once: the arm64 one is unpacked into the build folder, its library links to the
# arm64 library package (installed).
dnnl=$PWD/$build/libdnnl-dev-arm64
if [ ! -f "$dnnl/usr/include/dnnl.hpp" ]; then
  mkdir -p "$build/deb"
  (cd "$build/deb" && apt-get download libdnnl-dev:arm64)
  dpkg-deb -x "$build"/deb/libdnnl-dev_*_arm64.deb "$dnnl"
  for so in /usr/lib/aarch64-linux-gnu/libdnnl.so.*; do ln -sf "$so" "$dnnl/usr/lib/aarch64-linux-gnu/"; done
fi

if [ "$steps" != goldens ]; then
  start=$SECONDS
  [ -f "$build/CMakeCache.txt" ] ||
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" -DCMAKE_CXX_FLAGS=-Werror \
      -Ddnnl_DIR="$dnnl/usr/lib/aarch64-linux-gnu/cmake/dnnl"
  cmake --build "$build" -j"$jobs" --target bertkit bertkit_golden_tests
  # ELF's machine field (bytes 18-19): 0xb7, AArch64.
  [ "$(od -An -tx1 -j18 -N2 "$build/bertkit" | tr -d ' ')" = b700 ] ||
    { echo "$0: $build/bertkit is not an arm64 program" >&2; exit 1; }
  echo "arm64_check: built in $((SECONDS - start)) s"
fi
if [ "$steps" != build ]; then
  start=$SECONDS
  qemu-aarch64-static "$build/bertkit" tokenize "Hello, world!"
  qemu-aarch64-static "$build/tests/bertkit_golden_tests" \
    --test-case-exclude='reduced types:*,embed: f16*,convert: f32*,convert: a file packed in another layout*'
  echo "arm64_check: goldens run in $((SECONDS - start)) s (qemu-user)"
fi
