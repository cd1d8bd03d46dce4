#pragma once
// Register-tile plumbing shared by the AVX-512 attention kernels (f32 and bf16): an in-register 16 × 16
// transpose of 32-bit elements and the split of a block of query rows into tiles.
#include "core/ops/avx512_intrinsics.h"
#include "core/ops/simd.h"

#include <cstdint>

#if BK_X86_64
namespace bertkit::core::attention_tiles {

constexpr int kMaxRows = 6;               // rows per register tile: 6 × 4 vectors = 24 accumulators
constexpr std::int64_t kQueryBlock = 64;  // query rows whose scores are held at once

// In-register transpose of a 16 × 16 block: r[i] holds row i before, column i after.
BK_TARGET_AVX512 inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    r[4 * i + 0] = _mm512_shuffle_ps(t[4 * i + 0], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i + 0], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm512_shuffle_f32x4(r[i], r[4 + i], 0x88);
    t[4 + i] = _mm512_shuffle_f32x4(r[i], r[4 + i], 0xDD);
    t[8 + i] = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0x88);
    t[12 + i] = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0xDD);
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0x88);
    r[8 + i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0xDD);
    r[4 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0x88);
    r[12 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0xDD);
  }
}

// Runs kernel<R> over `rows` rows in tiles of kMaxRows and one smaller tile for the rest.
template <template <int> class Kernel, typename... Args>
BK_TARGET_AVX512 inline void over_rows(std::int64_t rows, Args... args) {
  std::int64_t r = 0;
  for (; r + kMaxRows <= rows; r += kMaxRows) Kernel<kMaxRows>::run(r, args...);
  switch (rows - r) {
    case 1: Kernel<1>::run(r, args...); break;
    case 2: Kernel<2>::run(r, args...); break;
    case 3: Kernel<3>::run(r, args...); break;
    case 4: Kernel<4>::run(r, args...); break;
    case 5: Kernel<5>::run(r, args...); break;
    default: break;
  }
}

}  // namespace bertkit::core::attention_tiles
#endif
