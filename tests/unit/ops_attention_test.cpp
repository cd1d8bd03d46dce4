#include "core/ops/attention.h"
#include "core/ops/attention_avx512.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

// softmax(Q·Kᵀ/√d)·V of one sequence and head, from the packed [tokens, 3·hidden] layout.
std::vector<double> reference_head(const std::vector<float>& qkv, std::int64_t first, std::int64_t length, int head,
                                   std::int64_t d, std::int64_t hidden) {
  std::vector<double> out(length * d);
  const std::int64_t stride = 3 * hidden;
  for (std::int64_t i = 0; i < length; ++i) {
    std::vector<double> scores(length);
    for (std::int64_t j = 0; j < length; ++j) {
      double dot = 0;
      for (std::int64_t c = 0; c < d; ++c)
        dot += double(qkv[(first + i) * stride + head * d + c]) * qkv[(first + j) * stride + hidden + head * d + c];
      scores[j] = dot / std::sqrt(double(d));
    }
    bktest::reference_softmax(scores);
    for (std::int64_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::int64_t j = 0; j < length; ++j) acc += scores[j] * qkv[(first + j) * stride + 2 * hidden + head * d + c];
      out[i * d + c] = acc;
    }
  }
  return out;
}

void check_attention(int heads, std::int64_t d) {
  INFO("heads " << heads << ", head size " << d);
  const std::int64_t hidden = heads * d;
  std::vector<std::int64_t> offsets{0, 1, 6, 76, 206};  // lengths 1, 5, 70, 130: one and several query blocks
  const std::int64_t tokens = offsets.back();
  auto qkv = bktest::random_floats(tokens * 3 * hidden, 51, -2.0f, 2.0f);
  std::vector<float> ctx(tokens * hidden);
  bertkit::core::SelfAttention attention;
  attention.forward(qkv.data(), offsets, heads, d, ctx.data());
  double worst = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (int h = 0; h < heads; ++h) {
      auto expected = reference_head(qkv, offsets[s], offsets[s + 1] - offsets[s], h, d, hidden);
      for (std::int64_t i = 0; i < offsets[s + 1] - offsets[s]; ++i)
        for (std::int64_t c = 0; c < d; ++c)
          worst = std::max(worst, std::abs(ctx[(offsets[s] + i) * hidden + h * d + c] - expected[i * d + c]));
    }
  CHECK(worst < 1e-5);

  {  // a sequence alone gives what it gave among others
    std::vector<float> alone_qkv(qkv.begin() + offsets[2] * 3 * hidden, qkv.begin() + offsets[3] * 3 * hidden);
    std::vector<std::int64_t> alone_offsets{0, offsets[3] - offsets[2]};
    std::vector<float> alone(alone_offsets[1] * hidden);
    attention.forward(alone_qkv.data(), alone_offsets, heads, d, alone.data());
    for (std::size_t i = 0; i < alone.size(); ++i) CHECK(alone[i] == ctx[offsets[2] * hidden + i]);
  }
}

}  // namespace

// Head sizes 32 and 64 take the AVX-512 kernels where the CPU has them, others oneDNN's sgemm.
TEST_CASE("self-attention of packed sequences matches a double reference per sequence and head" * doctest::test_suite("threads")) {
  check_attention(3, 8);
  check_attention(2, 32);
  check_attention(2, 64);
  CHECK(bertkit::core::attention_avx512_supports(8) == false);
}
