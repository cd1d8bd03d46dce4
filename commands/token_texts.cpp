#include "commands/token_texts.h"

#include "records/json_line.h"

#include <fmt/format.h>

namespace bertkit::cmd {

TokenTexts::TokenTexts(const tok::Tokenizer& tokenizer, Style style) {
  const std::size_t n = tokenizer.vocab_size();
  starts_.reserve(n + 1);
  for (std::size_t id = 0; id < n; ++id) {
    starts_.push_back(static_cast<std::uint32_t>(texts_.size()));
    if (style == Style::Id) {
      const fmt::format_int digits(id);
      texts_.append(digits.data(), digits.size());
    } else if (style == Style::Json) {
      records::append_json_string(texts_, tokenizer.token(static_cast<std::int32_t>(id)));
    } else {
      texts_ += tokenizer.token(static_cast<std::int32_t>(id));
    }
  }
  starts_.push_back(static_cast<std::uint32_t>(texts_.size()));
  texts_.append(kSlack, '\0');
}

}  // namespace bertkit::cmd
