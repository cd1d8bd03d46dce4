#include "core/ops/attention.h"
#include "core/ops/kernel_table.h"
#include "core/tensor.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

using bertkit::core::AttentionProducts;

double to_bf16(double x) { return bertkit::core::bf16_to_f32(bertkit::core::f32_to_bf16(static_cast<float>(x))); }

// softmax(Q·Kᵀ/√d + bias)·V of one sequence and head, from the packed [tokens, 3·hidden] layout; with
// `rounded`, Q, K, V and the probabilities rounded to bf16 first, as the bf16 kernel multiplies them.
// `bias`: none if null, else the head's bias of relative position 0 (bias[j − i] for query i, key j).
std::vector<double> reference_head(std::vector<float> qkv, std::int64_t first, std::int64_t length, int head,
                                   std::int64_t d, std::int64_t hidden, bool rounded, const float* bias) {
  if (rounded)
    for (float& x : qkv) x = static_cast<float>(to_bf16(x));
  std::vector<double> out(length * d);
  const std::int64_t stride = 3 * hidden;
  for (std::int64_t i = 0; i < length; ++i) {
    std::vector<double> scores(length);
    for (std::int64_t j = 0; j < length; ++j) {
      double dot = 0;
      for (std::int64_t c = 0; c < d; ++c)
        dot += double(qkv[(first + i) * stride + head * d + c]) * qkv[(first + j) * stride + hidden + head * d + c];
      scores[j] = dot / std::sqrt(double(d)) + (bias ? bias[j - i] : 0.0);
    }
    bktest::reference_softmax(scores);
    if (rounded)
      for (double& p : scores) p = to_bf16(p);
    for (std::int64_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::int64_t j = 0; j < length; ++j) acc += scores[j] * qkv[(first + j) * stride + 2 * hidden + head * d + c];
      out[i * d + c] = acc;
    }
  }
  return out;
}

// With `relative_bias`, a random relative position bias (MPNet's) wider than the longest sequence needs,
// as the encoder's table is for all but a batch's longest sequence.
void check_attention(int heads, std::int64_t d, AttentionProducts products = AttentionProducts::F32,
                     bool relative_bias = false) {
  const bool bf16 = products == AttentionProducts::BF16;
  INFO("heads " << heads << ", head size " << d << std::string(bf16 ? ", bf16 products" : "")
                << std::string(relative_bias ? ", relative bias" : ""));
  const std::int64_t hidden = heads * d;
  std::vector<std::int64_t> offsets{0, 1, 6, 76, 206};  // lengths 1, 5, 70, 130: one and several query blocks
  const std::int64_t tokens = offsets.back();
  auto qkv = bktest::random_floats(tokens * 3 * hidden, 51, -2.0f, 2.0f);
  const std::int64_t center = 140, width = 2 * center + 1;
  const auto table = bktest::random_floats(heads * width, 53, -3.0f, 3.0f);
  const bertkit::core::RelativeScoreBias bias{table.data(), width, center};
  const auto* bias_arg = relative_bias ? &bias : nullptr;
  auto head_bias = [&](int h) { return relative_bias ? bias.head(h) : nullptr; };
  std::vector<float> ctx(tokens * hidden);
  bertkit::core::SelfAttention attention;
  attention.forward(qkv.data(), offsets, heads, d, ctx.data(), products, bias_arg);
  double worst = 0, worst_unrounded = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (int h = 0; h < heads; ++h) {
      const std::int64_t length = offsets[s + 1] - offsets[s];
      auto expected = reference_head(qkv, offsets[s], length, h, d, hidden, bf16, head_bias(h));
      auto exact = reference_head(qkv, offsets[s], length, h, d, hidden, false, head_bias(h));
      for (std::int64_t i = 0; i < length; ++i)
        for (std::int64_t c = 0; c < d; ++c) {
          const double got = ctx[(offsets[s] + i) * hidden + h * d + c];
          worst = std::max(worst, std::abs(got - expected[i * d + c]));
          worst_unrounded = std::max(worst_unrounded, std::abs(got - exact[i * d + c]));
        }
    }
  if (bf16) {
    // f32 softmax rounds a probability to the other side of a bf16 tie now and then: one bf16 step
    // (2⁻⁸ relative) of one probability, times a value of at most 2.
    CHECK(worst < 1e-3);
    CHECK(worst_unrounded < 2e-2);
    CHECK(worst_unrounded > 1e-4);  // the products really were bf16
  } else {
    CHECK(worst < 1e-5);
  }

  {  // a sequence alone gives what it gave among others
    std::vector<float> alone_qkv(qkv.begin() + offsets[2] * 3 * hidden, qkv.begin() + offsets[3] * 3 * hidden);
    std::vector<std::int64_t> alone_offsets{0, offsets[3] - offsets[2]};
    std::vector<float> alone(alone_offsets[1] * hidden);
    attention.forward(alone_qkv.data(), alone_offsets, heads, d, alone.data(), products, bias_arg);
    for (std::size_t i = 0; i < alone.size(); ++i) CHECK(alone[i] == ctx[offsets[2] * hidden + i]);
  }
}

}  // namespace

// Head sizes 32 and 64 take the AVX-512 kernels where the path has them, others oneDNN's sgemm.
TEST_CASE("self-attention of packed sequences matches a double reference per sequence and head" * doctest::test_suite("threads")) {
  check_attention(3, 8);
  check_attention(2, 32);
  check_attention(2, 64);
  CHECK(bertkit::core::kernels().attention(AttentionProducts::F32, 8) == nullptr);
}

// MPNet's relative position bias, in every path: sgemm (head size 8, or every size on the portable
// path), the AVX-512 kernels, and bf16 products where the CPU has them.
TEST_CASE("self-attention with a relative position bias matches the reference in every kernel" *
          doctest::test_suite("threads")) {
  check_attention(3, 8, AttentionProducts::F32, true);
  check_attention(2, 32, AttentionProducts::F32, true);
  check_attention(2, 64, AttentionProducts::F32, true);
  if (bertkit::core::kernels().attention_bf16) {
    check_attention(2, 32, AttentionProducts::BF16, true);
    check_attention(2, 64, AttentionProducts::BF16, true);
  }
}

TEST_CASE("self-attention with bf16 products matches a reference that rounds as it does" * doctest::test_suite("threads")) {
  if (!bertkit::core::kernels().attention_bf16) {
    // Without AVX512-BF16 the products stay f32: the same numbers as asking for f32.
    const std::vector<std::int64_t> offsets{0, 5, 75};
    auto qkv = bktest::random_floats(75 * 3 * 64, 52, -2.0f, 2.0f);
    std::vector<float> f32(75 * 64), bf16(75 * 64);
    bertkit::core::SelfAttention attention;
    attention.forward(qkv.data(), offsets, 2, 32, f32.data(), AttentionProducts::F32);
    attention.forward(qkv.data(), offsets, 2, 32, bf16.data(), AttentionProducts::BF16);
    CHECK(f32 == bf16);
    return;
  }
  check_attention(2, 32, AttentionProducts::BF16);
  check_attention(2, 64, AttentionProducts::BF16);
  CHECK(bertkit::core::kernels().attention(AttentionProducts::BF16, 16) == nullptr);
}
