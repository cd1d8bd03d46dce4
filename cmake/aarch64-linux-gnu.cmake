# Cross-compiles bertkit for 64-bit ARM on a Debian x86-64 machine: Debian's g++-aarch64-linux-gnu, the
# arm64 libraries installed beside the host's (multiarch: dpkg --add-architecture arm64), and programs
# built for the target (the vocabulary compiler the build runs, the tests) run by qemu-user-static.
# tests/arm64_check.sh uses it; on an arm64 machine bertkit builds natively without it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)  # the built-in vocabulary's .incbin
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)  # find_package searches /usr/lib/aarch64-linux-gnu
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# pkg-config (utf8proc, libedit, libcurl) reads the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
