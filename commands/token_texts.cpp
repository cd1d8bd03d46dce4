#include "commands/token_texts.h"

#include "records/json_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

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
  for (std::size_t id = 0; id < n; ++id) longest_ = std::max<std::size_t>(longest_, starts_[id + 1] - starts_[id]);
  texts_.append(kSlack, '\0');
}

char* TokenTexts::write_joined(char* out, std::span<const std::int32_t> ids, char separator) const {
  // Locals: through `out` the compiler would otherwise reload the tables for every token.
  const char* texts = texts_.data();
  const std::uint32_t* starts = starts_.data();
  const std::size_t count = starts_.size() - 1;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto i = static_cast<std::size_t>(ids[k]);
    if (i >= count) check(ids[k]);
    const std::size_t n = starts[i + 1] - starts[i];
    if (k) *out++ = separator;
    if (n <= kSlack) std::memcpy(out, texts + starts[i], kSlack);  // a fixed size: one move, not a call
    else std::memcpy(out, texts + starts[i], n);
    out += n;
  }
  return out;
}

}  // namespace bertkit::cmd
