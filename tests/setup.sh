#!/usr/bin/env bash
# Installs what bertkit needs to build and test, from Debian 12's packages only.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libdnnl-dev libcli11-dev libfmt-dev libutf8proc-dev doctest-dev
          nlohmann-json3-dev zlib1g-dev libedit-dev
          libcurl4-openssl-dev  # bertkit download: the Hub over HTTPS
          python3  # tests/tools/hub_stand_in.py: the local Hub the download tests talk to
          ocl-icd-opencl-dev  # dnnl-config.cmake looks for OpenCL (a Recommends that --no-install-recommends skips)
          # tests/run.sh's sanitizer stages: clang, its sanitizer and libFuzzer runtimes (only Recommended
          # by clang), and its OpenMP runtime with Archer, which ThreadSanitizer needs to see OpenMP's sync
          clang libclang-rt-14-dev libomp-14-dev
          # tests/cross_compile_check.sh: the portable path compiles on another architecture
          g++-aarch64-linux-gnu
          # tests/cli/long_lines_cli_test.cpp: a child's own peak memory (forked from a small process)
          time
          # tests/cli/parallel_cli_test.cpp: the "Many machines" recipes (rsync: parallel's --basefile)
          parallel rsync
          # tests/cli/slurm_cli_test.cpp: README's Slurm recipe on a one-node cluster the test starts
          slurm-wlm munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
