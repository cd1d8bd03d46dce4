#pragma once
// The embedding layer: word (+ position) (+ token type) embeddings, LayerNorm, and the projection from
// embedding_size to hidden_size (ELECTRA's after the LayerNorm, DeBERTa's before it).
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/layer_norm_weights.h"
#include "core/model/tensor_decls.h"
#include "core/model/token_sequence.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::core {

// The tables [rows, embedding_size], their LayerNorm, and ELECTRA's projection.
struct EmbeddingTensors {
  TensorDecl word;
  std::optional<TensorDecl> position;  // none where the layers place tokens themselves (rotary)
  std::optional<TensorDecl> token_type;
  NormDecl norm;
  std::optional<LinearDecl> project;
};

class Embeddings {
 public:
  static EmbeddingTensors declare(const ModelConfig& config, TensorDecls& decls);
  // Keeps views into `weights` for the tables: they must outlive this object.
  Embeddings(const ModelConfig& config, const Weights& weights);

  // Throws BadInput for an id, token type or length the model cannot embed, naming the sequence.
  void validate(std::span<const TokenSequence> batch) const;

  // out: [tokens, hidden], sequence i at rows offsets[i] ..; the batch must have passed validate().
  void forward(std::span<const TokenSequence> batch, std::span<const std::int64_t> offsets, float* out);

 private:
  std::int64_t width_;  // embedding_size
  bool project_first_;  // the projection before the LayerNorm (DeBERTa), else after it (ELECTRA)
  std::int64_t vocab_size_, max_positions_, type_vocab_size_;
  const float* word_ = nullptr;
  const std::uint16_t* word_bf16_ = nullptr;  // the table of a bf16 file, widened row by row
  const float* position_ = nullptr;  // the row of a sequence's first token; null: no position table
  std::int64_t pad_id_ = -1;  // positions_after_padding: the padding token, which takes pad_position_
  const float* pad_position_ = nullptr;
  const float* token_type_ = nullptr;
  LayerNormWeights norm_;
  std::optional<Linear> project_;
  FloatBuffer narrow_;  // [tokens, embedding_size] before the projection
};

}  // namespace bertkit::core
