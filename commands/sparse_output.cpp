#include "commands/sparse_output.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/json.h"
#include "core/model/sparse_linear_head.h"
#include "core/model/splade_head.h"

#include <algorithm>

namespace bertkit::cmd {

namespace {

// eos_token of tokenizer_config.json (a string or an added-token object), else the separator token:
// FlagEmbedding drops tokenizer.eos_token_id, which for XLM-R's files is </s>, the separator.
std::string eos_token(const core::LoadedModel& model, const tok::Tokenizer& tokenizer) {
  if (const auto& text = model.tokenizer.tokenizer_config_json) {
    const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_object() && j.contains("eos_token")) {
      const nlohmann::json& eos = j["eos_token"];
      if (eos.is_string()) return eos.get<std::string>();
      if (eos.is_object() && eos.contains("content") && eos["content"].is_string()) return eos["content"].get<std::string>();
    }
  }
  return tokenizer.spec().special.sep;
}

// The ids FlagEmbedding's _process_token_weights leaves out: cls, eos, pad and unk tokens (those the
// vocabulary has).
std::vector<std::int32_t> m3_dropped_ids(const core::LoadedModel& model, const tok::Tokenizer& tokenizer) {
  const tok::SpecialTokens& special = tokenizer.spec().special;
  std::vector<std::int32_t> ids;
  for (const std::string& token : {special.cls, eos_token(model, tokenizer), special.pad, special.unk})
    if (auto id = tokenizer.token_id(token)) ids.push_back(*id);
  return ids;
}

}  // namespace

std::unique_ptr<core::SparseHead> make_sparse_head(const core::LoadedModel& model, const core::Weights& weights,
                                                   const tok::Tokenizer& tokenizer) {
  const auto& st = model.sentence_transformer;
  if (st && st->splade) return std::make_unique<core::SpladeHead>(model.config, weights, *st->splade);
  if (!model.sparse_linear) usage_error("model {} gives no sparse vectors", model.name);
  return std::make_unique<core::SparseLinearHead>(weights, model.config.hidden_size, m3_dropped_ids(model, tokenizer));
}

std::string sparse_head_text(const core::LoadedModel& model) {
  const auto& st = model.sentence_transformer;
  if (st && st->splade)
    return fmt::format("SpladePooling: the {} over the tokens of {}, x the MLM logits (1_SpladePooling/config.json)",
                       st->splade->strategy == core::SpladeStrategy::Max ? "max" : "sum",
                       st->splade->activation == core::SpladeActivation::Log1pRelu ? "log1p(log1p(relu(x)))"
                                                                                    : "log1p(relu(x))");
  return "sparse_linear.pt: relu(h·w + b) per token, the max per token id, the cls/eos/pad/unk ids dropped";
}

void add_sparse_fields(const SparseWriting& how, std::vector<std::string>& fields) {
  fields.emplace_back("sparse");
  if (how.tokens) fields.emplace_back("sparse_tokens");
}

void write_sparse(records::ResultWriter& results, core::SparseVector& v, const SparseWriting& how,
                  const tok::Tokenizer& tokenizer) {
  if (how.top_k) core::keep_top_k(v, *how.top_k);
  results.nested("sparse", [&](records::JsonLine& j) {
    j.begin_object().key("indices").begin_array();
    for (std::int32_t id : v.indices) j.value(id);
    j.end_array().key("values").value(std::span<const float>(v.values)).end_object();
  });
  if (!how.tokens) return;
  results.nested("sparse_tokens", [&](records::JsonLine& j) {
    j.begin_object().key("tokens").begin_array();
    for (std::int32_t id : v.indices) j.value(tokenizer.token(id));
    j.end_array().key("values").value(std::span<const float>(v.values)).end_object();
  });
}

}  // namespace bertkit::cmd
