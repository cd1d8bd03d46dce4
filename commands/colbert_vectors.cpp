#include "commands/colbert_vectors.h"

#include "commands/encoder_batches.h"
#include "core/error.h"
#include "core/model/pooling.h"

#include <algorithm>

namespace bertkit::cmd {

namespace {

// PyLate's convert_tokens_to_ids of a prefix; a prefix the tokenizer lacks would be a new token with
// an untrained embedding row, which no checkpoint has.
std::optional<std::int32_t> prefix_id(const tok::Tokenizer& tokenizer, const std::string& prefix, const char* key) {
  if (prefix.empty()) return std::nullopt;
  auto id = tokenizer.token_id(prefix);
  if (!id) bad_input("config_sentence_transformers.json: {} \"{}\" is not a token of the tokenizer", key, prefix);
  return id;
}

ColbertSide side(const tok::Tokenizer& tokenizer, const std::string& prefix, const char* key, std::int64_t length,
                 const char* length_key, std::size_t positions) {
  ColbertSide s;
  s.prefix_id = prefix_id(tokenizer, prefix, key);
  s.length = length;
  if (static_cast<std::size_t>(length) > positions)
    bad_input("config_sentence_transformers.json: {} {} is more than the model's {} positions", length_key, length,
              positions);
  if (s.text_tokens() < 2) bad_input("config_sentence_transformers.json: {} {} leaves no room for a text", length_key, length);
  return s;
}

}  // namespace

ColbertPlan plan_colbert(const core::LoadedModel& model, const tok::Tokenizer& tokenizer) {
  const core::SentenceTransformerConfig& st = *model.sentence_transformer;
  const core::ColbertConfig& c = *st.colbert;
  const std::size_t positions = model.config.usable_positions();
  ColbertPlan plan;
  plan.query = side(tokenizer, c.query_prefix, "query_prefix", c.query_length, "query_length", positions);
  plan.query.expand = c.do_query_expansion;
  plan.query.attend_expansion = c.attend_to_expansion_tokens;
  plan.document = side(tokenizer, c.document_prefix, "document_prefix", c.document_length, "document_length", positions);
  plan.mask_id = tokenizer.mask_id();
  if (plan.query.expand && plan.mask_id < 0) bad_input("the tokenizer has no mask token to expand queries with");
  // convert_tokens_to_ids gives a word outside the vocabulary the unknown token's id.
  const std::int32_t unk = tokenizer.token_id(tokenizer.spec().special.unk).value_or(-1);
  for (const std::string& word : c.skiplist_words) plan.skiplist.push_back(tokenizer.token_id(word).value_or(unk));
  std::sort(plan.skiplist.begin(), plan.skiplist.end());
  plan.text.modules.strip_texts = st.strip_texts;
  plan.text.lower_case = st.do_lower_case.value_or(false);
  return plan;
}

void colbert_input(const tok::Encoding& e, const ColbertSide& side, std::int32_t mask_id, tok::Encoding& out) {
  // Right truncation keeps the final special token ([SEP]) after the first tokens, as the tokenizer's own
  // truncation to text_tokens() would.
  const auto keep = std::min(e.size(), static_cast<std::size_t>(side.text_tokens()));
  out.clear();
  auto push = [&](std::int32_t id, std::int32_t type, bool attended) {
    out.ids.push_back(id);
    out.type_ids.push_back(type);
    out.attention_mask.push_back(attended ? 1 : 0);
  };
  auto type_of = [&](std::size_t i) { return e.type_ids.empty() ? 0 : e.type_ids[i]; };
  for (std::size_t i = 0; i < keep; ++i) {
    const std::size_t from = i + 1 == keep && keep < e.size() ? e.size() - 1 : i;
    push(e.ids[from], type_of(from), true);
    if (i == 0 && side.prefix_id) push(*side.prefix_id, 0, true);
  }
  if (side.expand)
    while (static_cast<std::int64_t>(out.ids.size()) < side.length) push(mask_id, 0, side.attend_expansion);
}

ColbertEncoder::ColbertEncoder(const core::LoadedModel& model, std::shared_ptr<const core::Weights> weights,
                               ColbertPlan plan)
    : plan_(std::move(plan)),
      encoder_(model.config, weights),
      dense_(core::dense_layers(model.sentence_transformer->dense, model.config.hidden_size, *weights)) {
  if (dense_.empty()) bad_input("a ColBERT model needs its Dense module (1_Dense)");
}

void ColbertEncoder::keep_rows(const tok::Encoding& input, bool query, const float* rows, std::vector<float>& out) const {
  const auto dim = static_cast<std::size_t>(dimension());
  out.clear();
  for (std::size_t t = 0; t < input.size(); ++t) {
    // A query keeps every row (its expansion included); a document drops its skiplist tokens.
    if (!query && std::binary_search(plan_.skiplist.begin(), plan_.skiplist.end(), input.ids[t])) continue;
    out.insert(out.end(), rows + t * dim, rows + (t + 1) * dim);
    core::l2_normalize(out.data() + out.size() - dim, dimension());
  }
}

void ColbertEncoder::vectors(std::span<const tok::Encoding> encodings, std::span<const std::uint8_t> queries,
                             const core::BatchLimits& limits, std::vector<std::vector<float>>& out) {
  inputs_.resize(encodings.size());
  for (std::size_t i = 0; i < encodings.size(); ++i)
    colbert_input(encodings[i], queries[i] ? plan_.query : plan_.document, plan_.mask_id, inputs_[i]);
  out.resize(encodings.size());
  run_encoder(encoder_, inputs_, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& output) {
    const float* current = output.last().data();
    for (const core::Linear& dense : dense_) {
      float* next = (current == a_.data() ? b_ : a_).reserve(static_cast<std::size_t>(output.tokens() * dense.out_features()));
      dense.forward(current, output.tokens(), next);
      current = next;
    }
    for (std::size_t k = 0; k < indices.size(); ++k)
      keep_rows(inputs_[indices[k]], queries[indices[k]] != 0, current + output.offsets[k] * dimension(), out[indices[k]]);
  });
}

}  // namespace bertkit::cmd
