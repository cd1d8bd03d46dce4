// Gzip inputs on arbitrary bytes. The first byte picks the mode: the rest gzip-compressed (then read
// back: one record per line, as the plain text gives), the same with one byte damaged or the end cut
// (a clean error or a result, never a crash), or the rest as raw bytes behind a gzip signature (the
// inflater on hostile headers and deflate data).
#include "records/line_reader.h"
#include "core/error.h"
#include "fuzz_check.h"
#include "gzip_bytes.h"
#include "memory_file.h"
#include "reader_knobs.h"

#include <string>

using namespace bertkit::records;
using bkfuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0] & 3;
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file;
  if (mode == 3) {
    file = "\x1f\x8b" + std::string(body);
  } else {
    file = bkfuzz::gzip_bytes(body);
    std::size_t at = (data[0] >> 2) % file.size();
    if (mode == 1) file[at] = static_cast<char>(file[at] ^ 0xA5);
    if (mode == 2) file.resize(at);
  }
  bkfuzz::MemoryFile input(reinterpret_cast<const std::uint8_t*>(file.data()), file.size());
  try {
    LineReader reader({input.path()}, ReaderOptions{}, false);
    Record record;
    std::size_t count = 0;
    while (reader.next(record)) ++count;
    if (mode == 0) check(bkfuzz::one_record_a_line(body, count));  // intact data
  } catch (const bertkit::Error& e) {
    check(mode != 0);
  }
  return 0;
}
