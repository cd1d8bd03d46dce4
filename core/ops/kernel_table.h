#pragma once
// The one place that chooses bertkit's CPU kernels: for a path (core/ops/cpu_features.h), one function
// per vector loop and the attention kernels, chosen once per process, so that a forced lower path
// (BERTKIT_CPU) runs exactly what a CPU without the higher instruction sets runs.
#include "core/ops/attention.h"
#include "core/ops/cpu_features.h"
#include "core/ops/kernel_variants.h"

namespace bertkit::core {

struct KernelTable {
  CpuPath path = CpuPath::Portable;
  decltype(softmax_row_variants.portable) softmax_row = nullptr;
  decltype(layer_norm_row_variants.portable) layer_norm_row = nullptr;
  decltype(rms_norm_row_variants.portable) rms_norm_row = nullptr;
  decltype(rotary_half_row_variants.portable) rotary_half_row = nullptr;
  decltype(rotary_interleaved_row_variants.portable) rotary_interleaved_row = nullptr;
  decltype(max_abs_variants.portable) max_abs = nullptr;
  decltype(quantize_s8_variants.portable) quantize_s8 = nullptr;
  decltype(round_to_bf16_variants.portable) round_to_bf16 = nullptr;
  decltype(int8_epilogue_row_variants.portable) int8_epilogue_row = nullptr;
  decltype(activation_row_variants.portable) activation_row = nullptr;
  decltype(disentangled_terms_variants.portable) disentangled_terms = nullptr;
  // Null where the path has none: f32 attention then runs on oneDNN's sgemm, bf16 products as f32.
  const AttentionKernel* attention_f32 = nullptr;
  const AttentionKernel* attention_bf16 = nullptr;

  // The kernel for one head of `head_dim` with `products`; null: oneDNN's sgemm.
  const AttentionKernel* attention(AttentionProducts products, std::int64_t head_dim) const;
};

// The table of `path` on a CPU with `features` (already capped to the path).
KernelTable kernel_table(CpuPath path, const CpuFeatures& features);

// The table of the process's path, cpu_selection().
const KernelTable& kernels();

}  // namespace bertkit::core
