#pragma once
// What makes a sentence-transformers folder a PyLate ColBERT model (a pylate.models.Dense.Dense module
// in modules.json), with the settings config_sentence_transformers.json gives it: the query and document
// prefixes, lengths, [MASK] query expansion and the punctuation dropped from documents. A key that is
// missing (or null) takes PyLate's default (pylate/models/colbert.py, ColBERT.__init__).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// PyLate's default skiplist: Python's string.punctuation, a character each.
std::vector<std::string> punctuation_skiplist();

struct ColbertConfig {
  // Each a token (convert_tokens_to_ids), inserted after [CLS] as an id, never tokenized as text;
  // empty: none. "[unused0]"/"[unused1]" in checkpoints converted from Stanford ColBERT.
  std::string query_prefix = "[Q] ";
  std::string document_prefix = "[D] ";
  std::int64_t query_length = 32;      // tokens of every query, prefix and expansion included
  std::int64_t document_length = 180;  // at most, prefix included
  bool do_query_expansion = true;      // queries padded to query_length with [MASK]
  bool attend_to_expansion_tokens = false;
  std::vector<std::string> skiplist_words = punctuation_skiplist();  // tokens whose document vectors are dropped
};

// PyLate's settings in config_sentence_transformers.json (or a converted file's copy of them) over
// `config`; `where` names the file for errors (bad input: a key of the wrong type, a length below 1).
void read_colbert_config(const nlohmann::json& j, const std::string& where, ColbertConfig& config);

// Stanford ColBERT's artifact.metadata (its ColBERTConfig, saved beside an HF_ColBERT checkpoint) as
// PyLate reads such a model: query_token_id and doc_token_id are the prefixes, query_maxlen and
// doc_maxlen the lengths, attend_to_mask_tokens the expansion's attention, mask_punctuation the
// skiplist; queries are always expanded. Absent keys keep ColBERTConfig's defaults ("[unused0]",
// "[unused1]", 32, 220, false, true). `dim` (when given) is returned for the caller to check against the
// projection; a similarity other than cosine is bad input.
ColbertConfig stanford_colbert_config(const nlohmann::json& metadata, const std::string& where,
                                      std::optional<std::int64_t>& dim);

// The same keys, for a converted file.
nlohmann::json colbert_config_json(const ColbertConfig& config);

}  // namespace bertkit::core
