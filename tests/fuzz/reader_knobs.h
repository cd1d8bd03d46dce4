#pragma once
// What the reader targets share: the knob bits that pick the reading options, and how many records a
// text gives when every line is one.
#include "records/record.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace bkfuzz {

// Three knob bits from bit `first` on: strict UTF-8, flag bad records (instead of failing), records
// limited to `small_limit` bytes. Each target keeps its own bits so its corpus keeps its meaning.
inline bertkit::records::ReaderOptions reader_options(std::uint8_t knobs, int first, std::size_t small_limit) {
  using bertkit::records::OnBadRecord;
  bertkit::records::ReaderOptions options;
  options.strict_utf8 = knobs >> first & 1;
  options.on_bad_record = knobs >> (first + 1) & 1 ? OnBadRecord::Flag : OnBadRecord::Fail;
  if (knobs >> (first + 2) & 1) options.max_record_bytes = small_limit;
  return options;
}

// Whether `count` records is what a line reader gives for `body`: one a line, a last line without its
// newline included, but none for a file that is only a byte order mark.
inline bool one_record_a_line(std::string_view body, std::size_t count) {
  std::size_t lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n'));
  if (!body.empty() && body.back() != '\n') ++lines;
  return count == lines || (body.starts_with("\xEF\xBB\xBF") && count + 1 == lines && body.size() == 3);
}

}  // namespace bkfuzz
