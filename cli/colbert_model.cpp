#include "cli/colbert_model.h"

#include "cli/calibration.h"
#include "commands/colbert_embed.h"
#include "core/error.h"
#include "records/record_writer.h"

#include <fmt/format.h>

#include <algorithm>

namespace bertkit::cli {

bool is_colbert(const TaskModel& model) {
  return model.loaded.sentence_transformer && model.loaded.sentence_transformer->colbert;
}

void set_colbert_length(const TaskFlags& flags, TaskModel& model, std::int64_t text_tokens, std::string from) {
  if (flags.max_length)
    usage_error("--max-length does not apply to a ColBERT model: query_length and document_length of "
                "config_sentence_transformers.json are its lengths");
  model.max_length = static_cast<std::size_t>(text_tokens);
  model.max_length_from = std::move(from);
}

ColbertPairs colbert_pairs(const TaskFlags& flags, TaskModel& model, core::MaxSimReduction reduction) {
  cmd::ColbertPlan plan = cmd::plan_colbert(model.loaded, *model.tokenizer);
  set_colbert_length(flags, model, std::max(plan.query.text_tokens(), plan.document.text_tokens()),
                     "the longer of query_length and document_length of config_sentence_transformers.json, less the "
                     "prefix; each side is cut to its own");
  ColbertPairs pairs;
  pairs.encoder = std::make_unique<cmd::ColbertEncoder>(model.loaded, model.weights, std::move(plan));
  pairs.scorer = std::make_unique<cmd::ColbertScorer>(*pairs.encoder, reduction);
  return pairs;
}

namespace {

std::string side_text(const cmd::ColbertSide& side, bool query) {
  return fmt::format("{} tokens{}{}", side.length, side.prefix_id ? fmt::format(", prefix id {}", *side.prefix_id) : "",
                     !query ? ", skiplist tokens dropped"
                     : side.expand ? side.attend_expansion ? ", [MASK] expansion (attended)" : ", [MASK] expansion (unattended)"
                                   : "");
}

}  // namespace

int run_colbert_embed(const TaskFlags& flags, TaskModel& model, const ColbertEmbedFlags& embed) {
  if (embed.prompt && *embed.prompt != "query" && *embed.prompt != "document")
    usage_error("--prompt of a ColBERT model is query or document, not '{}'", *embed.prompt);
  const bool queries = embed.prompt == "query";
  cmd::ColbertPlan plan = cmd::plan_colbert(model.loaded, *model.tokenizer);
  const cmd::ColbertSide& side = queries ? plan.query : plan.document;
  set_colbert_length(flags, model, side.text_tokens(),
                     fmt::format("{} of config_sentence_transformers.json, less the prefix",
                                 queries ? "query_length" : "document_length"));
  cmd::ColbertEncoder encoder(model.loaded, model.weights, std::move(plan));
  records::PipelineOptions options = pipeline_options(flags, model);
  std::optional<core::Ranges> calibration = calibration_ranges(embed.calibration, embed.precision, encoder.dimension());
  if (!embed.calibration.empty()) options.read_files.push_back({embed.calibration, "the --calibration file"});

  if (flags.dry_run) {
    Settings s = common_settings(flags, model);
    s.add("output vectors", fmt::format("colbert: {} values per kept token, L2-normalised ({})", encoder.dimension(),
                                        queries ? "queries" : "documents"));
    s.add(queries ? "query" : "document", side_text(side, queries));
    s.add("precision", embed.precision_name);
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }
  cmd::ColbertEmbedTask task(encoder, queries, options.limits);
  task.quantize(embed.precision, std::move(calibration));
  return run_task(flags, options, *model.tokenizer, task);
}

}  // namespace bertkit::cli
