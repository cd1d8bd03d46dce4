#include "records/float_text.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace bertkit::records {

namespace {
template <typename Float>
void append_shortest(std::string& out, Float x) {
  std::size_t start = out.size();
  fmt::format_to(std::back_inserter(out), "{}", x);
  if (std::isfinite(x) && out.find_first_of(".e", start) == std::string::npos) out += ".0";
}
}  // namespace

void append_float(std::string& out, float x) { append_shortest(out, x); }
void append_float(std::string& out, double x) { append_shortest(out, x); }

}  // namespace bertkit::records
