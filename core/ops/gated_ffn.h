#pragma once
// A gated feed-forward layer (GLU family: GeGLU, SwiGLU): the input projection gives 2·I values per
// token, one half goes through the activation and multiplies the other, and the output projection
// brings the product back: y = W_out · (act(a) ⊙ b) + b_out. Families disagree on which half is a
// (GatedHalves). The activation is fused into that half's matmul as Linear's is, so the exact (erf)
// and tanh GELU and SiLU are oneDNN's, as in the BERT layer's feed-forward.
#include "core/ops/eltwise.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <span>
#include <utility>

namespace bertkit::core {

// Which half of the input projection's 2·I outputs (rows of its [2·I, hidden] weight) goes through the
// activation; the other multiplies it.
enum class GatedHalves {
  ActivateFirst,   // act(first) · second: ModernBERT's `Wi` (its "input", then its "gate")
  ActivateSecond,  // act(second) · first: GTE's `up_gate_proj`
};

struct GatedFeedForwardSpec {
  std::int64_t hidden = 0;
  std::int64_t intermediate = 0;  // I: the input projection has 2·I outputs
  Eltwise activation = Eltwise::Gelu;
  GatedHalves halves = GatedHalves::ActivateFirst;
  LinearOutput output = LinearOutput::Overwrite;  // Accumulate: y += ..., the residual sum
};

class GatedFeedForward {
 public:
  // in_weight: [2·I, hidden] and in_bias [2·I] or empty; out_weight: [hidden, I] and out_bias [hidden]
  // or empty; each half of in_weight becomes its own matmul (the weights are copied).
  GatedFeedForward(const GatedFeedForwardSpec& spec, const LinearWeight& in_weight, std::span<const float> in_bias,
                   const LinearWeight& out_weight, std::span<const float> out_bias);
  // From its three layers, built elsewhere (from a converted file's packed matrices): the activated half
  // [I, hidden] with the activation fused, the other half [I, hidden], and the output projection
  // [hidden, I], overwriting or accumulating.
  GatedFeedForward(Linear activated, Linear other, Linear out);
  // The input projection's halves as layers (activated, other), each with its rows of the bias.
  static std::pair<Linear, Linear> input_halves(const GatedFeedForwardSpec& spec, const LinearWeight& in_weight,
                                                std::span<const float> in_bias);
  const Linear& activated_layer() const { return activated_; }
  const Linear& other_layer() const { return other_; }
  const Linear& out_layer() const { return out_; }

  // x: [rows, hidden] → y: [rows, hidden] (overwritten or added to); scratch: scratch_floats(rows).
  // Rows go kRowsAtOnce at a time: an 8,192-token input's two [rows, I] halves would otherwise hold
  // 75 MB (ModernBERT-base) where 2,048 rows already keep the matmuls large. The gate's product is
  // the second half's matmul's epilogue (Linear::forward_multiplied), and in bf16 the input is rounded
  // once for both halves and the product handed to the output projection rounded (int8: quantised).
  // With `norm` (an Accumulate layer's), y's rows are then normalised (Linear::forward_normed).
  // x_copy: x also in bf16 or s8, written by the norm that wrote x (a ReducedCopy), read instead of
  // rounding or quantising x here where the layers compute in its type. y may be x, and x_copy's buffers
  // norm's copy: each chunk of rows is read before it is written.
  void forward(const float* x, std::int64_t rows, float* y, float* scratch, const LayerNormParams* norm = nullptr,
               const ReducedCopy& x_copy = {}) const;
  std::int64_t scratch_floats(std::int64_t rows) const;
  static constexpr std::int64_t kRowsAtOnce = 2048;

 private:
  // Whether all three layers compute in bf16 (a checkpoint could store its tensors in several types).
  bool computes_bf16() const { return activated_.reads_bf16() && other_.reads_bf16() && out_.reads_bf16(); }
  bool computes_s8() const { return activated_.reads_s8() && other_.reads_s8() && out_.reads_s8(); }

  std::int64_t intermediate_;
  Linear activated_, other_, out_;  // the halves of the input projection, the output projection
};

}  // namespace bertkit::core
