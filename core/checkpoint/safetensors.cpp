// safetensors: 8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}},
// then the data. Everything in the header is checked against the file before a view is made.
#include "core/checkpoint/raw_checkpoint.h"

#include "core/error.h"
#include "core/files.h"
#include "core/json.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

namespace bertkit::core {

namespace {

std::optional<DType> parse_dtype(std::string_view name) {
  static constexpr DType all[] = {DType::F32, DType::F16, DType::BF16, DType::I8,
                                  DType::U8,  DType::I32, DType::I64,  DType::Bool};
  for (DType d : all)
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

// safetensors itself refuses headers above 100 MB; so do we, before reading one.
constexpr std::uint64_t kMaxHeader = 100u << 20;

}  // namespace

std::size_t checked_nbytes(const Shape& shape, DType dtype, std::string_view what) {
  std::size_t n = dtype_size(dtype);
  for (std::int64_t d : shape) {
    if (d < 0) bad_input("{}: negative dimension in shape {}", what, shape_string(shape));
    auto ud = static_cast<std::size_t>(d);
    if (ud != 0 && n > std::numeric_limits<std::size_t>::max() / ud)
      bad_input("{}: shape {} is too large (its size overflows)", what, shape_string(shape));
    n *= ud;
  }
  return n;
}

void RawCheckpoint::append(RawCheckpoint&& other) {
  for (auto& t : other.tensors) tensors.push_back(std::move(t));
  for (auto& o : other.owners) owners.push_back(std::move(o));
  for (auto& f : other.files) files.push_back(std::move(f));
}

RawCheckpoint read_safetensors(const std::filesystem::path& path) {
  auto file = MappedFile::open(path);
  const std::string where = path.string();
  auto bytes = file->bytes();
  if (bytes.size() < 8) bad_input("{}: truncated safetensors file ({} bytes, no header)", where, bytes.size());
  std::uint64_t header_len = 0;
  std::memcpy(&header_len, bytes.data(), 8);
  if (header_len > bytes.size() - 8)
    bad_input("{}: safetensors header length {} runs past the end of the file ({} bytes)", where, header_len,
              bytes.size());
  if (header_len > kMaxHeader) bad_input("{}: safetensors header of {} bytes is too large", where, header_len);

  std::string_view header_text(reinterpret_cast<const char*>(bytes.data() + 8), header_len);
  auto header = parse_json(header_text, where + " (safetensors header)");
  if (!header.is_object()) bad_input("{}: safetensors header is not a JSON object", where);

  const std::byte* data = bytes.data() + 8 + header_len;
  const std::size_t data_size = bytes.size() - 8 - header_len;
  RawCheckpoint out;
  struct Range { std::size_t begin, end, index; };
  std::vector<Range> ranges;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    auto what = fmt::format("{}: tensor {}", where, name);
    if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") ||
        !entry.contains("data_offsets"))
      bad_input("{}: entry must have dtype, shape and data_offsets", what);
    const auto& jd = entry["dtype"];
    const auto& js = entry["shape"];
    const auto& jo = entry["data_offsets"];
    if (!jd.is_string()) bad_input("{}: dtype is not a string", what);
    auto dtype = parse_dtype(jd.get<std::string>());
    if (!dtype) bad_input("{}: unknown dtype \"{}\"", what, jd.get<std::string>());
    if (!js.is_array()) bad_input("{}: shape is not a list", what);
    Shape shape;
    for (const auto& d : js) {
      if (!d.is_number_unsigned()) bad_input("{}: shape {} has a dimension that is not a non-negative integer", what, js.dump());
      auto v = d.get<std::uint64_t>();
      if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        bad_input("{}: shape {} is too large (its size overflows)", what, js.dump());
      shape.push_back(static_cast<std::int64_t>(v));
    }
    std::size_t nbytes = checked_nbytes(shape, *dtype, what);
    if (!jo.is_array() || jo.size() != 2 || !jo[0].is_number_unsigned() || !jo[1].is_number_unsigned())
      bad_input("{}: data_offsets must be two non-negative integers", what);
    auto begin = jo[0].get<std::uint64_t>();
    auto end = jo[1].get<std::uint64_t>();
    if (begin > end || end > data_size)
      bad_input("{}: data_offsets [{}, {}] are outside the data section ({} bytes)", what, begin, end, data_size);
    if (end - begin != nbytes)
      bad_input("{}: data_offsets [{}, {}] hold {} bytes but {} {} needs {}", what, begin, end, end - begin,
                dtype_name(*dtype), shape_string(shape), nbytes);
    out.tensors.push_back({name, TensorView{*dtype, std::move(shape), data + begin, nbytes}});
    ranges.push_back({begin, end, out.tensors.size() - 1});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end)
      bad_input("{}: tensors {} and {} overlap in the file", where, out.tensors[ranges[i - 1].index].name,
                out.tensors[ranges[i].index].name);
  out.owners.push_back(file);
  out.files.push_back(path);
  return out;
}

}  // namespace bertkit::core
