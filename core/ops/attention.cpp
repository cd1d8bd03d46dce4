#include "core/ops/attention.h"

#include "core/error.h"
#include "core/ops/attention_scores.h"
#include "core/ops/kernel_table.h"
#include "core/ops/op_profile.h"
#include "core/ops/threading.h"

#include <oneapi/dnnl/dnnl.h>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace bertkit::core {
namespace {

// The sgemm path's query rows per task: bounds the score tile (block × sequence length) and splits
// long sequences across threads.
constexpr std::int64_t kQueryBlock = 64;
// The tiled kernels take sequences up to this long whole (BERT's 512 positions: one task per sequence
// and head, as always), longer ones this many queries at a time.
constexpr std::int64_t kWholeSequence = 512;
constexpr std::int64_t kQueryChunk = 256;

// Where the path has no tiled kernel: oneDNN's sgemm for both products, for the `rows` queries from
// `first` and the keys they can attend to. Inside a parallel region it runs on the calling thread only.
// Returns false if oneDNN failed.
bool attention_block_sgemm(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t first,
                           std::int64_t rows, std::int64_t head_dim, float scale, const HeadScores& head,
                           float* out, std::int64_t out_stride, float* scores,
                           void (*softmax)(float*, std::int64_t)) {
  const KeyRange range = key_range(head, first, rows, 1);
  const std::int64_t keys = range.end - range.begin;
  k += range.begin * stride;
  v += range.begin * stride;
  if (dnnl_sgemm('N', 'T', rows, keys, head_dim, scale, q, stride, k, stride, 0.0f, scores, keys) != dnnl_success)
    return false;
  modify_scores(head, first, rows, range.begin, keys, scores, keys);
  for (std::int64_t r = 0; r < rows; ++r) softmax(scores + r * keys, keys);
  return dnnl_sgemm('N', 'N', rows, head_dim, keys, 1.0f, scores, keys, v, stride, 0.0f, out, out_stride) ==
         dnnl_success;
}

}  // namespace

std::int64_t SelfAttention::plan_tasks(std::span<const std::int64_t> offsets, int heads, std::int64_t hidden,
                                       bool tiled, const ScoreModifier& modifier) {
  const std::int64_t window = modifier.window;
  tasks_.clear();
  std::int64_t work = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::int64_t length = offsets[s + 1] - offsets[s];
    work += 2 * length * (window < 0 ? length : std::min(length, 2 * window + 1)) * hidden;
    // The tiled kernels take a whole sequence of up to kWholeSequence tokens per task (its keys are
    // transposed once), longer ones in chunks so that one long input still spreads over the threads.
    const std::int64_t block = !tiled ? kQueryBlock : length <= kWholeSequence ? length : kQueryChunk;
    const std::int64_t attended = modifier.attended_keys.empty() ? length : modifier.attended_keys[s];
    for (int h = 0; h < heads; ++h)
      for (std::int64_t q = 0; q < length; q += block)
        tasks_.push_back({offsets[s], length, attended, q, std::min(block, length - q), h});
  }
  // Longest sequences first, so the dynamic schedule ends with the small tasks.
  std::stable_sort(tasks_.begin(), tasks_.end(), [](const Task& a, const Task& b) { return a.length > b.length; });
  return work;
}

void SelfAttention::forward(const float* qkv, std::span<const std::int64_t> offsets, int heads,
                            std::int64_t head_dim, float* ctx, AttentionProducts products,
                            const ScoreModifier& modifier) {
  ProfiledOp op("attention");
  const std::int64_t hidden = heads * head_dim;
  const std::int64_t stride = 3 * hidden;
  const float scale = modifier.scale.value_or(1.0f / std::sqrt(static_cast<float>(head_dim)));
  const KernelTable& table = table_ ? *table_ : kernels();
  const AttentionKernel* kernel = table.attention(products, head_dim);
  const std::int64_t work = plan_tasks(offsets, heads, hidden, kernel != nullptr, modifier);

  // Sized here, outside the parallel region: an allocation failure must not throw inside it. A task's
  // keys are its sequence's, or with a window those its queries reach (and a tile's rounding).
  std::int64_t keys = 0, queries = 0;
  for (const Task& task : tasks_) {
    queries = std::max(queries, task.queries);
    keys = std::max(keys, modifier.window < 0 ? task.length
                                               : std::min(task.length, task.queries + 2 * modifier.window + 32));
  }
  const std::int64_t per_thread = kernel ? kernel->scratch(keys, head_dim) : std::min(queries, kQueryBlock) * keys;
  scratch_.resize(static_cast<std::size_t>(omp_get_max_threads()));
  for (auto& buffer : scratch_) buffer.reserve(static_cast<std::size_t>(per_thread));

  // Small work stays on this thread, sgemm included (outside an active team it would open its own).
  SerialScope serial(work < kMinParallelWork);
  std::atomic<bool> failed{false};
#pragma omp parallel
  {
    float* scratch = scratch_[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(dynamic)
    for (std::size_t t = 0; t < tasks_.size(); ++t) {
      const Task& task = tasks_[t];
      const float* q = qkv + task.first_row * stride + task.head * head_dim;
      const float* k = q + hidden;
      const float* v = k + hidden;
      float* out = ctx + task.first_row * hidden + task.head * head_dim;
      const HeadScores head{modifier.relative.table ? modifier.relative.head(task.head) : nullptr,
                            modifier.window,
                            modifier.term.add ? &modifier.term : nullptr,
                            task.head,
                            task.first_row,
                            task.length,
                            task.attended};
      if (kernel) {
        kernel->run(q, k, v, stride, head_dim, scale, head, task.query, task.queries, out, hidden, scratch);
      } else if (!attention_block_sgemm(q + task.query * stride, k, v, stride, task.query, task.queries, head_dim,
                                        scale, head, out + task.query * hidden, hidden, scratch, table.softmax_row)) {
        failed = true;
      }
    }
  }
  if (failed) runtime_error("oneDNN sgemm failed in self-attention");
}

std::size_t SelfAttention::scratch_bytes() const {
  std::size_t bytes = 0;
  for (const auto& buffer : scratch_) bytes += buffer.capacity() * sizeof(float);
  return bytes;
}

}  // namespace bertkit::core
