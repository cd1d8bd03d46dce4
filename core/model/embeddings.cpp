#include "core/model/embeddings.h"
#include "core/model/linear_weights.h"

#include "core/error.h"
#include "core/model/family_spec.h"

namespace bertkit::core {
namespace {

std::int64_t embedding_width(const ModelConfig& config) {
  return config.embedding_size > 0 ? config.embedding_size : config.hidden_size;
}

}  // namespace

EmbeddingTensors Embeddings::declare(const ModelConfig& config, TensorDecls& decls) {
  const std::int64_t width = embedding_width(config), hidden = config.hidden_size;
  EmbeddingTensors t;
  t.word = decls.tensor("embeddings.word_embeddings.weight", {config.vocab_size, width});
  if (config.family->position_embeddings && config.absolute_positions)
    t.position = decls.tensor("embeddings.position_embeddings.weight", {config.max_position_embeddings, width});
  if (config.type_vocab_size > 0)
    t.token_type = decls.tensor("embeddings.token_type_embeddings.weight", {config.type_vocab_size, width});
  const bool before_norm = config.family->projection_before_norm;
  const bool projected = config.family->embedding_projection && width != hidden;
  t.norm = decls.layer_norm("embeddings.LayerNorm", projected && before_norm ? hidden : width, config.biases.norm);
  if (projected) t.project = decls.linear("embeddings_project", hidden, width, false, !before_norm);
  return t;
}

Embeddings::Embeddings(const ModelConfig& config, const Weights& weights)
    : width_(embedding_width(config)),
      project_first_(config.family->projection_before_norm),
      vocab_size_(config.vocab_size),
      max_positions_(config.max_position_embeddings - config.position_offset),
      type_vocab_size_(config.type_vocab_size) {
  TensorDecls decls;
  const EmbeddingTensors t = declare(config, decls);
  // Row 0 of position_ is the position of a sequence's first token.
  if (t.position)
    position_ = weights.require(t.position->name, t.position->shape).f32().data() + config.position_offset * width_;
  norm_ = LayerNormWeights(weights, t.norm, config.layer_norm_eps);
  if (position_ && config.family->positions_after_padding) {
    pad_id_ = config.pad_token_id;
    pad_position_ = position_ + (config.pad_token_id - config.position_offset) * width_;
  }
  const TensorView& word = weights.require(t.word.name, t.word.shape);
  if (word.dtype == DType::BF16)
    word_bf16_ = reinterpret_cast<const std::uint16_t*>(word.data);
  else
    word_ = word.f32().data();
  if (t.token_type) token_type_ = weights.require(t.token_type->name, t.token_type->shape).f32().data();
  const std::int64_t hidden = config.hidden_size;
  if (width_ != hidden && !t.project)
    bad_input("embedding size {} differs from hidden size {}: {} does not project its embeddings", width_, hidden,
              config.family->model_type);
  if (t.project) project_.emplace(linear_layer(weights, *t.project));
}

void Embeddings::validate(std::span<const TokenSequence> batch) const {
  for (std::size_t s = 0; s < batch.size(); ++s) {
    const auto& seq = batch[s];
    auto length = static_cast<std::int64_t>(seq.ids.size());
    if (length == 0) bad_input("input {} has no tokens", s + 1);
    if (length > max_positions_)
      bad_input("input {} has {} tokens; the model takes at most {} (max_position_embeddings)", s + 1, length,
                max_positions_);
    if (!seq.type_ids.empty() && seq.type_ids.size() != seq.ids.size())
      bad_input("input {} has {} tokens but {} token type ids", s + 1, length, seq.type_ids.size());
    for (auto id : seq.ids)
      if (id < 0 || id >= vocab_size_)
        bad_input("input {} has token id {}, outside the vocabulary of {} tokens", s + 1, id, vocab_size_);
    if (token_type_)
      for (auto type : seq.type_ids)
        if (type < 0 || type >= type_vocab_size_)
          bad_input("input {} has token type id {}; the model has {} token types", s + 1, type, type_vocab_size_);
  }
}

void Embeddings::forward(std::span<const TokenSequence> batch, std::span<const std::int64_t> offsets, float* out) {
  const std::int64_t tokens = offsets.back();
  float* sums = project_ ? narrow_.reserve(static_cast<std::size_t>(tokens * width_)) : out;
  const auto sequences = static_cast<std::int64_t>(batch.size());
  const std::int64_t w = width_;
#pragma omp parallel for schedule(dynamic, 1) if (tokens * w >= 16384)
  for (std::int64_t s = 0; s < sequences; ++s) {
    const auto& seq = batch[static_cast<std::size_t>(s)];
    // transformers' create_position_ids_from_input_ids where positions follow the padding index: a
    // padding token, even one written in the text, takes the padding position and is not counted.
    std::int64_t next_position = 0;
    for (std::size_t p = 0; p < seq.ids.size(); ++p) {
      float* row = sums + (offsets[s] + static_cast<std::int64_t>(p)) * w;
      const float* position =
          !position_ ? nullptr : seq.ids[p] == pad_id_ ? pad_position_ : position_ + next_position++ * w;
      const float* type = token_type_ ? token_type_ + (seq.type_ids.empty() ? 0 : seq.type_ids[p]) * w : nullptr;
      // Summed in transformers' order: (word + token type) + position.
      auto sum = [&](auto word_at) {
        if (!position)
          for (std::int64_t j = 0; j < w; ++j) row[j] = type ? word_at(j) + type[j] : word_at(j);
        else if (type)
          for (std::int64_t j = 0; j < w; ++j) row[j] = (word_at(j) + type[j]) + position[j];
        else
          for (std::int64_t j = 0; j < w; ++j) row[j] = word_at(j) + position[j];
      };
      if (word_bf16_) {
        const std::uint16_t* word = word_bf16_ + seq.ids[p] * w;
        sum([word](std::int64_t j) { return bf16_to_f32(word[j]); });
      } else {
        const float* word = word_ + seq.ids[p] * w;
        sum([word](std::int64_t j) { return word[j]; });
      }
    }
  }
  if (!project_) {
    norm_.apply(out, tokens);
  } else if (project_first_) {
    project_->forward(sums, tokens, out);
    norm_.apply(out, tokens);
  } else {
    norm_.apply(sums, tokens);
    project_->forward(sums, tokens, out);
  }
}

}  // namespace bertkit::core
