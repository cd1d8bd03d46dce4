#include "cli/serve_lanes.h"

#include "cli/choice_flags.h"
#include "cli/score_modes.h"
#include "commands/classify.h"
#include "commands/ner.h"
#include "commands/qa.h"
#include "commands/rerank.h"
#include "commands/similarity.h"
#include "commands/zero_shot.h"
#include "core/error.h"
#include "records/record_list_reader.h"

#include <fmt/format.h>

#include <algorithm>

namespace bertkit::cli {

namespace {

// A task and what it reads, run by the record pipeline over each batch; the records' output lines
// are appended as the CLI writes them to a file (--on-error skip: a bad record's line holds `error`).
class PipelineLane : public cmd::BatchLane {
 public:
  PipelineLane(const tok::Tokenizer& tokenizer, records::PipelineOptions options)
      : tokenizer_(tokenizer), options_(std::move(options)) {}

  void run(std::vector<records::Record>& records, std::string& lines) override {
    records::RecordListReader reader(records);
    records::OutputSpec spec;
    spec.memory = &lines;
    spec.error_field = true;
    records::RecordTask& t = task();
    records::RecordOutput out(spec, nullptr, t.result_fields(), t.vector_width());
    t.start(out);
    options_.batch_size = std::max<std::size_t>(records.size(), 1);
    records::run_records(reader, out, tokenizer_, options_, t);
  }

 protected:
  virtual records::RecordTask& task() = 0;

 private:
  const tok::Tokenizer& tokenizer_;
  records::PipelineOptions options_;
};

class EmbedLane : public PipelineLane {
 public:
  EmbedLane(const EmbeddingModel& model, const EmbedLaneOptions& o, records::PipelineOptions options)
      : PipelineLane(model.tokenizer(), options), plan_(model.plan(o.embed)) {
    for (cmd::VectorKind kind : plan_.vectors) model.require_offered(kind, "vectors");
    embedders_ = model.embedders(plan_);
    const bool tokens = o.output == EmbedLaneOptions::Output::Tokens;
    if (tokens && !embedders_.transformer)
      bad_input("a static embedding model has no token embeddings (the last hidden state of a transformer)");
    task_ = std::make_unique<cmd::EmbedTask>(*embedders_.sentence, plan_, model.tokenizer(), options.limits,
                                              embedders_.transformer, tokens);
  }

 private:
  records::RecordTask& task() override { return *task_; }

  cmd::EmbedPlan plan_;
  Embedders embedders_;
  std::unique_ptr<cmd::EmbedTask> task_;
};

// similarity's pairs with a bi-encoder: each text embedded, the pair scored by the model's similarity.
class SimilarityLane : public PipelineLane {
 public:
  SimilarityLane(const EmbeddingModel& model, const std::optional<std::string>& prompt, records::PipelineOptions options)
      : PipelineLane(model.tokenizer(), options), task_(scorer_) {
    std::string metric_from;
    plan_score_modes({}, model, scorer_, metric_from);
    cmd::EmbedOptions embed;
    embed.vectors = scorer_.plan->vectors;
    embed.prompt = prompt;
    scorer_.plan = model.plan(embed);
    attach_embedder(model, scorer_);
    scorer_.limits = options.limits;
  }

 private:
  records::RecordTask& task() override { return task_; }

  cmd::Scorer scorer_;
  cmd::PairTask task_;
};

// A command's task over a head of its own (a cross-encoder, a classifier, a token classifier, a question
// answerer): the head is made from the model and `head_args`, the task by `make_task(head, limits)`.
template <typename Head, typename Task>
class HeadLane : public PipelineLane {
 public:
  template <typename MakeTask, typename... HeadArgs>
  HeadLane(const TaskModel& model, records::PipelineOptions options, MakeTask&& make_task, HeadArgs&&... head_args)
      : PipelineLane(*model.tokenizer, options),
        head_(model.loaded.config, model.weights, std::forward<HeadArgs>(head_args)...),
        task_(make_task(head_, options.limits)) {}

 private:
  records::RecordTask& task() override { return task_; }

