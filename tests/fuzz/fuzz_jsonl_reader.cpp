// JSONL reader on arbitrary bytes. The first byte picks the options, the rest is the file. Beyond not
// crashing: a good record's texts are valid UTF-8 and its object holds the field as a string; its
// members, as the scanner found them in the line, are the object's items: each name and value text
// parses to the item's name and value (lone surrogate escapes read as U+FFFD, as the reader reads them).
// Bit 6: the text is a nested path (a.b / text.b: records/field_path.h).
#include "records/jsonl_reader.h"
#include "records/json_surrogates.h"
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
  JsonlOptions jsonl;
  jsonl.field = in.knobs & 1 ? "a" : "text";
  if (in.knobs & 64) jsonl.field += ".b";
  if (in.knobs & 2) jsonl.pair_field = "b";
  if (in.knobs & 4) jsonl.max_depth = 3;
  const ReaderOptions options = bkfuzz::reader_options(in.knobs, 3, 64);
  try {
    JsonlReader reader({in.file.path()}, jsonl, options);
    Record record;
    while (reader.next(record)) {
      if (record.bad()) continue;
      check(record.object.is_object());
      const nlohmann::ordered_json* text = FieldPath(bertkit::Setting::Field, jsonl.field).find(record.object);
      check(text && text->get_ref<const std::string&>() == record.text);
      check(bertkit::tok::valid_utf8_prefix(record.text) == record.text.size());
      check(bertkit::tok::valid_utf8_prefix(record.text_pair) == record.text_pair.size());
      check(record.has_pair == !jsonl.pair_field.empty());
      check(record.members.size() == record.object.size());
      std::size_t i = 0;
      for (const auto& item : record.object.items()) {
        const JsonMember& m = record.members[i++];
        const std::string_view raw = record.raw;
        const auto parse = [](std::string_view text) {
          std::string fixed;
          return nlohmann::ordered_json::parse(replace_lone_surrogates(text, fixed).count ? fixed : std::string(text));
        };
        check(parse(raw.substr(m.name_begin, m.name_end - m.name_begin)) == item.key());
        check(parse(raw.substr(m.value_begin, m.value_end - m.value_begin)) == item.value());
      }
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
