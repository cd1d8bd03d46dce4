// The .npy reader (--calibration) on arbitrary bytes. Beyond not crashing: what it accepts holds
// exactly rows x cols values, and the data the header announces.
#include "core/error.h"
#include "records/npy_reader.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const bertkit::records::FloatMatrix m = bertkit::records::parse_npy_f32(bytes, "fuzz.npy");
    if (m.cols == 0 || m.values.size() != m.rows * m.cols || m.values.size() * sizeof(float) > size) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
