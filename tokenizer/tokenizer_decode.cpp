// Tokenizer's way back from ids to text: through the decoder tokenizer.json names (tokenizer/decoder.h).
#include "tokenizer/tokenizer.h"

#include "core/error.h"

#include <string>
#include <vector>

namespace bertkit::tok {

std::string Tokenizer::decode(std::span<const std::int32_t> ids, bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (std::int32_t id : ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= vocab_size())
      bad_input("id {} is outside the vocabulary (size {})", id, vocab_size());
    if (skip_special_tokens && is_special_id(id)) continue;
    tokens.emplace_back(token(id));
  }
  return decoder_->decode(tokens);
}

std::string Tokenizer::tokens_to_string(const std::vector<std::string>& tokens) const { return decoder_->join(tokens); }

}  // namespace bertkit::tok
