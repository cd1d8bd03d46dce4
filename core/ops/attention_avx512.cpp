#include "core/ops/attention_avx512.h"

#include "core/ops/attention_scores.h"
#include "core/ops/attention_tiles.h"
#include "core/ops/avx512_intrinsics.h"
#include "core/ops/simd.h"
#include "core/ops/kernel_variants.h"

#include <algorithm>

#if BK_X86_64
namespace bertkit::core {
namespace {

using namespace attention_tiles;

std::int64_t padded(std::int64_t length) { return (length + 15) / 16 * 16; }

// kt[c][j] = k[j][c] for j < length, 0 for length <= j < padded(length).
BK_TARGET_AVX512 void transpose_keys(const float* k, std::int64_t stride, std::int64_t length, std::int64_t head_dim,
                              float* kt, std::int64_t width) {
  for (std::int64_t j0 = 0; j0 < width; j0 += 16) {
    for (std::int64_t c0 = 0; c0 < head_dim; c0 += 16) {
      __m512 block[16];
      for (std::int64_t i = 0; i < 16; ++i)
        block[i] = j0 + i < length ? _mm512_loadu_ps(k + (j0 + i) * stride + c0) : _mm512_setzero_ps();
      transpose16(block);
      for (std::int64_t c = 0; c < 16; ++c) _mm512_storeu_ps(kt + (c0 + c) * width + j0, block[c]);
    }
  }
}

// scores[r][j] = scale · Σ_c q[r][c] · kt[c][j] for R rows and 16·NK keys.
template <int R, int NK>
BK_TARGET_AVX512 void qk_tile(const float* q, std::int64_t q_stride, const float* kt, std::int64_t kt_stride,
                       std::int64_t head_dim, float scale, float* scores, std::int64_t scores_stride) {
  __m512 acc[R][NK];
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < NK; ++n) acc[r][n] = _mm512_setzero_ps();
  for (std::int64_t c = 0; c < head_dim; ++c) {
    __m512 keys[NK];
    for (int n = 0; n < NK; ++n) keys[n] = _mm512_loadu_ps(kt + c * kt_stride + 16 * n);
    for (int r = 0; r < R; ++r) {
      const __m512 query = _mm512_set1_ps(q[r * q_stride + c]);
      for (int n = 0; n < NK; ++n) acc[r][n] = _mm512_fmadd_ps(query, keys[n], acc[r][n]);
    }
  }
  const __m512 s = _mm512_set1_ps(scale);
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < NK; ++n) _mm512_storeu_ps(scores + r * scores_stride + 16 * n, _mm512_mul_ps(acc[r][n], s));
}

// out[r][0 .. 16·NV) = Σ_j p[r][j] · v[j] for R rows, or out += that when `accumulate` (the next chunk of
// keys: the sums go on in the same order, so chunks change no bit of the result).
template <int R, int NV>
BK_TARGET_AVX512 void pv_tile(const float* p, std::int64_t p_stride, const float* v, std::int64_t v_stride,
                       std::int64_t length, float* out, std::int64_t out_stride, bool accumulate) {
  __m512 acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < NV; ++n)
      acc[r][n] = accumulate ? _mm512_loadu_ps(out + r * out_stride + 16 * n) : _mm512_setzero_ps();
  for (std::int64_t j = 0; j < length; ++j) {
    __m512 values[NV];
    for (int n = 0; n < NV; ++n) values[n] = _mm512_loadu_ps(v + j * v_stride + 16 * n);
    for (int r = 0; r < R; ++r) {
      const __m512 weight = _mm512_set1_ps(p[r * p_stride + j]);
      for (int n = 0; n < NV; ++n) acc[r][n] = _mm512_fmadd_ps(weight, values[n], acc[r][n]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < NV; ++n) _mm512_storeu_ps(out + r * out_stride + 16 * n, acc[r][n]);
}

// The scores of R rows over `columns` keys (a multiple of 16) from kt, whose rows are `width` apart.
template <int R>
struct QkRows {
  BK_TARGET_AVX512 static void run(std::int64_t r, const float* q, std::int64_t stride, const float* kt, std::int64_t width,
                            std::int64_t columns, std::int64_t head_dim, float scale, float* scores) {
    const float* qr = q + r * stride;
    float* sr = scores + r * width;
    std::int64_t j = 0;
    for (; j + 64 <= columns; j += 64) qk_tile<R, 4>(qr, stride, kt + j, width, head_dim, scale, sr + j, width);
    for (; j < columns; j += 16) qk_tile<R, 1>(qr, stride, kt + j, width, head_dim, scale, sr + j, width);
  }
};

template <int NV>
struct PvRowsOf {
  template <int R>
  struct Rows {
    BK_TARGET_AVX512 static void run(std::int64_t r, const float* p, std::int64_t width, const float* v, std::int64_t stride,
                              std::int64_t length, float* out, std::int64_t out_stride, bool accumulate) {
      pv_tile<R, NV>(p + r * width, width, v, stride, length, out + r * out_stride, out_stride, accumulate);
    }
  };
};

// A block's scores are held whole (the softmax needs every key of a row): up to this many floats, so that
// they stay in a core's L2 — 64 queries up to 2,048 keys, fewer beyond (16 at 8,192).
constexpr std::int64_t kScoreFloats = kQueryBlock * 2048;
// Keys the products take at a time: their transposed keys and values (128 KB each at head size 64) stay
// in L2 while every row tile of the block reads them, instead of streaming a long sequence's from L3
// once per tile.
constexpr std::int64_t kKeyChunk = 512;

}  // namespace

