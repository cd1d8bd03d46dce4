#!/usr/bin/env bash
# Builds bertkit and runs its release suite on Debian 13 (trixie): oneDNN 3.x (libdnnl-dev 3.7) and
# trixie's newer fmt, CLI11 and utf8proc (a newer Unicode), in a trixie root made with debootstrap from
# Debian's mirror and entered with chroot. The root is made once and kept (outside the tree, default
# ../trixie-root; a later run, or a later step of the same CI run, reuses it); the project and ../shared
# are bind-mounted into it, so the tests read ../shared there as here. Needs root (debootstrap, mount,
# chroot) and, the first time, the network to Debian's mirror.
#   tests/trixie_check.sh [ROOT] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
project=$PWD
shared=$(cd ../shared && pwd)
root=${1:-$(cd .. && pwd)/trixie-root}
jobs=${2:-$(nproc)}
mirror=http://deb.debian.org/debian
# tests/setup.sh's packages that the release suite needs, by their trixie names (g++ for
# build-essential's compiler; the sanitizer, clang and cross-compiler stages run on Debian 12 only).
packages=g++,cmake,ninja-build,pkg-config,libdnnl-dev,libcli11-dev,libfmt-dev,libutf8proc-dev,doctest-dev
packages+=,nlohmann-json3-dev,zlib1g-dev,libedit-dev,libcurl4-openssl-dev,python3,ocl-icd-opencl-dev,time,parallel,rsync

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
  cmake --build build-trixie -j$jobs
  ctest --test-dir build-trixie --output-on-failure -j$jobs"
echo "trixie_check: built and tested in $((SECONDS - start)) s"
