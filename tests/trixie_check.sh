#!/usr/bin/env bash
# Builds bertkit and runs its golden tests on Debian 13 (trixie): oneDNN 3.x (libdnnl-dev 3.7) and
# trixie's newer fmt, CLI11 and utf8proc (a newer Unicode), in a trixie root made with debootstrap from
# Debian's mirror and entered with chroot. The root is made once and kept (outside the tree, default
# ../trixie-root; a later run, or a later step of the same CI run, reuses it); the project and ../shared
# are bind-mounted into it, so the tests read ../shared there as here. Needs root (debootstrap, mount,
# chroot) and, the first time, the network to Debian's mirror. The golden tests (bertkit_golden_tests:
# the tokenizers over every corpus, the Unicode sweep included, every encoder fixture and head, every
# task's pipeline) are what tests/run.sh and CI run; `all` builds and runs the whole release suite; `root`
# only makes the root (tests/run.sh has it downloaded while the release stage builds).
#   tests/trixie_check.sh [ROOT] [JOBS] [goldens|all|root]
set -euo pipefail
cd "$(dirname "$0")/.."
project=$PWD
shared=$(cd ../shared && pwd)
root=${1:-$(cd .. && pwd)/trixie-root}
jobs=${2:-$(nproc)}
suite=${3:-goldens}
case $suite in
  goldens) build_targets="--target bertkit bertkit_golden_tests" run_tests="build-trixie/tests/bertkit_golden_tests" ;;
  all) build_targets="" run_tests="ctest --test-dir build-trixie --output-on-failure -j$jobs" ;;
  root) ;;
  *) echo "$0: the suite is goldens, all or root, not $suite" >&2; exit 2 ;;
esac
mirror=http://deb.debian.org/debian
# tests/setup.sh's packages that the release suite needs, by their trixie names (g++ for
# build-essential's compiler; the sanitizer, clang and cross-compiler stages run on Debian 12 only).
packages=g++,cmake,ninja-build,pkg-config,libdnnl-dev,libcli11-dev,libfmt-dev,libutf8proc-dev,doctest-dev
packages+=,nlohmann-json3-dev,zlib1g-dev,libedit-dev,libcurl4-openssl-dev,libboost-dev,python3,ocl-icd-opencl-dev,time,parallel,rsync

if [ "$(id -u)" -ne 0 ]; then
  echo "$0: needs root (debootstrap, mount, chroot)" >&2
  exit 2
fi
# The stamp is written last: a root whose debootstrap was cut short is made again.
stamp=$root/.bertkit-packages
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$packages" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
  rm -rf "$root"
  debootstrap --variant=minbase --include="$packages" trixie "$root" "$mirror"
  echo "$packages" >"$stamp"
fi
[ "$suite" = root ] && exit 0

# The project at /bertkit/project and the reference beside it at /bertkit/shared (read-only), as here.
mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" || true; done
}
trap unmount_all EXIT
bind() {
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
  [ "${3:-}" = ro ] && mount -o remount,bind,ro "$2"
  return 0
}
bind /proc "$root/proc"
bind /dev "$root/dev"
bind /dev/pts "$root/dev/pts"  # the terminal tests' pseudo-terminals
bind "$project" "$root/bertkit/project"
bind "$shared" "$root/bertkit/shared" ro

start=$SECONDS
chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 bash -c "
  set -euo pipefail
  cd /bertkit/project
  [ -f build-trixie/CMakeCache.txt ] || cmake -S . -B build-trixie -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build-trixie -j$jobs $build_targets
  build-trixie/bertkit tokenize 'Hello, world!'
  $run_tests"
echo "trixie_check: built and tested in $((SECONDS - start)) s"
