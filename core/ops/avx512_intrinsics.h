#pragma once
// <immintrin.h> for the files whose own kernels use AVX-512 intrinsics. GCC 12's AVX-512 headers give
// several intrinsics an uninitialised vector as their unused source, and -Wmaybe-uninitialized then
// reports every inlined call: including this turns that warning off for the rest of the including file,
// which is why such files stay out of unity batches (CMakeLists.txt). clang has no such warning.
// Only on x86-64: elsewhere those files compile their portable code alone (BK_X86_64, core/ops/simd.h).
#if defined(__x86_64__)
#include <immintrin.h>

#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#endif
