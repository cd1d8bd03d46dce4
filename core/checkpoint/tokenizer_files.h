#pragma once
// A model's tokenizer files as text, any of them absent: what the tokenizer (tokenizer/) is built from
// and what a converted model file carries. It lives in core so that loading a model fills it without
// knowing the tokenizer, and the tokenizer takes it without knowing models.
#include <optional>
#include <string>

namespace bertkit::core {

struct TokenizerFiles {
  std::optional<std::string> vocab_txt;
  std::optional<std::string> tokenizer_json;
  std::optional<std::string> tokenizer_config_json;
  std::optional<std::string> special_tokens_map_json;
  std::optional<std::string> wordpiece_image;  // bertkit's compiled tables (tok::write_wordpiece_image)
  std::string origin;  // the folder or file they came from, for messages
};

}  // namespace bertkit::core
