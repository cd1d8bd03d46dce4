#include "commands/tokenize.h"

#include "core/error.h"

#include <charconv>
#include <exception>

namespace bertkit::cmd {

std::vector<tok::Encoding> tokenize_batch(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs) {
  std::vector<tok::Encoding> out(inputs.size());
  std::exception_ptr error;
  const auto n = static_cast<std::ptrdiff_t>(inputs.size());
  // Exceptions must not cross the OpenMP region: keep the first, rethrow after it.
#pragma omp parallel for schedule(dynamic, 16) if (n > 64)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    try {
      const TextInput& in = inputs[static_cast<std::size_t>(i)];
      out[static_cast<std::size_t>(i)] = tokenizer.encode(in.text, in.pair, options.encode);
    } catch (...) {
#pragma omp critical
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  tok::pad_batch(out, options.padding);
  return out;
}

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
