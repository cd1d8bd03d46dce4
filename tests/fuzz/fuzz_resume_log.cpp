// The resume log (--resume, records/resume_log.h) on arbitrary bytes, at an output size taken from the
// first bytes. Beyond not crashing: a checkpoint found lies inside the output and the log, with the
// header inside the bytes kept.
#include "core/error.h"
#include "records/resume_log.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint64_t output_size = static_cast<std::uint64_t>(data[0]) << data[1] % 40;
  const std::string_view log(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::string settings = bertkit::records::resume_settings_line(R"(["tokenize","-o","out"])");
  try {
    const auto p = bertkit::records::find_resume_point(log, settings, output_size, "fuzz.resume");
    if (p.bytes > output_size || p.log_bytes > log.size() || p.header_bytes > p.bytes) std::abort();
    if (p.log_bytes == 0 && (p.records || p.bytes || p.header_bytes)) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
