#pragma once
// Multi-head scaled dot-product self-attention over packed sequences. Each sequence attends only to
// its own tokens, so there is no padding and no mask: a token's result cannot depend on its neighbours
// in the batch. A score modifier (ScoreModifier: MPNet's relative bias, ALiBi, a sliding window,
// DeBERTa's disentangled terms) is applied inside the kernels a tile of scores at a time, never as a
// [heads, length, length] matrix: a thread holds the scores of 64 queries at a time, so memory grows
// with the length, not its square, and with a window the key tiles outside it are not computed.
#include "core/ops/buffer.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::core {

// The type Q·Kᵀ and P·V multiply in (sums and softmax are f32 either way). BF16 is for the reduced
// compute types, whose matmuls already round their inputs; it falls back to F32 on CPUs without
// AVX512-BF16.
enum class AttentionProducts { F32, BF16 };

// A bias added to every head's scaled scores that depends only on the key's index minus the query's:
// head h adds table[h·stride + center + (j − i)] to the score of query i and key j. `center` is at
// least the longest sequence's length − 1, so each query's biases are one contiguous run of the row.
struct RelativeScoreBias {
  const float* table = nullptr;
  std::int64_t stride = 0;
  std::int64_t center = 0;
  // Head h's bias for relative position 0; query i's row starts i floats before it.
  const float* head(int h) const { return table + h * stride + center; }
};

// A term a family computes from its own projections and adds to one head's scaled scores a tile at a
// time (DeBERTa's content-to-position and position-to-content terms, gathers from [heads, n, 2·span]
// products it made beforehand). `add` adds the term of the sequence whose first packed row is
// `first_row` (`length` tokens), head `head`, queries query .. query+rows and keys key .. key+keys
// (sequence positions) to `scores`: rows `stride` floats apart, column 0 = key `key`. It is called
// from every attention thread at once, so it may only read what it shares.
struct ScoreTerm {
  void (*add)(const void* context, int head, std::int64_t first_row, std::int64_t length, std::int64_t query,
              std::int64_t rows, std::int64_t key, std::int64_t keys, float* scores, std::int64_t stride) = nullptr;
  const void* context = nullptr;
};

// What is done to the scaled scores Q·Kᵀ·scale before the softmax; every part is optional and the
// default is plain attention.
struct ScoreModifier {
  // A row per head over relative distance (MPNet's buckets, ALiBi's slopes); none when table is null.
  RelativeScoreBias relative;
  // A sliding window: query i attends to keys j with |j − i| <= window only (ModernBERT's local layers:
  // local_attention / 2), as a row of 0 and −∞ would, but key tiles wholly outside it are skipped.
  // None when negative.
  std::int64_t window = -1;
  // A family's own term per tile; none when term.add is null.
  ScoreTerm term;
  // The scale of Q·Kᵀ; 1/√head_dim when unset (DeBERTa divides by √(3·head_dim)).
  std::optional<float> scale;
  // Per sequence, how many of its first keys are attended to (TokenSequence::attended_keys); the keys
  // past them get weight 0, as a 0 in transformers' attention mask gives. Empty: all of them.
  std::span<const std::int64_t> attended_keys;
};

struct KernelTable;

class SelfAttention {
 public:
  SelfAttention() = default;
  // Runs `table`'s kernels instead of the process's (kernels()): the tests compare every path in one
  // process. The table must outlive this.
  explicit SelfAttention(const KernelTable& table) : table_(&table) {}

  // qkv: [tokens, 3·heads·head_dim], each row Q | K | V with heads side by side (the fused projection's
  // output). ctx: [tokens, heads·head_dim] receives softmax(modified Q·Kᵀ·scale)·V per head. Sequence i
  // is rows offsets[i] .. offsets[i+1].
  void forward(const float* qkv, std::span<const std::int64_t> offsets, int heads, std::int64_t head_dim,
               float* ctx, AttentionProducts products = AttentionProducts::F32, const ScoreModifier& modifier = {});

  // The scratch the calls so far needed, all threads together (bench: it grows with the length).
  std::size_t scratch_bytes() const;

 private:
  const KernelTable* table_ = nullptr;  // null: kernels()
  struct Task {
    std::int64_t first_row;  // of the sequence
    std::int64_t length;     // of the sequence
    std::int64_t attended;   // keys attended to: the first `attended` of the sequence
    std::int64_t query;      // first query row of this block, relative to the sequence
    std::int64_t queries;    // in this block
    int head;
  };
  // Fills tasks_ (the kernels' or the sgemm path's blocks), returns the multiply-adds.
  std::int64_t plan_tasks(std::span<const std::int64_t> offsets, int heads, std::int64_t hidden, bool tiled,
                          const ScoreModifier& modifier);
  std::vector<Task> tasks_;
  std::vector<FloatBuffer> scratch_;  // per thread: a score tile (and transposed keys)
};

}  // namespace bertkit::core
