#include "records/npy_reader.h"

#include "core/error.h"
#include "core/files.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <regex>
#include <string>
#include <utility>

namespace bertkit::records {

namespace {

std::size_t shape_number(const std::ssub_match& digits, const std::string& name) {
  const std::string text = digits.str();
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) bad_input("{}: a shape of {} is too large", name, text);
  return n;
}

}  // namespace

FloatMatrix read_npy_f32(const std::filesystem::path& path) {
  return parse_npy_f32(core::read_text_file(path), path.string());
}

FloatMatrix parse_npy_f32(std::string_view file, const std::string& name) {
  const std::string bytes(file);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) bad_input("{}: not a .npy file", name);
  const auto byte = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(bytes[i])); };
  const std::size_t major = byte(6);
  if (major < 1 || major > 3) bad_input("{}: .npy version {} is not supported", name, major);
  // Version 1 has a 2-byte header length, versions 2 and 3 a 4-byte one.
  const std::size_t start = major == 1 ? 10 : 12;
  if (bytes.size() < start) bad_input("{}: truncated .npy header", name);
  std::size_t header_len = 0;
  for (std::size_t i = start; i-- > 8;) header_len = header_len << 8 | byte(i);
  if (start + header_len > bytes.size()) bad_input("{}: truncated .npy header", name);
  const std::string header = bytes.substr(start, header_len);
  std::smatch shape;
  if (!std::regex_search(header, std::regex(R"('descr':\s*'<f4')")) ||
      !std::regex_search(header, std::regex(R"('fortran_order':\s*False)")))
    bad_input("{}: expected a little-endian float32 C-order array ({})", name, header.substr(0, header.find('}') + 1));
  if (!std::regex_search(header, shape, std::regex(R"('shape':\s*\((\d+),\s*(\d+),?\))")))
    bad_input("{}: expected a 2-D array of shape (rows, dimension)", name);
  FloatMatrix m;
  m.rows = shape_number(shape[1], name);
  m.cols = shape_number(shape[2], name);
  const std::size_t data = bytes.size() - start - header_len;
  if (m.cols == 0 || data / sizeof(float) / m.cols != m.rows || data != m.rows * m.cols * sizeof(float))
    bad_input("{}: {} bytes of data for shape ({}, {})", name, data, m.rows, m.cols);
  m.values.resize(m.rows * m.cols);
  auto* out = reinterpret_cast<unsigned char*>(m.values.data());
  if (data) std::memcpy(out, bytes.data() + start + header_len, data);  // (0, n) has no buffer to copy to
  if constexpr (std::endian::native == std::endian::big)
    for (std::size_t i = 0; i < data; i += 4) std::swap(out[i], out[i + 3]), std::swap(out[i + 1], out[i + 2]);
  return m;
}

}  // namespace bertkit::records
