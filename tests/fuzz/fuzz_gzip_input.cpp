// Gzip inputs on arbitrary bytes. The first byte picks the mode: the rest gzip-compressed (then read
// back: one record per line, as the plain text gives), the same with one byte damaged or the end cut
// (a clean error or a result, never a crash), or the rest as raw bytes behind a gzip signature (the
// inflater on hostile headers and deflate data).
#include "records/line_reader.h"
#include "core/error.h"
#include "memory_file.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <string>

using namespace bertkit::records;

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}

std::string gzip(std::string_view text) {
  z_stream z{};
  check(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  check(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0] & 3;
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file;
  if (mode == 3) {
    file = "\x1f\x8b" + std::string(body);
  } else {
    file = gzip(body);
    std::size_t at = (data[0] >> 2) % file.size();
    if (mode == 1) file[at] = static_cast<char>(file[at] ^ 0xA5);
    if (mode == 2) file.resize(at);
  }
  bkfuzz::MemoryFile input(reinterpret_cast<const std::uint8_t*>(file.data()), file.size());
  std::size_t lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n'));
  if (!body.empty() && body.back() != '\n') ++lines;
  try {
    LineReader reader({input.path()}, ReaderOptions{}, false);
    Record record;
    std::size_t count = 0;
    while (reader.next(record)) ++count;
    // Intact data: the text's lines, less a line that is only a byte order mark.
    if (mode == 0) check(count == lines || (body.starts_with("\xEF\xBB\xBF") && count + 1 == lines && body.size() == 3));
  } catch (const bertkit::Error& e) {
    check(mode != 0);
  }
  return 0;
}
