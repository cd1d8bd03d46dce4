#include "core/ops/attention.h"
#include "core/ops/kernel_table.h"
#include "core/tensor.h"
#include "unit/kernel_paths.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>

namespace {

using bertkit::core::AttentionProducts;
using bertkit::core::KernelTable;
using bertkit::core::ScoreModifier;

double to_bf16(double x) { return bertkit::core::bf16_to_f32(bertkit::core::f32_to_bf16(static_cast<float>(x))); }

// A DeBERTa-like term for the tests: head h, query i, key j of the sequence starting at packed row f adds
// table[(h·tokens + f + i)·2·span + clamp(i − j + span, 0, 2·span − 1)], a gather from a [heads, tokens,
// 2·span] product as DeBERTa's content-to-position term is. It records the widest key range it was
// asked for, so a test can see that a window skipped keys.
struct GatherTerm {
  const float* table = nullptr;
  std::int64_t tokens = 0, span = 0;
  mutable std::atomic<std::int64_t> widest{0};

  double at(int h, std::int64_t first_row, std::int64_t i, std::int64_t j) const {
    const std::int64_t d = std::clamp<std::int64_t>(i - j + span, 0, 2 * span - 1);
    return table[(h * tokens + first_row + i) * 2 * span + d];
  }
  static void add(const void* context, int head, std::int64_t first_row, std::int64_t, std::int64_t query,
                  std::int64_t rows, std::int64_t key, std::int64_t keys, float* scores, std::int64_t stride) {
    const auto& term = *static_cast<const GatherTerm*>(context);
    std::int64_t seen = term.widest.load();
    while (keys > seen && !term.widest.compare_exchange_weak(seen, keys)) {
    }
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j < keys; ++j)
        scores[r * stride + j] += static_cast<float>(term.at(head, first_row, query + r, key + j));
  }
};

// What the reference does to the scores, in the plainest form: `relative` is head h's row at relative
// position 0 (or null), keys farther than `window` (when >= 0) are left out, `term` (or null) is added.
struct ReferenceScores {
  const bertkit::core::RelativeScoreBias* relative = nullptr;
  std::int64_t window = -1;
  const GatherTerm* term = nullptr;
  double scale = 0;  // 0: 1/√d
  std::int64_t attended = -1;  // keys from here on are left out; −1: none
};

// softmax(modified Q·Kᵀ·scale)·V of one sequence and head, from the packed [tokens, 3·hidden] layout;
// with `rounded`, Q, K, V and the probabilities rounded to bf16 first, as the bf16 kernel multiplies them.
std::vector<double> reference_head(std::vector<float> qkv, std::int64_t first, std::int64_t length, int head,
                                   std::int64_t d, std::int64_t hidden, bool rounded, const ReferenceScores& mod) {
  if (rounded)
    for (float& x : qkv) x = static_cast<float>(to_bf16(x));
  std::vector<double> out(length * d);
  const std::int64_t stride = 3 * hidden;
  const double scale = mod.scale != 0 ? mod.scale : 1.0 / std::sqrt(double(d));
  const float* bias = mod.relative ? mod.relative->head(head) : nullptr;
  for (std::int64_t i = 0; i < length; ++i) {
    std::vector<double> scores;
    std::vector<std::int64_t> keys;
    for (std::int64_t j = 0; j < length; ++j) {
      if (mod.window >= 0 && std::abs(j - i) > mod.window) continue;
      if (mod.attended >= 0 && j >= mod.attended) continue;
      double dot = 0;
      for (std::int64_t c = 0; c < d; ++c)
        dot += double(qkv[(first + i) * stride + head * d + c]) * qkv[(first + j) * stride + hidden + head * d + c];
      double score = dot * scale + (bias ? bias[j - i] : 0.0);
      if (mod.term) score += mod.term->at(head, first, i, j);
      scores.push_back(score);
      keys.push_back(j);
    }
    bktest::reference_softmax(scores);
    if (rounded)
      for (double& p : scores) p = to_bf16(p);
    for (std::int64_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::size_t k = 0; k < keys.size(); ++k)
        acc += scores[k] * qkv[(first + keys[k]) * stride + 2 * hidden + head * d + c];
      out[i * d + c] = acc;
    }
  }
  return out;
}

// One case of the checks below: which modifier parts are on, and the kernel table to run (null: the
// process's).
struct AttentionCase {
  bool relative_bias = false;
  std::int64_t window = -1;
  bool term = false;
  float scale = 0;  // 0: the default
  const KernelTable* table = nullptr;
  bool long_sequence = false;  // add one of 700 tokens: the tiled kernels take it in chunks of queries
  bool longer_sequence = false;  // and one of 2,600: fewer queries a block, so that their scores stay in L2
  bool unattended_tail = false;  // each sequence's last keys attended to by no query (PyLate's [MASK]s)
};

