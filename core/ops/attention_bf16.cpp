#include "core/ops/attention_bf16.h"

#include "core/ops/attention_scores.h"
#include "core/ops/attention_tiles.h"
#include "core/ops/avx512_intrinsics.h"
#include "core/ops/simd.h"

#include <algorithm>
#include <limits>

#if BK_X86_64
namespace bertkit::core {
namespace {

using namespace attention_tiles;

#define BK_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

// Keys padded to whole pairs of 16: the probabilities are converted 32 at a time.
std::int64_t padded(std::int64_t length) { return (length + 31) / 32 * 32; }

// 32 floats rounded to bf16, in order.
BK_BF16 __m512i bf16x32(const float* x) {
  return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + 16), _mm512_loadu_ps(x)));
}

// kt[p][j] = the bf16 pair (k[j][2p], k[j][2p+1]) as one 32-bit word; zero for length <= j < width.
BK_BF16 void pack_keys(const float* k, std::int64_t stride, std::int64_t length, std::int64_t head_dim,
                       std::uint32_t* kt, std::int64_t width) {
  const std::int64_t pairs = head_dim / 2;
  for (std::int64_t j0 = 0; j0 < width; j0 += 16) {
    for (std::int64_t p0 = 0; p0 < pairs; p0 += 16) {
      __m512 block[16];  // row i: key j0+i's pairs p0 .. p0+15
      for (std::int64_t i = 0; i < 16; ++i)
        block[i] = j0 + i < length ? _mm512_castsi512_ps(bf16x32(k + (j0 + i) * stride + 2 * p0)) : _mm512_setzero_ps();
      transpose16(block);
      for (std::int64_t c = 0; c < 16; ++c)
        _mm512_storeu_ps(reinterpret_cast<float*>(kt + (p0 + c) * width + j0), block[c]);
    }
  }
}

// vp[t][n] = the bf16 pair (v[2t][n], v[2t+1][n]); zero for keys at or past length.
BK_BF16 void pack_values(const float* v, std::int64_t stride, std::int64_t length, std::int64_t head_dim,
                         std::uint32_t* vp, std::int64_t width) {
  // Lane 2i takes key j's channel i (lane i), lane 2i+1 key j+1's (lane 16+i).
  alignas(64) static constexpr std::int16_t kInterleave[32] = {0, 16, 1, 17, 2,  18, 3,  19, 4,  20, 5,
                                                               21, 6, 22, 7, 23, 8,  24, 9,  25, 10, 26,
                                                               11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512i interleave = _mm512_load_si512(kInterleave);
  for (std::int64_t t = 0; t < width / 2; ++t) {
    const std::int64_t j = 2 * t;
    for (std::int64_t n = 0; n < head_dim; n += 16) {
      const __m512 a = j < length ? _mm512_loadu_ps(v + j * stride + n) : _mm512_setzero_ps();
      const __m512 b = j + 1 < length ? _mm512_loadu_ps(v + (j + 1) * stride + n) : _mm512_setzero_ps();
      const __m512i both = reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(b, a));  // a's 16, then b's 16
      _mm512_storeu_si512(vp + t * head_dim + n, _mm512_permutexvar_epi16(interleave, both));
    }
  }
}

// out[r][0 .. 16·N) = scale · Σ_p a[r] pair p · b[p][0 .. 16·N) for R rows, summed in f32: a's rows are
// `depth` bf16 pairs (`a_stride` apart), b's rows 16·N bf16 pairs (`b_stride` apart). Both of
// attention's products: Q·Kᵀ (a = queries, b = transposed keys) and P·V (a = probabilities, b = values,
// scale 1, which multiplies exactly).
template <int R, int N>
BK_BF16 void dot_tile(const std::uint32_t* a, std::int64_t a_stride, const std::uint32_t* b, std::int64_t b_stride,
                      std::int64_t depth, float scale, float* out, std::int64_t out_stride) {
  __m512 acc[R][N];
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < N; ++n) acc[r][n] = _mm512_setzero_ps();
  for (std::int64_t p = 0; p < depth; ++p) {
    __m512bh columns[N];
    for (int n = 0; n < N; ++n) columns[n] = reinterpret_cast<__m512bh>(_mm512_loadu_si512(b + p * b_stride + 16 * n));
    for (int r = 0; r < R; ++r) {
      const auto pair = reinterpret_cast<__m512bh>(_mm512_set1_epi32(static_cast<int>(a[r * a_stride + p])));
      for (int n = 0; n < N; ++n) acc[r][n] = _mm512_dpbf16_ps(acc[r][n], pair, columns[n]);
    }
  }
  const __m512 s = _mm512_set1_ps(scale);
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < N; ++n) _mm512_storeu_ps(out + r * out_stride + 16 * n, _mm512_mul_ps(acc[r][n], s));
}

