#include "cli/embedding_model.h"

#include "commands/static_embedder.h"
#include "core/error.h"

namespace bertkit::cli {

EmbeddingModel load_embedding_model(const TaskFlags& flags) {
  EmbeddingModel m;
  m.table = load_static_task_model(flags);
  if (!m.table) m.transformer.emplace(load_task_model(flags));
  return m;
}

records::PipelineOptions EmbeddingModel::pipeline_options(const TaskFlags& flags) const {
  return table ? static_pipeline_options(flags, *table) : cli::pipeline_options(flags, *transformer);
}

cmd::EmbedPlan EmbeddingModel::plan(const cmd::EmbedOptions& options) const {
  return table ? cmd::plan_static_embedding(table->model, *table->tokenizer, options, table->max_length)
               : cmd::plan_embedding(transformer->loaded, options);
}

void EmbeddingModel::require_offered(cmd::VectorKind kind, std::string_view flag) const {
  if (!table) return cmd::require_offered(transformer->loaded, kind, flag);
  if (kind != cmd::VectorKind::Dense)
    usage_error("{} {}: {} is a static embedding model, which gives dense embeddings only", flag,
                cmd::vector_kind_info(kind).name, table->model.location.string());
}

Embedders EmbeddingModel::embedders(const cmd::EmbedPlan& plan) const {
  Embedders e;
  if (table) {
    e.sentence = std::make_unique<cmd::StaticEmbedder>(table->model, *table->tokenizer, plan);
    return e;
  }
  auto embedder = std::make_unique<cmd::Embedder>(transformer->loaded.config, transformer->weights, plan);
  if (cmd::has_vector(plan.vectors, cmd::VectorKind::Sparse))
    embedder->use_sparse_head(cmd::make_sparse_head(transformer->loaded, *transformer->weights, *transformer->tokenizer));
  if (cmd::has_vector(plan.vectors, cmd::VectorKind::Colbert))
    embedder->use_colbert_head(
        std::make_unique<core::ColbertLinearHead>(*transformer->weights, transformer->loaded.config.hidden_size));
  e.transformer = embedder.get();
  e.sentence = std::move(embedder);
  return e;
}

Settings EmbeddingModel::settings(const TaskFlags& flags) const {
  return table ? static_settings(flags, *table) : common_settings(flags, *transformer);
}

}  // namespace bertkit::cli
