#pragma once
// What makes a sentence-transformers folder a PyLate ColBERT model (a pylate.models.Dense.Dense module
// in modules.json), with the settings config_sentence_transformers.json gives it: the query and document
// prefixes, lengths, [MASK] query expansion and the punctuation dropped from documents. A key that is
// missing (or null) takes PyLate's default (pylate/models/colbert.py, ColBERT.__init__).
#include <nlohmann/json.hpp>

#include <cstdint>
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

// The same keys, for a converted file.
nlohmann::json colbert_config_json(const ColbertConfig& config);

}  // namespace bertkit::core
