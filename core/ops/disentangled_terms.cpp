#include "core/ops/disentangled_terms.h"

#include "core/ops/attention_tiles.h"
#include "core/ops/avx512_intrinsics.h"
#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

namespace bertkit::core {
namespace {

BK_VECTOR_BODY void disentangled_terms_body(const DisentangledPlanes& p, std::int64_t query, std::int64_t rows,
                                            std::int64_t key, std::int64_t keys, float* scores, std::int64_t stride) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t i = query + r;
    const std::int32_t* row = p.row_of + (i - key);  // key key+j reads row[−j]
    float* s = scores + r * stride;
    const float* c2p = p.c2p ? p.c2p + i * p.width - p.first : nullptr;
    const float* p2c = p.p2c ? p.p2c + key * p.width - p.first : nullptr;
    // transformers adds c2p + p2c to the scaled Q·Kᵀ.
    if (c2p && p2c)
      for (std::int64_t j = 0; j < keys; ++j) s[j] += c2p[row[-j]] + p2c[j * p.width + row[-j]];
    else if (c2p)
      for (std::int64_t j = 0; j < keys; ++j) s[j] += c2p[row[-j]];
    else
      for (std::int64_t j = 0; j < keys; ++j) s[j] += p2c[j * p.width + row[-j]];
  }
}

#if BK_X86_64
// 16 floats of `plane` at the columns of rows row_of[0 .. 16). Where rows grow by 0 or 1 (δ itself, clipped,
// or log buckets over many positions: deberta-v3's), they lie within 16 floats of the first: one load
// (masked to them), then a permute puts each in place. A gather, which costs several times more, only
// where they spread wider (many buckets over few positions, e.g. 64 over max_relative_positions 64).
BK_TARGET_AVX512 inline __m512 columns16(const float* plane, const std::int32_t* row_of, std::int32_t first) {
  const __m512i rows = _mm512_loadu_si512(row_of);
  const std::int32_t low = row_of[0], spread = row_of[15] - low;
  if (spread > 15) return _mm512_i32gather_ps(_mm512_sub_epi32(rows, _mm512_set1_epi32(first)), plane, 4);
  const __m512 values = _mm512_maskz_loadu_ps(static_cast<__mmask16>((2u << spread) - 1), plane + (low - first));
  return _mm512_permutexvar_ps(_mm512_sub_epi32(rows, _mm512_set1_epi32(low)), values);
}

// How many keys ahead block16 asks for the lines it will read. Each key's p2c row gives a block one line,
// the rows width·4 bytes apart (2 KB for deberta-v3's 512 rows: a page holds two), which the hardware
// prefetchers do not follow, and a 512-token sequence's planes outgrow the L2 cache: without this the
// blocks waited on L3 for most lines (bench --profile, 1x512 int8, 2 threads: attention 79 → 66-71 ms).
constexpr std::int64_t kPrefetchKeys = 64;

// Queries i0 .. i0+16 and keys j0 .. j0+16, of keys up to key_end.
BK_TARGET_AVX512 inline void block16(const DisentangledPlanes& p, std::int64_t i0, std::int64_t j0,
                                     std::int64_t key_end, float* scores, std::int64_t stride) {
  if (j0 + kPrefetchKeys + 16 <= key_end)
    for (int c = 0; c < 16; ++c) {
      const std::int64_t j = j0 + kPrefetchKeys + c, i = i0 + c;
      if (p.p2c)
        _mm_prefetch(reinterpret_cast<const char*>(p.p2c + j * p.width + (p.row_of[i0 - j] - p.first)), _MM_HINT_T0);
      if (p.c2p)
        _mm_prefetch(reinterpret_cast<const char*>(p.c2p + i * p.width + (p.row_of[i - j0 - kPrefetchKeys - 15] - p.first)),
                     _MM_HINT_T0);
    }
  __m512 p2c[16];  // first p2c[c] over the 16 queries for key j0 + c, then transposed: over the keys for query i0 + c
  if (p.p2c) {
    for (int c = 0; c < 16; ++c) p2c[c] = columns16(p.p2c + (j0 + c) * p.width, p.row_of + (i0 - j0 - c), p.first);
    attention_tiles::transpose16(p2c);
  }
  const __m512i reversed = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int r = 0; r < 16; ++r) {
    const std::int64_t i = i0 + r;
    __m512 term;
    if (p.c2p) {
      // Keys j0+15 .. j0 read the rows of δ ascending: loaded so, then put in key order.
      const __m512 c2p = _mm512_permutexvar_ps(
          reversed, columns16(p.c2p + i * p.width, p.row_of + (i - j0 - 15), p.first));
      term = p.p2c ? _mm512_add_ps(c2p, p2c[r]) : c2p;
    } else {
      term = p2c[r];
    }
    float* s = scores + r * stride;
    _mm512_storeu_ps(s, _mm512_add_ps(_mm512_loadu_ps(s), term));
  }
}

BK_TARGET_AVX512 void disentangled_terms_avx512(const DisentangledPlanes& p, std::int64_t query, std::int64_t rows,
                                                std::int64_t key, std::int64_t keys, float* scores,
                                                std::int64_t stride) {
  std::int64_t r = 0;
  for (; r + 16 <= rows; r += 16) {
    std::int64_t c = 0;
    for (; c + 16 <= keys; c += 16) block16(p, query + r, key + c, key + keys, scores + r * stride + c, stride);
    if (c < keys) disentangled_terms_body(p, query + r, 16, key + c, keys - c, scores + r * stride + c, stride);
  }
  if (r < rows) disentangled_terms_body(p, query + r, rows - r, key, keys, scores + r * stride, stride);
}
#endif

}  // namespace

#if BK_X86_64
constinit const VectorVariants<DisentangledTermsRows> disentangled_terms_variants{
    VectorClones<disentangled_terms_body>::portable, VectorClones<disentangled_terms_body>::avx2,
    disentangled_terms_avx512};
#else
constinit const VectorVariants<DisentangledTermsRows> disentangled_terms_variants =
    VectorClones<disentangled_terms_body>::variants;
#endif

void add_disentangled_terms(const DisentangledPlanes& planes, std::int64_t query, std::int64_t rows, std::int64_t key,
                            std::int64_t keys, float* scores, std::int64_t stride) {
  kernels().disentangled_terms(planes, query, rows, key, keys, scores, stride);
}

}  // namespace bertkit::core