// e^x for x <= 0: exp_nonpositive's (core/ops/simd.h), 16 lanes at a time, with scalef for the power
// of two; exactly 0 below its cutoff, as there.
BK_BF16 __m512 exp_nonpositive16(__m512 x) {
  using namespace exp_constants;
  const __mmask16 normal = _mm512_cmp_ps_mask(x, _mm512_set1_ps(kLowest), _CMP_GE_OQ);
  x = _mm512_max_ps(x, _mm512_set1_ps(kLowest));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kLog2e)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2High), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Low), r);
  __m512 p = _mm512_set1_ps(kPolynomial[0]);
  for (int i = 1; i < 6; ++i) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kPolynomial[i]));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_maskz_mov_ps(normal, _mm512_scalef_ps(p, n));
}

// Softmax's numerators: row[j] = e^(row[j] − max) for j < length, 0 up to width (a multiple of 16);
// returns 1 / their sum.
BK_BF16 float softmax_exponentials(float* row, std::int64_t length, std::int64_t width) {
  const __m512 lowest = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  auto first = [length](std::int64_t j) {  // lanes of j .. j+15 inside the sequence
    return length - j >= 16 ? __mmask16(0xFFFF) : length > j ? __mmask16((1u << (length - j)) - 1) : __mmask16(0);
  };
  __m512 max = lowest;
  for (std::int64_t j = 0; j < length; j += 16) max = _mm512_max_ps(max, _mm512_mask_loadu_ps(lowest, first(j), row + j));
  const __m512 top = _mm512_set1_ps(_mm512_reduce_max_ps(max));
  __m512 sum = _mm512_setzero_ps();
  for (std::int64_t j = 0; j < width; j += 16) {
    const __m512 e = _mm512_maskz_mov_ps(first(j), exp_nonpositive16(_mm512_sub_ps(_mm512_loadu_ps(row + j), top)));
    sum = _mm512_add_ps(sum, e);
    _mm512_storeu_ps(row + j, e);
  }
  return 1.0f / _mm512_reduce_add_ps(sum);
}

// The probabilities of one row of scores, rounded to bf16 pairs into pb: softmax over the first
// `length` scores, zero from there to `width` (a multiple of 32). The row is left holding e^(x − max).
BK_BF16 void softmax_to_bf16(float* row, std::int64_t length, std::int64_t width, std::uint32_t* pb) {
  const __m512 inverse = _mm512_set1_ps(softmax_exponentials(row, length, width));
  for (std::int64_t j = 0; j < width; j += 32) {
    const __m512 lo = _mm512_mul_ps(_mm512_loadu_ps(row + j), inverse);
    const __m512 hi = _mm512_mul_ps(_mm512_loadu_ps(row + j + 16), inverse);
    _mm512_storeu_si512(pb + j / 2, reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(hi, lo)));
  }
}

// The scores of R rows over `columns` keys (a multiple of 16) from kt, whose rows are `width` apart, into
// rows of scores `scores_stride` apart.
template <int R>
struct QkRows {
  BK_BF16 static void run(std::int64_t r, const std::uint32_t* qb, std::int64_t pairs, const std::uint32_t* kt,
                          std::int64_t width, std::int64_t columns, float scale, float* scores,
                          std::int64_t scores_stride) {
    const std::uint32_t* qr = qb + r * pairs;
    float* sr = scores + r * scores_stride;
    std::int64_t j = 0;
    for (; j + 64 <= columns; j += 64) dot_tile<R, 4>(qr, pairs, kt + j, width, pairs, scale, sr + j, scores_stride);
    for (; j < columns; j += 16) dot_tile<R, 1>(qr, pairs, kt + j, width, pairs, scale, sr + j, scores_stride);
  }
};

// A block's queries (rows `stride` floats apart) rounded to bf16 pairs into qb, `pairs` words a row.
BK_BF16 void pack_queries(const float* q, std::int64_t stride, std::int64_t rows, std::int64_t head_dim,
                          std::uint32_t* qb) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < head_dim; c += 32)
      _mm512_storeu_si512(qb + r * (head_dim / 2) + c / 2, bf16x32(q + r * stride + c));
}

template <int NV>
struct PvRowsOf {
  template <int R>
  struct Rows {
    BK_BF16 static void run(std::int64_t r, const std::uint32_t* pb, std::int64_t pb_pairs, const std::uint32_t* vp,
                            std::int64_t head_dim, std::int64_t pairs, float* out, std::int64_t out_stride) {
      dot_tile<R, NV>(pb + r * pb_pairs, pb_pairs, vp, head_dim, pairs, 1.0f, out + r * out_stride, out_stride);
    }
  };
};

}  // namespace

