#!/usr/bin/env bash
# Installs what bertkit needs to build and test, from Debian's packages only (Debian 12; the same names
# serve Debian 13, where tests/trixie_check.sh builds and tests).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libdnnl-dev libcli11-dev libfmt-dev libutf8proc-dev doctest-dev
          nlohmann-json3-dev zlib1g-dev libedit-dev
          libcurl4-openssl-dev  # bertkit download: the Hub over HTTPS
          libboost-dev  # bertkit serve: HTTP/1.1 from Boost.Beast (header-only)
          python3  # tests/tools/hub_stand_in.py: the local Hub the download tests talk to
          ocl-icd-opencl-dev  # dnnl-config.cmake looks for OpenCL (a Recommends that --no-install-recommends skips)
          # tests/run.sh's sanitizer stages: clang, its sanitizer and libFuzzer runtimes (only Recommended
          # by clang), and its OpenMP runtime with Archer, which ThreadSanitizer needs to see OpenMP's sync
          # (the release's default clang's: 14 on Debian 12, 19 on Debian 13)
          clang libclang-rt-dev libomp-dev
          # tests/arm64_check.sh: cross-compiled for 64-bit ARM, its goldens run under emulation, against
          # the arm64 libraries (multiarch, below; oneDNN's arm64 headers are unpacked by the script)
          g++-aarch64-linux-gnu qemu-user-static
          libfmt-dev:arm64 libutf8proc-dev:arm64 zlib1g-dev:arm64 libedit-dev:arm64 libcurl4-openssl-dev:arm64
          # tests/trixie_check.sh: a Debian 13 root
          debootstrap
          # tests/cli/long_lines_cli_test.cpp: a child's own peak memory (forked from a small process)
          time
          # tests/cli/parallel_cli_test.cpp: the "Many machines" recipes (rsync: parallel's --basefile)
          parallel rsync
          # tests/cli/slurm_cli_test.cpp: README's Slurm recipe on a one-node cluster the test starts
          slurm-wlm munge)
# tests/cli/serve_clients_cli_test.cpp: real clients of bertkit serve, curl, the OpenAI Node SDK and ajv (npm,
# below; a machine with Node.js already, from elsewhere than Debian, keeps it)
packages+=(curl)
command -v npm >/dev/null || packages+=(nodejs npm)
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
# The arm64 packages above come from the same mirror once dpkg knows the architecture.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
fi
# oneDNN's arm64 library, by the name of the host's oneDNN (Debian 12: libdnnl2, Debian 13: libdnnl3.6),
# read from the package lists (fetched first where a fresh machine has none).
apt-cache show libdnnl-dev >/dev/null 2>&1 || $sudo apt-get update
dnnl_library=$(apt-cache show libdnnl-dev | sed -n 's/^Depends: *\(libdnnl[0-9][0-9.]*\).*/\1/p' | head -1)
packages+=("$dnnl_library:arm64")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
# The Node clients' packages, at the versions tests/node/package-lock.json pins.
node_dir=$(cd "$(dirname "$0")/node" && pwd)
if ! cmp -s "$node_dir/package-lock.json" "$node_dir/node_modules/.bertkit-lock" 2>/dev/null; then
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.bertkit-lock)
fi
