#include "core/model/colbert_config.h"

#include "core/error.h"

namespace bertkit::core {

namespace {

// The key's value, when present and not null (PyLate keeps its default for null).
const nlohmann::json* present(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

void read_string(const nlohmann::json& j, const char* key, const std::string& where, std::string& out) {
  if (const auto* v = present(j, key)) {
    if (!v->is_string()) bad_input("{}: \"{}\" must be a string, not {}", where, key, v->dump());
    out = v->get<std::string>();
  }
}

void read_length(const nlohmann::json& j, const char* key, const std::string& where, std::int64_t& out) {
  if (const auto* v = present(j, key)) {
    if (!v->is_number_integer() || v->get<std::int64_t>() < 1)
      bad_input("{}: \"{}\" must be a positive integer, not {}", where, key, v->dump());
    out = v->get<std::int64_t>();
  }
}

void read_bool(const nlohmann::json& j, const char* key, const std::string& where, bool& out) {
  if (const auto* v = present(j, key)) {
    if (!v->is_boolean()) bad_input("{}: \"{}\" must be true or false, not {}", where, key, v->dump());
    out = v->get<bool>();
  }
}

}  // namespace

std::vector<std::string> punctuation_skiplist() {
  std::vector<std::string> words;
  for (char c : std::string_view("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")) words.emplace_back(1, c);
  return words;
}

void read_colbert_config(const nlohmann::json& j, const std::string& where, ColbertConfig& config) {
  read_string(j, "query_prefix", where, config.query_prefix);
  read_string(j, "document_prefix", where, config.document_prefix);
  read_length(j, "query_length", where, config.query_length);
  read_length(j, "document_length", where, config.document_length);
  read_bool(j, "do_query_expansion", where, config.do_query_expansion);
  read_bool(j, "attend_to_expansion_tokens", where, config.attend_to_expansion_tokens);
  // PyLate: without expansion there is nothing to attend to.
  if (!config.do_query_expansion) config.attend_to_expansion_tokens = false;
  if (const auto* v = present(j, "skiplist_words")) {
    if (!v->is_array()) bad_input("{}: \"skiplist_words\" must be a list of strings, not {}", where, v->dump());
    config.skiplist_words.clear();
    for (const auto& w : *v) {
      if (!w.is_string()) bad_input("{}: \"skiplist_words\" holds {}, not a string", where, w.dump());
      config.skiplist_words.push_back(w.get<std::string>());
    }
  }
}

ColbertConfig stanford_colbert_config(const nlohmann::json& metadata, const std::string& where,
                                      std::optional<std::int64_t>& dim) {
  if (!metadata.is_object()) bad_input("{}: not a JSON object", where);
  ColbertConfig c;
  c.query_prefix = "[unused0]";
  c.document_prefix = "[unused1]";
  c.document_length = 220;
  read_string(metadata, "query_token_id", where, c.query_prefix);
  read_string(metadata, "doc_token_id", where, c.document_prefix);
  read_length(metadata, "query_maxlen", where, c.query_length);
  read_length(metadata, "doc_maxlen", where, c.document_length);
  read_bool(metadata, "attend_to_mask_tokens", where, c.attend_to_expansion_tokens);
  bool mask_punctuation = true;
  read_bool(metadata, "mask_punctuation", where, mask_punctuation);
  if (!mask_punctuation) c.skiplist_words.clear();
  std::string similarity = "cosine";
  read_string(metadata, "similarity", where, similarity);
  if (similarity != "cosine")
    bad_input("{}: similarity \"{}\" is not supported (only cosine: MaxSim over normalised vectors)", where, similarity);
  dim.reset();
  if (present(metadata, "dim")) {
    std::int64_t d = 0;
    read_length(metadata, "dim", where, d);
    dim = d;
  }
  return c;
}

nlohmann::json colbert_config_json(const ColbertConfig& c) {
  return {{"query_prefix", c.query_prefix},
          {"document_prefix", c.document_prefix},
          {"query_length", c.query_length},
          {"document_length", c.document_length},
          {"do_query_expansion", c.do_query_expansion},
          {"attend_to_expansion_tokens", c.attend_to_expansion_tokens},
          {"skiplist_words", c.skiplist_words}};
}

}  // namespace bertkit::core