  Head head_;
  Task task_;
};

// qa's head with the settings its task reads by reference.
struct Answerer {
  Answerer(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights, cmd::QaSettings s)
      : qa(config, std::move(weights)), settings(s) {}
  cmd::QuestionAnswerer qa;
  cmd::QaSettings settings;
};

const TaskModel& transformer(const ServedModel& m, const char* what) {
  if (!m.model.transformer) bad_input("{} is a static embedding model: it has no {}", m.name, what);
  return *m.model.transformer;
}

}  // namespace

std::size_t ServedModel::max_length() const {
  return model.table ? model.table->max_length : model.transformer->max_length;
}

bool ServedModel::classifies() const {
  return model.transformer && core::has_sequence_head(model.transformer->loaded.config);
}

bool ServedModel::cross_encoder() const {
  return model.transformer && cmd::is_cross_encoder(model.transformer->loaded.config);
}

bool ServedModel::tags_tokens() const {
  return model.transformer && model.transformer->loaded.config.head == core::HeadKind::TokenClassification;
}

bool ServedModel::answers() const {
  return model.transformer && model.transformer->loaded.config.head == core::HeadKind::QuestionAnswering;
}

records::PipelineOptions ServedModel::options(bool truncate_left) const {
  records::PipelineOptions o = model.pipeline_options(flags);
  o.batching = records::Batching::Full;
  o.on_error = records::OnError::Skip;
  o.progress = false;
  if (truncate_left && o.tokenize.encode.truncation) o.tokenize.encode.truncation->side = tok::Side::Left;
  return o;
}

cmd::BatchLane& ServedModel::lane(const std::string& key, const std::function<std::unique_ptr<cmd::BatchLane>()>& make) {
  std::lock_guard lock(mutex_);
  auto& slot = lanes_[key];
  if (!slot) slot = make();  // a failure leaves the slot empty, to fail again the same way
  return *slot;
}

cmd::BatchLane& ServedModel::embed_lane(const EmbedLaneOptions& o) {
  const cmd::EmbedOptions& e = o.embed;
  std::string vectors;
  for (cmd::VectorKind kind : e.vectors) vectors += std::string(cmd::vector_kind_info(kind).name) + ",";
  const std::string key = fmt::format("embed {} {} {} {} {} {}", static_cast<int>(o.output), e.normalize ? int(*e.normalize) : -1,
                                      e.prompt ? "p:" + *e.prompt : "-", e.truncate_dim.value_or(-1), vectors, o.truncate_left);
  return lane(key, [&] { return std::make_unique<EmbedLane>(model, o, options(o.truncate_left)); });
}

cmd::BatchLane& ServedModel::rerank_lane(bool raw_scores, bool truncate_left) {
  const TaskModel& t = transformer(*this, "reranker (cross-encoder) head");
  if (!cross_encoder())
    bad_input("{} is not a reranker: rerank needs a cross-encoder (a sequence-classification head with one label)", name);
  const core::ScoreFunction function = raw_scores ? core::ScoreFunction::None : cmd::cross_encoder_function(t.loaded.config);
  return lane(fmt::format("rerank {} {}", raw_scores, truncate_left),
              [&] {
                return std::make_unique<HeadLane<cmd::CrossEncoder, cmd::RerankListTask>>(
                    t, options(truncate_left),
                    [](cmd::CrossEncoder& scorer, const core::BatchLimits& limits) {
                      return cmd::RerankListTask(scorer, limits, cmd::RerankSettings{});
                    },
                    function);
              });
}

cmd::BatchLane& ServedModel::similarity_lane(const std::optional<std::string>& prompt_name, bool truncate_left) {
  if (cross_encoder()) bad_input("{} is a cross-encoder: /similarity compares embeddings; rank with /rerank", name);
  return lane(fmt::format("similarity {} {}", prompt_name ? "p:" + *prompt_name : "-", truncate_left),
              [&] { return std::make_unique<SimilarityLane>(model, prompt_name, options(truncate_left)); });
}

cmd::BatchLane& ServedModel::classify_lane(bool raw_scores, bool truncate_left) {
  const TaskModel& t = transformer(*this, "classification head");
  if (!classifies()) bad_input("{} has no sequence-classification head", name);
  const core::ScoreFunction function =
      raw_scores ? core::ScoreFunction::None : parse_score_function("auto", t.loaded.config);
  return lane(fmt::format("classify {} {}", raw_scores, truncate_left),
              [&] {
                return std::make_unique<HeadLane<cmd::Classifier, cmd::ClassifyTask>>(
                    t, options(truncate_left), [&](cmd::Classifier& classifier, const core::BatchLimits& limits) {
                      return cmd::ClassifyTask(classifier, function, SIZE_MAX, limits);  // every label
                    });
              });
}

cmd::BatchLane& ServedModel::zero_shot_lane(const std::optional<std::string>& hypothesis_template, bool multi_label) {
  const TaskModel& t = transformer(*this, "NLI head");
  if (!classifies()) bad_input("{} has no sequence-classification head (zero-shot needs an NLI model)", name);
  cmd::ZeroShotSettings settings;
  settings.labels_field = "candidate_labels";  // not "labels", which the task writes
  if (hypothesis_template) settings.hypothesis_template = *hypothesis_template;
  settings.multi_label = multi_label;
  return lane(fmt::format("zero-shot {} {}", hypothesis_template ? "t:" + *hypothesis_template : "-", multi_label),
              [&] {
                return std::make_unique<HeadLane<cmd::Classifier, cmd::ZeroShotTask>>(
                    t, options(false), [&](cmd::Classifier& classifier, const core::BatchLimits& limits) {
                      return cmd::ZeroShotTask(classifier, limits, std::move(settings));
                    });
              });
}

cmd::BatchLane& ServedModel::ner_lane(const std::string& aggregation) {
  const TaskModel& t = transformer(*this, "token-classification head");
  if (!tags_tokens()) bad_input("{} has no token-classification head (ner)", name);
  cmd::NerSettings settings;
  settings.aggregation = parse_aggregation(aggregation);
  return lane("ner " + aggregation, [&] {
    return std::make_unique<HeadLane<cmd::TokenClassifier, cmd::NerTask>>(
        t, options(false), [&](cmd::TokenClassifier& classifier, const core::BatchLimits& limits) {
          return cmd::NerTask(classifier, *t.tokenizer, std::move(settings), cmd::NerOutput{}, limits);
        });
  });
}

cmd::BatchLane& ServedModel::qa_lane(std::size_t top_k) {
  const TaskModel& t = transformer(*this, "question-answering head");
  if (!answers()) bad_input("{} has no question-answering head (qa)", name);
  cmd::QaSettings given;
  given.top_k = top_k;
  const cmd::QaSettings settings = cmd::resolve_qa_settings(given, false, false, t.max_length);
  return lane(fmt::format("qa {}", top_k), [&] {
    records::PipelineOptions o = options(false);
    o.mark_truncated = false;  // a long context is read in windows: nothing is lost
    return std::make_unique<HeadLane<Answerer, cmd::QaTask>>(
        t, std::move(o),
        [&](Answerer& a, const core::BatchLimits& limits) {
          return cmd::QaTask(a.qa, *t.tokenizer, a.settings, std::nullopt, limits);
        },
        settings);
  });
}

}  // namespace bertkit::cli
