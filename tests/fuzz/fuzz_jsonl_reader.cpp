// JSONL reader on arbitrary bytes. The first byte picks the options, the rest is the file. Beyond not
// crashing: a good record's texts are valid UTF-8 and its object holds the field as a string.
#include "records/jsonl_reader.h"
#include "core/error.h"
#include "fuzz_check.h"
#include "memory_file.h"
#include "reader_knobs.h"
#include "tokenizer/utf8.h"

using namespace bertkit::records;
using bkfuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t knobs = data[0];
  bkfuzz::MemoryFile input(data + 1, size - 1);
  JsonlOptions jsonl;
  jsonl.field = knobs & 1 ? "a" : "text";
  if (knobs & 2) jsonl.pair_field = "b";
  if (knobs & 4) jsonl.max_depth = 3;
  const ReaderOptions options = bkfuzz::reader_options(knobs, 3, 64);
  try {
    JsonlReader reader({input.path()}, jsonl, options);
    Record record;
    while (reader.next(record)) {
      if (record.bad()) continue;
      check(record.object.is_object());
      check(record.object.at(jsonl.field).get_ref<const std::string&>() == record.text);
      check(bertkit::tok::valid_utf8_prefix(record.text) == record.text.size());
      check(bertkit::tok::valid_utf8_prefix(record.text_pair) == record.text_pair.size());
      check(record.has_pair == !jsonl.pair_field.empty());
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
