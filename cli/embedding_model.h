#pragma once
// The model embed and similarity embed texts with: a transformer checkpoint (TaskModel) or a static
// embedding model (StaticTaskModel). Either way a tokenizer, the pipeline options, the plan of how
// texts become embeddings, the embedder and the settings --dry-run prints.
#include "cli/static_task_model.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/embed.h"

#include <memory>
#include <optional>
#include <string_view>

namespace bertkit::cli {

struct Embedders {
  std::unique_ptr<cmd::SentenceEmbedder> sentence;
  cmd::Embedder* transformer = nullptr;  // the same object when it is a transformer's (--token-embeddings)
};

struct EmbeddingModel {
  std::optional<TaskModel> transformer;   // one of the two
  std::optional<StaticTaskModel> table;

  const tok::Tokenizer& tokenizer() const { return table ? *table->tokenizer : *transformer->tokenizer; }
  records::PipelineOptions pipeline_options(const TaskFlags& flags) const;
  cmd::EmbedPlan plan(const cmd::EmbedOptions& options) const;
  // What scores when nobody asks (cmd::default_vector; a static model: dense).
  cmd::VectorKind default_vector() const { return table ? cmd::VectorKind::Dense : cmd::default_vector(transformer->loaded); }
  // A usage error naming `flag` unless the model gives `kind` (a static model: dense only).
  void require_offered(cmd::VectorKind kind, std::string_view flag) const;
  // The plan's embedder, with the sparse head where the plan writes sparse vectors.
  Embedders embedders(const cmd::EmbedPlan& plan) const;
  Settings settings(const TaskFlags& flags) const;
};

EmbeddingModel load_embedding_model(const TaskFlags& flags);

}  // namespace bertkit::cli
