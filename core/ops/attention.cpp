#include "core/ops/attention.h"

#include "core/error.h"
#include "core/ops/attention_bias.h"
#include "core/ops/kernel_table.h"
#include "core/ops/softmax.h"
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

// Where the path has no tiled kernel: oneDNN's sgemm for both products, for the `rows` queries from
// `first`. Inside a parallel region it runs on the calling thread only. Returns false if oneDNN failed.
bool attention_block_sgemm(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t first,
                           std::int64_t rows, std::int64_t length, std::int64_t head_dim, float scale,
                           const float* bias, float* out, std::int64_t out_stride, float* scores) {
  if (dnnl_sgemm('N', 'T', rows, length, head_dim, scale, q, stride, k, stride, 0.0f, scores, length) != dnnl_success)
    return false;
  add_relative_bias(bias, first, rows, length, scores, length);
  for (std::int64_t r = 0; r < rows; ++r) softmax_row(scores + r * length, length);
  return dnnl_sgemm('N', 'N', rows, head_dim, length, 1.0f, scores, length, v, stride, 0.0f, out, out_stride) ==
         dnnl_success;
}

}  // namespace

void SelfAttention::forward(const float* qkv, std::span<const std::int64_t> offsets, int heads,
                            std::int64_t head_dim, float* ctx, AttentionProducts products,
                            const RelativeScoreBias* bias) {
  const std::int64_t hidden = heads * head_dim;
  const std::int64_t stride = 3 * hidden;
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  const AttentionKernel* kernel = kernels().attention(products, head_dim);

  tasks_.clear();
  std::int64_t longest = 0, work = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::int64_t length = offsets[s + 1] - offsets[s];
    longest = std::max(longest, length);
    work += 2 * length * length * hidden;
    // The tiled kernels take a whole sequence per task (its keys are transposed once).
    const std::int64_t block = kernel ? length : kQueryBlock;
    for (int h = 0; h < heads; ++h)
      for (std::int64_t q = 0; q < length; q += block) tasks_.push_back({offsets[s], length, q, h});
  }
  // Longest sequences first, so the dynamic schedule ends with the small tasks.
  std::stable_sort(tasks_.begin(), tasks_.end(), [](const Task& a, const Task& b) { return a.length > b.length; });
  // Sized here, outside the parallel region: an allocation failure must not throw inside it.
  const std::int64_t per_thread =
      kernel ? kernel->scratch(longest, head_dim) : std::min(longest, kQueryBlock) * longest;
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
      const float* q = qkv + (task.first_row + task.query) * stride + task.head * head_dim;
      const float* k = qkv + task.first_row * stride + hidden + task.head * head_dim;
      const float* v = k + hidden;
      float* out = ctx + (task.first_row + task.query) * hidden + task.head * head_dim;
      const float* head_bias = bias ? bias->head(task.head) : nullptr;
      if (kernel) {
        kernel->run(q, k, v, stride, task.length, head_dim, scale, head_bias, out, hidden, scratch);
      } else {
        const std::int64_t rows = std::min(kQueryBlock, task.length - task.query);
        if (!attention_block_sgemm(q, k, v, stride, task.query, rows, task.length, head_dim, scale, head_bias, out,
                                   hidden, scratch))
          failed = true;
      }
    }
  }
  if (failed) runtime_error("oneDNN sgemm failed in self-attention");
}

}  // namespace bertkit::core
