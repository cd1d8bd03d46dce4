// The .npy reader of --calibration: float32 C-order 2-D arrays read whole; anything else refused by name.
#include "expect_bad_input.h"
#include "records/npy_reader.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

namespace {

// A version-1 .npy with `header` (padded as numpy pads it) and `values` as data.
std::string npy(const std::string& dict, const std::vector<float>& values) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  return out;
}

}  // namespace

TEST_CASE("npy reader: a float32 matrix is read whole, row-major") {
  const auto m = bertkit::records::parse_npy_f32(
      npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", {1, 2, 3, 4, 5, -6}), "c.npy");
  CHECK(m.rows == 2);
  CHECK(m.cols == 3);
  CHECK(m.values == std::vector<float>{1, 2, 3, 4, 5, -6});
  // No rows: read as such (embed refuses it as calibration, naming the file).
  const auto none = bertkit::records::parse_npy_f32(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", {}), "c.npy");
  CHECK(none.rows == 0);
  CHECK(none.values.empty());
}

TEST_CASE("npy reader: another type, too little data and a shape past 64 bits are bad input naming the file") {
  using bertkit::records::parse_npy_f32;
  bktest::expect_bad_input([] { parse_npy_f32(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", {0, 0}), "c.npy"); },
                           "c.npy", "little-endian float32");
  bktest::expect_bad_input([] { parse_npy_f32(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", {1}), "c.npy"); },
                           "c.npy", "bytes of data for shape (2, 3)");
  bktest::expect_bad_input(
      [] {
        parse_npy_f32(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 3), }", {}), "c.npy");
      },
      "c.npy", "a shape of 99999999999999999999999 is too large");
}
