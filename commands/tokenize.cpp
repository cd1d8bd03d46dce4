#include "commands/tokenize.h"

#include "core/error.h"

#include <charconv>

namespace bertkit::cmd {

std::vector<std::int32_t> parse_ids(std::string_view line) {
  std::vector<std::int32_t> ids;
  std::size_t i = 0;
  auto is_separator = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '\r'; };
  while (i < line.size()) {
    if (is_separator(line[i])) {
      ++i;
      continue;
    }
    std::int32_t id = 0;
    auto [end, ec] = std::from_chars(line.data() + i, line.data() + line.size(), id);
    if (ec != std::errc() || (end != line.data() + line.size() && !is_separator(*end)))
      bad_input("'{}' is not a token id", line.substr(i, line.find_first_of(" \t,[]", i) - i));
    ids.push_back(id);
    i = static_cast<std::size_t>(end - line.data());
  }
  return ids;
}

}  // namespace bertkit::cmd
