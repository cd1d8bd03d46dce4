#pragma once
// What embed and similarity load when -m names a static embedding model (core/loading/static_folder.h):
// the folder, its tokenizer (tokenizer.json as it is), how its records are tokenized (no special tokens
// added, though those written in a text still match; truncated only where tokenizer.json says so) and
// the settings --dry-run prints.
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "core/loading/static_folder.h"
#include "records/record_pipeline.h"
#include "tokenizer/tokenizer.h"

#include <cstddef>
#include <memory>
#include <optional>

namespace bertkit::cli {

struct StaticTaskModel {
  core::StaticModel model;
  std::unique_ptr<tok::Tokenizer> tokenizer;
  std::size_t max_length = 0;  // model2vec's encode max_length (--max-length, else 512)
};

// The static model -m names, or nothing when it names another kind of model (load_task_model's). The
// task flags that cannot apply to one (--dtype, --compat python, --max-length of a StaticEmbedding,
// --truncate error of a model2vec model, whose cuts are its own rules) are usage errors naming them.
std::optional<StaticTaskModel> load_static_task_model(const TaskFlags& flags);

records::PipelineOptions static_pipeline_options(const TaskFlags& flags, const StaticTaskModel& model);

// --dry-run's settings of a static model; the command adds its own.
Settings static_settings(const TaskFlags& flags, const StaticTaskModel& model);

}  // namespace bertkit::cli