// With `relative_bias`, a random relative position bias (MPNet's) wider than the longest sequence needs,
// as the encoder's table is for all but a batch's longest sequence.
void check_attention(int heads, std::int64_t d, AttentionProducts products = AttentionProducts::F32,
                     const AttentionCase& with = {}) {
  const bool bf16 = products == AttentionProducts::BF16;
  INFO("heads " << heads << ", head size " << d << std::string(bf16 ? ", bf16 products" : "")
                << std::string(with.relative_bias ? ", relative bias" : "") << ", window " << with.window
                << std::string(with.long_sequence ? ", 700 tokens" : "")
                << std::string(with.longer_sequence ? ", 2,600 tokens" : "")
                << std::string(with.term ? ", term" : "") << ", scale " << with.scale << ", path "
                << std::string(with.table ? bertkit::core::cpu_path_name(with.table->path) : "the process's"));
  const std::int64_t hidden = heads * d;
  // lengths 1, 5, 70, 130, 260: one and several query blocks, and with a window key tiles to skip
  std::vector<std::int64_t> offsets{0, 1, 6, 76, 206};
  if (with.window >= 0 || with.term || with.long_sequence) offsets.push_back(466);
  if (with.long_sequence) offsets.push_back(1166);
  if (with.longer_sequence) offsets.push_back(offsets.back() + 2600);
  const std::int64_t tokens = offsets.back();
  auto qkv = bktest::random_floats(tokens * 3 * hidden, 51, -2.0f, 2.0f);
  const std::int64_t center = 710, width = 2 * center + 1;
  const auto table = bktest::random_floats(heads * width, 53, -3.0f, 3.0f);
  const bertkit::core::RelativeScoreBias bias{table.data(), width, center};
  const std::int64_t span = 24;
  const auto products_table = bktest::random_floats(heads * tokens * 2 * span, 54, -3.0f, 3.0f);
  GatherTerm term{products_table.data(), tokens, span};

  ScoreModifier modifier;
  if (with.relative_bias) modifier.relative = bias;
  modifier.window = with.window;
  if (with.term) modifier.term = {GatherTerm::add, &term};
  if (with.scale != 0) modifier.scale = with.scale;
  const ReferenceScores reference{with.relative_bias ? &bias : nullptr, with.window, with.term ? &term : nullptr,
                                  double(with.scale)};
  std::vector<std::int64_t> attended;
  for (std::size_t s = 0; with.unattended_tail && s + 1 < offsets.size(); ++s) {
    const std::int64_t length = offsets[s + 1] - offsets[s];
    // At most 8 left out: with a window of 20 every query still reaches an attended key.
    attended.push_back(length - std::min<std::int64_t>(length / 3, 8));
  }
  modifier.attended_keys = attended;

  std::vector<float> ctx(tokens * hidden);
  bertkit::core::SelfAttention attention = with.table ? bertkit::core::SelfAttention(*with.table)
                                                      : bertkit::core::SelfAttention();
  attention.forward(qkv.data(), offsets, heads, d, ctx.data(), products, modifier);
  double worst = 0, worst_unrounded = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (int h = 0; h < heads; ++h) {
      const std::int64_t length = offsets[s + 1] - offsets[s];
      ReferenceScores scores = reference;
      if (!attended.empty()) scores.attended = attended[s];
      auto expected = reference_head(qkv, offsets[s], length, h, d, hidden, bf16, scores);
      auto exact = bf16 ? reference_head(qkv, offsets[s], length, h, d, hidden, false, scores) : expected;
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
  if (with.window >= 0 && with.term) {
    // The kernels never asked for the scores of keys farther from every query of their block than the
    // window (64 queries a block, tiles of at most 32 keys).
    CHECK(term.widest.load() <= 64 + 2 * with.window + 32);
  }

  // The term's table is indexed by packed rows, the attended keys by the batch's sequences.
  if (with.term || with.unattended_tail) return;
  {  // a sequence alone gives what it gave among others
    std::vector<float> alone_qkv(qkv.begin() + offsets[2] * 3 * hidden, qkv.begin() + offsets[3] * 3 * hidden);
    std::vector<std::int64_t> alone_offsets{0, offsets[3] - offsets[2]};
    std::vector<float> alone(alone_offsets[1] * hidden);
    attention.forward(alone_qkv.data(), alone_offsets, heads, d, alone.data(), products, modifier);
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
  check_attention(3, 8, AttentionProducts::F32, {.relative_bias = true});
  check_attention(2, 32, AttentionProducts::F32, {.relative_bias = true});
  check_attention(2, 64, AttentionProducts::F32, {.relative_bias = true});
  if (bertkit::core::kernels().attention_bf16) {
    check_attention(2, 32, AttentionProducts::BF16, {.relative_bias = true});
    check_attention(2, 64, AttentionProducts::BF16, {.relative_bias = true});
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

// A sliding window (ModernBERT's local layers) on every path this CPU has: windows of 0 (a token sees
// itself), narrower and wider than a query block, and wider than every sequence (plain attention).
TEST_CASE("self-attention with a sliding window matches the reference on every CPU path" *
          doctest::test_suite("threads")) {
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (std::int64_t window : {0, 20, 64, 1000}) {
      check_attention(3, 8, AttentionProducts::F32, {.window = window, .table = &table});
      check_attention(2, 32, AttentionProducts::F32, {.window = window, .table = &table});
      check_attention(2, 64, AttentionProducts::F32, {.relative_bias = window == 20, .window = window, .table = &table});
      if (table.attention_bf16) check_attention(2, 64, AttentionProducts::BF16, {.window = window, .table = &table});
    }
}

// Keys no query attends to at the end of each sequence (PyLate's unattended [MASK] expansion), whose
// queries still get outputs: on every path, alone and with a window and a relative bias.
TEST_CASE("self-attention leaves the unattended keys at the end of a sequence out, on every CPU path" *
          doctest::test_suite("threads")) {
  const AttentionCase cases[] = {{}, {.window = 20}, {.relative_bias = true}};
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (AttentionCase with : cases) {
      with.table = &table;
      with.unattended_tail = true;
      for (const auto& [heads, d] : {std::pair<int, std::int64_t>{3, 8}, {2, 32}, {2, 64}})
        check_attention(heads, d, AttentionProducts::F32, with);
      if (table.attention_bf16) check_attention(2, 64, AttentionProducts::BF16, with);
    }
}

// DeBERTa's shape of modifier: a term gathered per tile from the family's own products, with its own
// scale, alone and with a window (whose skipped key tiles the term is never asked for).
TEST_CASE("self-attention with a family's per-tile term and scale matches the reference on every CPU path" *
          doctest::test_suite("threads")) {
  for (const KernelTable& table : bktest::tables_of_every_path()) {
    const float scale = 1.0f / std::sqrt(3.0f * 32.0f);
    check_attention(3, 8, AttentionProducts::F32, {.term = true, .scale = 0.2f, .table = &table});
    check_attention(2, 32, AttentionProducts::F32, {.term = true, .scale = scale, .table = &table});
    check_attention(2, 64, AttentionProducts::F32, {.window = 40, .term = true, .table = &table});
    check_attention(2, 32, AttentionProducts::F32, {.relative_bias = true, .window = 5, .term = true, .table = &table});
    if (table.attention_bf16) check_attention(2, 32, AttentionProducts::BF16, {.term = true, .table = &table});
  }
}

// A sequence longer than BERT's 512 positions is split into chunks of queries (so that one long input
// still spreads over the threads), each with the keys its queries reach: the same numbers as the
// reference, with and without a window, in every kernel.
TEST_CASE("self-attention of a sequence past 512 tokens matches the reference on every CPU path" *
          doctest::test_suite("threads")) {
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (std::int64_t window : {-1, 64}) {
      check_attention(2, 32, AttentionProducts::F32, {.window = window, .table = &table, .long_sequence = true});
      check_attention(1, 64, AttentionProducts::F32,
                      {.relative_bias = true, .window = window, .table = &table, .long_sequence = true});
      if (table.attention_bf16)
        check_attention(1, 64, AttentionProducts::BF16, {.window = window, .table = &table, .long_sequence = true});
    }
}

// Past 2,048 keys the AVX-512 kernel holds the scores of fewer queries at a time and takes the keys in
// chunks of 512 for both products (sums in the same order: the same numbers). Only where the path has
// a tiled kernel: the double reference of 2,600 tokens is slow, and sgemm has no such blocks.
TEST_CASE("self-attention of a sequence past 2,048 tokens matches the reference in the tiled kernels" *
          doctest::test_suite("threads")) {
  for (const KernelTable& table : bktest::tables_of_every_path())
    if (table.attention(AttentionProducts::F32, 64))
      check_attention(1, 64, AttentionProducts::F32, {.table = &table, .long_sequence = true, .longer_sequence = true});
}