std::int64_t products_bf16_scratch(std::int64_t keys, std::int64_t head_dim) {
  return head_dim / 2 * padded(keys) + kQueryBlock * head_dim / 2;  // the keys and a block's queries, in pairs
}

BK_BF16 void products_bf16(const float* q, std::int64_t q_stride, const float* k, std::int64_t k_stride,
                           std::int64_t queries, std::int64_t keys, std::int64_t head_dim, float scale, float* out,
                           std::int64_t out_stride, float* scratch) {
  const std::int64_t width = padded(keys), pairs = head_dim / 2;
  auto* kt = reinterpret_cast<std::uint32_t*>(scratch);  // [pairs, width]
  std::uint32_t* qb = kt + pairs * width;                // [kQueryBlock, pairs]
  pack_keys(k, k_stride, keys, head_dim, kt, width);
  for (std::int64_t block = 0; block < queries; block += kQueryBlock) {
    const std::int64_t rows = std::min(kQueryBlock, queries - block);
    pack_queries(q + block * q_stride, q_stride, rows, head_dim, qb);
    over_rows<QkRows>(rows, static_cast<const std::uint32_t*>(qb), pairs, static_cast<const std::uint32_t*>(kt), width,
                      width, scale, out + block * out_stride, out_stride);
  }
}

std::int64_t attention_bf16_scratch(std::int64_t keys, std::int64_t head_dim) {
  const std::int64_t width = padded(keys);
  // Keys and values as bf16 pairs, the block's queries and probabilities in bf16, its scores in f32.
  return head_dim / 2 * width + width / 2 * head_dim + kQueryBlock * head_dim / 2 + kQueryBlock * width +
         kQueryBlock * width / 2;
}

BK_BF16 void attention_bf16(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t head_dim,
                            float scale, const HeadScores& head, std::int64_t first, std::int64_t queries, float* out,
                            std::int64_t out_stride, float* scratch) {
  // The keys these queries reach (all of the sequence without a window), from `base` (even: values are
  // packed in pairs of keys).
  const KeyRange reach = key_range(head, first, queries, 32);
  const std::int64_t base = reach.begin, length = reach.end - base, width = padded(length), pairs = head_dim / 2;
  auto* kt = reinterpret_cast<std::uint32_t*>(scratch);  // [pairs, width]
  std::uint32_t* vp = kt + pairs * width;                // [width / 2, head_dim]
  std::uint32_t* qb = vp + width / 2 * head_dim;         // [kQueryBlock, pairs]
  auto* scores = reinterpret_cast<float*>(qb + kQueryBlock * pairs);  // [kQueryBlock, width]
  auto* pb = reinterpret_cast<std::uint32_t*>(scores + kQueryBlock * width);  // [kQueryBlock, width / 2]
  pack_keys(k + base * stride, stride, length, head_dim, kt, width);
  pack_values(v + base * stride, stride, length, head_dim, vp, width);

  for (std::int64_t block = first; block < first + queries; block += kQueryBlock) {
    const std::int64_t rows = std::min(kQueryBlock, first + queries - block);
    pack_queries(q + block * stride, stride, rows, head_dim, qb);
    // Column 0 of the scores is key range.begin (even, as base); a window leaves the keys outside the
    // range uncomputed.
    const KeyRange range = key_range(head, block, rows, 32);
    const std::int64_t keys = range.end - range.begin, from = range.begin - base;
    const std::int64_t columns = padded(keys), value_pairs = (keys + 1) / 2;
    over_rows<QkRows>(rows, static_cast<const std::uint32_t*>(qb), pairs,
                      static_cast<const std::uint32_t*>(kt + from), width, columns, scale, scores, width);
    modify_scores(head, block, rows, range.begin, keys, scores, width);
    for (std::int64_t r = 0; r < rows; ++r) softmax_to_bf16(scores + r * width, keys, columns, pb + r * (width / 2));
    float* o = out + block * out_stride;
    const std::uint32_t* vr = vp + from / 2 * head_dim;
    if (head_dim == 64)
      over_rows<PvRowsOf<4>::Rows>(rows, static_cast<const std::uint32_t*>(pb), width / 2, vr, head_dim, value_pairs, o,
                                   out_stride);
    else
      over_rows<PvRowsOf<2>::Rows>(rows, static_cast<const std::uint32_t*>(pb), width / 2, vr, head_dim, value_pairs, o,
                                   out_stride);
  }
}

}  // namespace bertkit::core
#endif
