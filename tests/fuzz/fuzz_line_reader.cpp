// Line reader on arbitrary bytes. The first byte picks the options, the rest is the file. Beyond not
// crashing: texts are valid UTF-8 and, in the plain lenient mode, there is one record per line.
#include "records/input_signature.h"
#include "records/line_reader.h"
#include "core/error.h"
#include "memory_file.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <cstdlib>

using namespace bertkit::records;

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t knobs = data[0];
  const bool pairs = knobs & 1;
  bkfuzz::MemoryFile input(data + 1, size - 1);
  ReaderOptions options;
  options.strict_utf8 = knobs & 2;
  options.on_bad_record = knobs & 4 ? OnBadRecord::Flag : OnBadRecord::Fail;
  if (knobs & 8) options.max_record_bytes = 16;
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n'));
  if (!body.empty() && body.back() != '\n') ++lines;
  try {
    LineReader reader({input.path()}, options, pairs);
    Record record;
    std::size_t count = 0;
    while (reader.next(record)) {
      ++count;
      check(record.line == count);
      if (record.bad()) continue;
      check(bertkit::tok::valid_utf8_prefix(record.text) == record.text.size());
      check(bertkit::tok::valid_utf8_prefix(record.text_pair) == record.text_pair.size());
    }
    // A file that is only a byte order mark has no line. (Gzip is read through: fuzz_gzip_input.)
    if (sniff_input(body).kind != InputKind::Gzip)
      check(count == lines || (body.starts_with("\xEF\xBB\xBF") && count + 1 == lines && body.size() == 3));
  } catch (const bertkit::Error&) {
  }
  return 0;
}
