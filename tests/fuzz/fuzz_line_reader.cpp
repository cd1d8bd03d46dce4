// Line reader on arbitrary bytes. The first byte picks the options, the rest is the file. Beyond not
// crashing: texts are valid UTF-8 and, in the plain lenient mode, there is one record per line.
#include "records/input_signature.h"
#include "records/line_reader.h"
#include "core/error.h"
#include "fuzz_check.h"
#include "memory_file.h"
#include "reader_knobs.h"
#include "tokenizer/utf8.h"

using namespace bertkit::records;
using bkfuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bkfuzz::KnobbedFile in(data, size);
  const bool pairs = in.knobs & 1;
  const ReaderOptions options = bkfuzz::reader_options(in.knobs, 1, 16);
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    LineReader reader({in.file.path()}, options, pairs);
    Record record;
    std::size_t count = 0;
    while (reader.next(record)) {
      ++count;
      check(record.line == count);
      if (record.bad()) continue;
      check(bertkit::tok::valid_utf8_prefix(record.text) == record.text.size());
      check(bertkit::tok::valid_utf8_prefix(record.text_pair) == record.text_pair.size());
    }
    // Gzip is read through: fuzz_gzip_input checks its lines.
    if (sniff_input(body).kind != InputKind::Gzip) check(bkfuzz::one_record_a_line(body, count));
  } catch (const bertkit::Error&) {
  }
  return 0;
}
