// PyLate's ColBERT settings (core/model/colbert_config.h: query/document prefixes and lengths, query
// expansion, skiplist) read from config_sentence_transformers.json text on arbitrary bytes, and the same
// bytes as a Stanford ColBERT artifact.metadata. Beyond not
// crashing: settings that are read have lengths of at least 1, no attended expansion without expansion,
// and survive the converted file's copy (colbert_config_json) unchanged.
#include "core/error.h"
#include "core/json.h"
#include "core/model/colbert_config.h"

#include <cstdlib>
#include <optional>
#include <string_view>

using namespace bertkit::core;

namespace {

bool same(const ColbertConfig& a, const ColbertConfig& b) {
  return a.query_prefix == b.query_prefix && a.document_prefix == b.document_prefix &&
         a.query_length == b.query_length && a.document_length == b.document_length &&
         a.do_query_expansion == b.do_query_expansion && a.attend_to_expansion_tokens == b.attend_to_expansion_tokens &&
         a.skiplist_words == b.skiplist_words;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json j = parse_json(text, "fuzz/config_sentence_transformers.json");
    if (!j.is_object()) return 0;
    ColbertConfig c;
    read_colbert_config(j, "fuzz", c);
    if (c.query_length < 1 || c.document_length < 1) std::abort();
    if (!c.do_query_expansion && c.attend_to_expansion_tokens) std::abort();
    ColbertConfig copy;
    read_colbert_config(colbert_config_json(c), "fuzz copy", copy);
    if (!same(c, copy)) std::abort();
  } catch (const bertkit::Error&) {
  }
  // The same bytes as Stanford ColBERT's artifact.metadata: always expanded queries, lengths of at least 1.
  try {
    std::optional<std::int64_t> dim;
    const ColbertConfig s = stanford_colbert_config(parse_json(text, "fuzz/artifact.metadata"), "fuzz", dim);
    if (s.query_length < 1 || s.document_length < 1 || !s.do_query_expansion || (dim && *dim < 1)) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
