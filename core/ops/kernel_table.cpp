#include "core/ops/kernel_table.h"

#include "core/ops/attention_avx512.h"
#include "core/ops/attention_bf16.h"

namespace bertkit::core {
namespace {

#if BK_X86_64
// Its products alone are no faster than oneDNN's sgemm (DeBERTa-v3's, 2 Zen 4 cores, 128 and 512 tokens).
constexpr AttentionKernel kAttentionAvx512{attention_avx512_scratch, attention_avx512, nullptr, nullptr};
constexpr AttentionKernel kAttentionBf16{attention_bf16_scratch, attention_bf16, products_bf16_scratch, products_bf16};
#endif

}  // namespace

const AttentionKernel* KernelTable::attention(AttentionProducts products, std::int64_t head_dim) const {
  if (head_dim != 32 && head_dim != 64) return nullptr;  // the only sizes the tiled kernels take
  if (products == AttentionProducts::BF16 && attention_bf16) return attention_bf16;
  return attention_f32;
}

KernelTable kernel_table(CpuPath path, const CpuFeatures& features) {
  KernelTable table;
  table.path = path;
  table.softmax_row = softmax_row_variants.on(path);
  table.layer_norm_row = layer_norm_row_variants.on(path);
  table.rms_norm_row = rms_norm_row_variants.on(path);
  table.rotary_half_row = rotary_half_row_variants.on(path);
  table.rotary_interleaved_row = rotary_interleaved_row_variants.on(path);
  table.max_abs = max_abs_variants.on(path);
  table.quantize_s8 = quantize_s8_variants.on(path);
  table.round_to_bf16 = round_to_bf16_variants.on(path);
  table.int8_epilogue_row = int8_epilogue_row_variants.on(path);
  table.activation_row = activation_row_variants.on(path);
  table.disentangled_terms = disentangled_terms_variants.on(path);
#if BK_X86_64
  if (path == CpuPath::Avx512) {
    table.attention_f32 = &kAttentionAvx512;
    // Attention's bf16 products pay where a bf16 dot product (32 products) outruns two f32 FMAs (16
    // each): on AMD's Zen 4 and 5 (2 cores, bert-base 16x128 int8: 46 ms in attention against 68 in f32).
    // An AMX Xeon has two FMA units to one bf16 dot product, and there the f32 kernel was faster (16
    // cores, bert-base 16x128 bf16: 11.3 ms against 14.1 at 16 threads, 6.8 against 9.2 ms for 1x128 on
    // one): its reduced types compute attention in f32.
    if (features.avx512bw && features.avx512bf16 && !features.amx_bf16) table.attention_bf16 = &kAttentionBf16;
  }
#else
  (void)features;
#endif
  return table;
}

const KernelTable& kernels() {
  static const KernelTable table = kernel_table(cpu_selection().path, cpu_selection().features);
  return table;
}

}  // namespace bertkit::core