std::int64_t attention_avx512_scratch(std::int64_t keys, std::int64_t head_dim) {
  return (kQueryBlock + head_dim) * padded(keys) + keys * head_dim;
}

BK_TARGET_AVX512 void attention_avx512(const float* q, const float* k, const float* v, std::int64_t stride,
                                std::int64_t head_dim, float scale, const HeadScores& head, std::int64_t first,
                                std::int64_t queries, float* out, std::int64_t out_stride, float* scratch) {
  // The keys these queries reach (all of the sequence without a window), from `base`.
  const KeyRange reach = key_range(head, first, queries, 16);
  const std::int64_t base = reach.begin, length = reach.end - base, width = padded(length);
  // The keys transposed and the values packed, each once: read in place, every token's row sits on
  // its own page (rows are 3·hidden floats apart) and the kernels would miss the TLB on every row.
  float* kt = scratch;                         // [head_dim, width], keys past `length` zero
  float* values = kt + head_dim * width;       // [length, head_dim]
  float* scores = values + length * head_dim;  // [kQueryBlock, width]
  transpose_keys(k + base * stride, stride, length, head_dim, kt, width);
  for (std::int64_t j = 0; j < length; ++j)
    for (std::int64_t c = 0; c < head_dim; c += 16)
      _mm512_storeu_ps(values + j * head_dim + c, _mm512_loadu_ps(v + (base + j) * stride + c));

  const std::int64_t block_rows = std::clamp(kScoreFloats / width, std::int64_t{kMaxRows}, kQueryBlock);
  for (std::int64_t block = first; block < first + queries; block += block_rows) {
    const std::int64_t rows = std::min(block_rows, first + queries - block);
    // Column 0 of the scores is key range.begin; a window leaves the keys outside the range uncomputed.
    const KeyRange range = key_range(head, block, rows, 16);
    const std::int64_t keys = range.end - range.begin, from = range.begin - base, columns = padded(keys);
    for (std::int64_t chunk = 0; chunk < columns; chunk += kKeyChunk)
      over_rows<QkRows>(rows, q + block * stride, stride, static_cast<const float*>(kt + from + chunk), width,
                        std::min(kKeyChunk, columns - chunk), head_dim, scale, scores + chunk);
    modify_scores(head, block, rows, range.begin, keys, scores, width);
    for (std::int64_t r = 0; r < rows; ++r) softmax_row_variants.avx512(scores + r * width, keys);
    float* o = out + block * out_stride;
    for (std::int64_t chunk = 0; chunk < keys; chunk += kKeyChunk) {
      const float* p = scores + chunk;
      const float* vr = values + (from + chunk) * head_dim;
      const std::int64_t n = std::min(kKeyChunk, keys - chunk);
      if (head_dim == 64)
        over_rows<PvRowsOf<4>::Rows>(rows, p, width, vr, head_dim, n, o, out_stride, chunk > 0);
      else
        over_rows<PvRowsOf<2>::Rows>(rows, p, width, vr, head_dim, n, o, out_stride, chunk > 0);
    }
  }
}

}  // namespace bertkit::core
#endif
