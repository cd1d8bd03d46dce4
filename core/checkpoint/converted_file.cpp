#include "core/checkpoint/converted_file.h"

#include "core/checkpoint/name_map.h"
#include "core/checkpoint/quantize.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash64.h"
#include "core/json.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>

namespace bertkit::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr char kMagic[8] = {'B', 'E', 'R', 'T', 'K', 'I', 'T', '\0'};
constexpr char kTrailerMagic[8] = {'B', 'K', 'S', 'U', 'M', '\0', '\0', '\0'};
// 2: Linear weights stored only packed (version 1 readers would find them missing).
constexpr std::uint32_t kVersion = 2, kOldestVersion = 1;
constexpr std::size_t kPrefix = 24, kTrailer = 16, kAlign = 64;
constexpr const char* kTokenizerFiles[] = {"vocab.txt", "tokenizer.json", "tokenizer_config.json",
                                           "special_tokens_map.json", "wordpiece.bin"};

std::uint64_t align_up(std::uint64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

template <typename Files>  // TokenizerFiles, const or not
auto& text_slot(Files& t, std::string_view name) {
  if (name == "vocab.txt") return t.vocab_txt;
  if (name == "tokenizer.json") return t.tokenizer_json;
  if (name == "tokenizer_config.json") return t.tokenizer_config_json;
  return t.special_tokens_map_json;
}

std::optional<std::string_view> tokenizer_file(const TokenizerFiles& t, std::string_view name) {
  if (name == "wordpiece.bin") return t.wordpiece_image ? std::optional(t.wordpiece_image->bytes) : std::nullopt;
  const auto& text = text_slot(t, name);
  return text ? std::optional<std::string_view>(*text) : std::nullopt;
}

json st_to_json(const SentenceTransformerConfig& st) {
  json dense = json::array();
  for (const auto& d : st.dense)
    dense.push_back({{"in_features", d.in_features}, {"out_features", d.out_features}, {"bias", d.bias},
                     {"activation", d.activation == DenseActivation::Tanh ? "tanh" : "identity"}});
  const Pooling& p = st.pooling;
  return {{"pooling", {{"cls", p.cls}, {"max", p.max}, {"mean", p.mean}, {"mean_sqrt_len", p.mean_sqrt_len},
                       {"weighted_mean", p.weighted_mean}, {"last_token", p.last_token},
                       {"include_prompt", p.include_prompt}}},
          {"dense", dense},
          {"normalize", st.normalize},
          {"max_seq_length", st.max_seq_length ? json(*st.max_seq_length) : json()},
          {"do_lower_case", st.do_lower_case ? json(*st.do_lower_case) : json()},
          {"prompts", st.prompts},
          {"default_prompt_name", st.default_prompt_name ? json(*st.default_prompt_name) : json()}};
}

// Typed access to the header with errors that name the file.
class HeaderReader {
 public:
  explicit HeaderReader(std::string where) : where_(std::move(where)) {}
  [[noreturn]] void fail(std::string_view what) const { bad_input("{}: bad converted file: {}", where_, what); }

  template <typename T>
  T get(const json& j, const char* key) const {
    auto it = j.find(key);
    if (it == j.end()) fail(fmt::format("missing \"{}\"", key));
    try {
      return it->get<T>();
    } catch (const json::exception&) {
      fail(fmt::format("\"{}\" has the wrong type", key));
    }
  }
  template <typename T>
  std::optional<T> optional(const json& j, const char* key) const {
    if (!j.contains(key) || j[key].is_null()) return std::nullopt;
    return get<T>(j, key);
  }
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

SentenceTransformerConfig st_from_json(const json& j, const HeaderReader& r) {
  SentenceTransformerConfig st;
  const json& p = r.get<json>(j, "pooling");
  st.pooling = {r.get<bool>(p, "cls"), r.get<bool>(p, "max"), r.get<bool>(p, "mean"), r.get<bool>(p, "mean_sqrt_len"),
                r.get<bool>(p, "weighted_mean"), r.get<bool>(p, "last_token"), r.get<bool>(p, "include_prompt")};
  for (const json& d : r.get<json>(j, "dense")) {
    DenseLayer layer{r.get<int>(d, "in_features"), r.get<int>(d, "out_features"), r.get<bool>(d, "bias"),
                     DenseActivation::Identity};
    auto act = r.get<std::string>(d, "activation");
    if (act == "tanh") layer.activation = DenseActivation::Tanh;
    else if (act != "identity") r.fail(fmt::format("unknown dense activation \"{}\"", act));
    if (layer.in_features <= 0 || layer.out_features <= 0) r.fail("dense layer sizes must be positive");
    st.dense.push_back(layer);
  }
  st.normalize = r.get<bool>(j, "normalize");
  st.max_seq_length = r.optional<int>(j, "max_seq_length");
  st.do_lower_case = r.optional<bool>(j, "do_lower_case");
  st.prompts = r.get<std::map<std::string, std::string>>(j, "prompts");
  st.default_prompt_name = r.optional<std::string>(j, "default_prompt_name");
  return st;
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::I8})
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

// A parsed and validated converted file, before it becomes a LoadedModel.
struct ParsedFile {
  std::shared_ptr<const MappedFile> file;
  json header;
  std::uint64_t data_start = 0, data_size = 0;
  struct Entry {
    std::string name;
    DType dtype = DType::U8;  // U8 for blobs
    Shape shape;
    std::uint64_t offset = 0, nbytes = 0;
  };
  std::vector<Entry> files, tensors;
  struct Packed {
    Entry entry;
    std::string layout;
    Shape shape;                     // [out, in]; empty in version 1 files
    std::vector<std::string> parts;  // stored only in this form; empty when also stored plain
    dnnl::memory::desc parts_layout;  // with parts: the layout the bytes were checked against
  };
  std::vector<Packed> packed;
};

// The layout of a packed entry that stands for its parts; BadInput naming the tensor unless its bytes
// are exactly what the layout needs.
dnnl::memory::desc parts_layout(const ParsedFile::Packed& p, const HeaderReader& r) {
  if (p.shape.size() != 2 || p.shape[0] <= 0 || p.shape[1] <= 0 || p.parts.empty() ||
      p.shape[0] % static_cast<std::int64_t>(p.parts.size()) != 0)
    r.fail(fmt::format("packed {} has shape {} for {} parts", p.entry.name, shape_string(p.shape), p.parts.size()));
  // No layout takes less than a byte per value: an absurd shape is refused before oneDNN sizes it.
  if (checked_nbytes(p.shape, DType::I8, r.where() + ": packed " + p.entry.name) > p.entry.nbytes)
    r.fail(fmt::format("packed {} has {} bytes for shape {}", p.entry.name, p.entry.nbytes, shape_string(p.shape)));
  auto layout = layout_from_name({p.shape[1], p.shape[0]}, p.layout);
  if (!layout) r.fail(fmt::format("packed {} has layout \"{}\", unknown to this bertkit", p.entry.name, p.layout));
  if (layout->get_size() != p.entry.nbytes)
    r.fail(fmt::format("packed {} has {} bytes; layout {} of shape {} needs {}", p.entry.name, p.entry.nbytes, p.layout,
                       shape_string(p.shape), layout->get_size()));
  return *layout;
}

ParsedFile parse_file(const fs::path& path) {
  ParsedFile pf;
  pf.file = MappedFile::open(path);
  HeaderReader r(path.string());
  auto bytes = pf.file->bytes();
  if (bytes.size() < kPrefix + kTrailer || std::memcmp(bytes.data(), kMagic, 8) != 0)
    r.fail("too short or no BERTKIT magic");
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  if (version < kOldestVersion || version > kVersion)
    bad_input("{}: converted file format version {}; this bertkit reads versions {} to {} (convert the model again)",
              path.string(), version, kOldestVersion, kVersion);
  std::uint64_t header_len = 0;
  std::memcpy(&header_len, bytes.data() + 16, 8);
  if (header_len > bytes.size() - kPrefix - kTrailer) r.fail("header length runs past the end of the file");
  pf.header = parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data() + kPrefix), header_len),
                         path.string() + " (header)");
  if (!pf.header.is_object()) r.fail("header is not a JSON object");
  if (std::memcmp(bytes.data() + bytes.size() - 8, kTrailerMagic, 8) != 0) r.fail("no checksum trailer (truncated?)");
  pf.data_start = align_up(kPrefix + header_len);
  pf.data_size = r.get<std::uint64_t>(pf.header, "data_size");
  if (pf.data_start > bytes.size() || pf.data_size != bytes.size() - kTrailer - pf.data_start)
    r.fail(fmt::format("data section of {} bytes does not match the file size {}", pf.data_size, bytes.size()));

  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  auto place = [&](const json& e, ParsedFile::Entry& entry) {
    entry.name = r.get<std::string>(e, "name");
    entry.offset = r.get<std::uint64_t>(e, "offset");
    entry.nbytes = r.get<std::uint64_t>(e, "nbytes");
    if (entry.offset % kAlign != 0) r.fail(fmt::format("{} is not 64-byte aligned", entry.name));
    if (entry.offset > pf.data_size || entry.nbytes > pf.data_size - entry.offset)
      r.fail(fmt::format("{} lies outside the data section", entry.name));
    ranges.emplace_back(entry.offset, entry.offset + entry.nbytes);
  };
  for (const json& e : r.get<json>(pf.header, "files")) {
    ParsedFile::Entry entry;
    place(e, entry);
    pf.files.push_back(std::move(entry));
  }
  std::set<std::string> names;
  for (const json& e : r.get<json>(pf.header, "tensors")) {
    ParsedFile::Entry entry;
    place(e, entry);
    auto dtype_text = r.get<std::string>(e, "dtype");
    auto dtype = dtype_from_name(dtype_text);
    if (!dtype) r.fail(fmt::format("tensor {} has unknown dtype \"{}\"", entry.name, dtype_text));
    entry.dtype = *dtype;
    entry.shape = r.get<Shape>(e, "shape");
    if (checked_nbytes(entry.shape, entry.dtype, r.where() + ": tensor " + entry.name) != entry.nbytes)
      r.fail(fmt::format("tensor {} has {} bytes for shape {}", entry.name, entry.nbytes, shape_string(entry.shape)));
    if (!names.insert(entry.name).second) r.fail(fmt::format("tensor {} appears twice", entry.name));
    pf.tensors.push_back(std::move(entry));
  }
  // Packed matrices: since version 2 instead of their plain parts; in version 1 f32 files besides them.
  if (auto packed = r.optional<json>(pf.header, "packed"))
    for (const json& e : *packed) {
      ParsedFile::Packed p;
      place(e, p.entry);
      p.layout = r.get<std::string>(e, "layout");
      if (!names.insert("packed " + p.entry.name).second) r.fail(fmt::format("packed {} appears twice", p.entry.name));
      if (auto parts = r.optional<std::vector<std::string>>(e, "parts")) {
        p.parts = std::move(*parts);
        p.shape = r.get<Shape>(e, "shape");
        p.parts_layout = parts_layout(p, r);
        for (const auto& part : p.parts)
          if (!names.insert(part).second) r.fail(fmt::format("tensor {} appears twice", part));
      }
      pf.packed.push_back(std::move(p));
    }
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second) r.fail("two entries overlap");
  return pf;
}

// The tensors must be exactly what the config needs (plus int8 scales and Dense layers), in the
// dtypes a converted file may use for them.
void validate_weights(const LoadedModel& m, const std::string& where) {
  std::map<std::string, Shape> want;
  for (const auto& e : expected_tensors(m.config))
    if (!e.optional || m.weights.find(e.name)) want[e.name] = e.shape;
  if (m.sentence_transformer)
    for (std::size_t k = 0; k < m.sentence_transformer->dense.size(); ++k) {
      const auto& d = m.sentence_transformer->dense[k];
      want["dense." + std::to_string(k) + ".weight"] = {d.out_features, d.in_features};
      if (d.bias) want["dense." + std::to_string(k) + ".bias"] = {d.out_features};
    }
  // By type and shape: tensors stored only packed are not recovered for this.
  auto require = [&](const std::string& name, const Shape& shape) {
    auto t = m.weights.info(name);
    if (!t) bad_input("{}: missing tensor {} (shape {})", where, name, shape_string(shape));
    if (t->shape != shape)
      bad_input("{}: tensor {} has shape {}, expected {}", where, name, shape_string(t->shape), shape_string(shape));
    return *t;
  };
  for (const auto& [name, shape] : want) {
    const TensorInfo t = require(name, shape);
    if (t.dtype != DType::F32 && !reducible(name, t.shape, t.dtype))
      bad_input("{}: tensor {} is {}; only Linear weights may be reduced", where, name, dtype_name(t.dtype));
    if (t.dtype == DType::I8 && require(name + ".scale", {shape[0]}).dtype != DType::F32)
      bad_input("{}: scale of {} is not F32", where, name);
  }
  for (const auto& name : m.weights.names()) {
    std::string base = name.ends_with(".scale") ? name.substr(0, name.size() - 6) : name;
    if (!want.count(base)) bad_input("{}: unexpected tensor {}", where, name);
    if (base != name && m.weights.info(base)->dtype != DType::I8) bad_input("{}: scale {} of a tensor that is not int8", where, name);
  }
}

}  // namespace

StoreType parse_store_type(std::string_view name) {
  if (name == "f32") return StoreType::F32;
  if (name == "f16") return StoreType::F16;
  if (name == "bf16") return StoreType::BF16;
  if (name == "int8") return StoreType::Int8;
  usage_error("unknown dtype \"{}\" (choose f32, f16, bf16 or int8)", name);
}

std::string_view stored_dtype_name(DType dtype) {
  switch (dtype) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::I8: return "int8";
    default: return "?";
  }
}

std::string_view store_type_name(StoreType type) {
  switch (type) {
    case StoreType::F32: return "f32";
    case StoreType::F16: return "f16";
    case StoreType::BF16: return "bf16";
    case StoreType::Int8: return "int8";
  }
  return "?";
}

DType store_dtype(StoreType type) {
  switch (type) {
    case StoreType::F32: return DType::F32;
    case StoreType::F16: return DType::F16;
    case StoreType::BF16: return DType::BF16;
    case StoreType::Int8: return DType::I8;
  }
  return DType::F32;
}

void write_converted_file(const LoadedModel& m, const fs::path& destination, StoreType type) {
  // Plan every entry (offsets relative to the data section) before writing, so the header comes first.
  struct Planned {
    std::string name;
    DType dtype;
    Shape shape;
    std::uint64_t offset = 0, nbytes = 0;
    std::function<void(const std::function<void(std::span<const std::byte>)>&)> emit;
  };
  std::vector<Planned> files, tensors;
  std::uint64_t cursor = 0;
  auto place = [&](Planned& p) {
    p.offset = cursor;
    cursor = align_up(cursor + p.nbytes);
  };
  for (const char* name : kTokenizerFiles) {
    const auto text = tokenizer_file(m.tokenizer, name);
    if (!text) continue;
    std::string_view content = *text;
    Planned p{name, DType::U8, {}, 0, content.size(), {}};
    p.emit = [content](const auto& out) { out(std::as_bytes(std::span(content.data(), content.size()))); };
    place(p);
    files.push_back(std::move(p));
  }

  // The type each tensor is stored in.
  auto stored_type = [&](const std::string& name, const Shape& shape) {
    return type != StoreType::F32 && reducible(name, shape, store_dtype(type)) ? store_dtype(type) : DType::F32;
  };
  // Packed matrices (Encoder::add_packed_to) are stored instead of their plain parts when they hold
  // them in the type this file stores them in; others are not stored.
  std::vector<std::pair<std::string, const PackedView*>> packed_weights;
  std::set<std::string> packed_only;
  for (const auto& [packed_name, view] : m.weights.packed()) {
    if (view.shape.size() != 2 || view.parts.empty()) continue;
    const auto layout = layout_from_name({view.shape[1], view.shape[0]}, view.layout);
    const Shape part_shape{view.shape[0] / static_cast<std::int64_t>(view.parts.size()), view.shape[1]};
    bool fits = layout && layout->get_size() == view.nbytes;
    for (const auto& part : view.parts) {
      auto t = m.weights.info(part);
      fits = fits && t && t->shape == part_shape && stored_type(part, part_shape) == layout_dtype(*layout);
    }
    if (!fits) continue;
    packed_weights.emplace_back(packed_name, &view);
    packed_only.insert(view.parts.begin(), view.parts.end());
  }

  json aliases = json::object();
  std::map<const std::byte*, std::string> written_at;
  const Weights* weights = &m.weights;
  auto plan = [&](Planned p) {
    place(p);
    tensors.push_back(std::move(p));
  };
  auto as_stored = [&](const std::string& name, const TensorView& t) {  // clang 14 captures no structured binding
    plan({name, t.dtype, t.shape, 0, t.nbytes, [t](const auto& out) { out(std::span(t.data, t.nbytes)); }});
  };
  for (const auto& name : m.weights.names()) {
    if (name.ends_with(".scale") && m.weights.info(name.substr(0, name.size() - 6))) continue;  // with its matrix
    const TensorInfo info = *m.weights.info(name);
    const DType target = stored_type(name, info.shape);
    const bool only_packed = packed_only.count(name) > 0;
    if (!only_packed) {
      const TensorView& t = *m.weights.find(name);
      if (auto it = written_at.find(t.data); it != written_at.end() && t.nbytes > 0) {
        const TensorView& first = *m.weights.find(it->second);
        if (first.shape == t.shape && first.dtype == t.dtype) {
          aliases[name] = it->second;  // tied weights are stored once
          continue;
        }
      }
      written_at.emplace(t.data, name);
    }
    // Already in its stored type: as it is (re-deriving int8 from its own values could move a scale).
    if (info.dtype == target) {
      if (!only_packed) as_stored(name, *m.weights.find(name));
      if (target == DType::I8) as_stored(name + ".scale", *m.weights.find(name + ".scale"));
      continue;
    }
    const auto rows = static_cast<std::size_t>(info.shape[0]);
    const auto cols = info.shape.size() == 2 ? static_cast<std::size_t>(info.shape[1]) : 1;
    if (target == DType::F32) {
      if (!only_packed)
        plan({name, DType::F32, info.shape, 0, static_cast<std::uint64_t>(shape_numel(info.shape)) * 4,
            [weights, name](const auto& out) {
              auto values = weights->values_f32(name);
              out(std::as_bytes(std::span(values)));
            }});
    } else if (target == DType::I8) {
      if (!only_packed)
        plan({name, DType::I8, info.shape, 0, rows * cols, [weights, name, rows, cols](const auto& out) {
                auto q = quantize_int8_rows(weights->values_f32(name), rows, cols);
                out(std::as_bytes(std::span(q.values)));
              }});
      plan({name + ".scale", DType::F32, {info.shape[0]}, 0, rows * 4, [weights, name, rows, cols](const auto& out) {
              auto q = quantize_int8_rows(weights->values_f32(name), rows, cols);
              out(std::as_bytes(std::span(q.scales)));
            }});
    } else if (!only_packed) {
      const bool half = target == DType::F16;
      plan({name, target, info.shape, 0, rows * cols * 2, [weights, name, half](const auto& out) {
              auto values = weights->values_f32(name);
              auto reduced = half ? to_f16(values) : to_bf16(values);
              out(std::as_bytes(std::span(reduced)));
            }});
    }
  }

  // The packed matrices, after every tensor.
  std::vector<Planned> packed;
  for (const auto& [packed_name, view] : packed_weights) {
    const std::span<const std::byte> bytes(view->data, view->nbytes);  // clang 14 captures no structured binding
    Planned p{packed_name, DType::U8, {}, 0, view->nbytes, [bytes](const auto& out) { out(bytes); }};
    place(p);
    packed.push_back(std::move(p));
  }

  json header = {{"format", "bertkit-model"},
                 {"bertkit_version", BERTKIT_VERSION},
                 {"source", m.name},
                 {"architecture", m.config.architecture},
                 {"model_type", family_name(m.config.family)},
                 {"dtype", store_type_name(type)},
                 {"labels", m.config.id2label},
                 {"config_json", m.config_json},
                 {"sentence_transformer", m.sentence_transformer ? st_to_json(*m.sentence_transformer) : json()},
                 {"aliases", aliases},
                 {"data_size", cursor}};
  json& jf = header["files"] = json::array();
  for (const auto& p : files) jf.push_back({{"name", p.name}, {"offset", p.offset}, {"nbytes", p.nbytes}});
  json& jt = header["tensors"] = json::array();
  for (const auto& p : tensors)
    jt.push_back({{"name", p.name}, {"dtype", dtype_name(p.dtype)}, {"shape", p.shape}, {"offset", p.offset},
                  {"nbytes", p.nbytes}});
  json& jp = header["packed"] = json::array();
  for (std::size_t i = 0; i < packed.size(); ++i) {
    const PackedView& view = *packed_weights[i].second;
    jp.push_back({{"name", packed[i].name}, {"layout", view.layout}, {"shape", view.shape}, {"parts", view.parts},
                  {"offset", packed[i].offset}, {"nbytes", packed[i].nbytes}});
  }
  std::string header_text = header.dump();

  AtomicFile file(destination);
  Hash64 hash;
  auto out = [&](std::span<const std::byte> bytes) {
    hash.update(bytes);
    file.write(bytes);
  };
  static const std::array<std::byte, kAlign> zeros{};
  auto pad_to = [&](std::uint64_t position) {
    while (file.size() < position) out(std::span(zeros).first(std::min<std::uint64_t>(kAlign, position - file.size())));
  };
  std::uint32_t version = kVersion, zero = 0;
  std::uint64_t header_len = header_text.size();
  out(std::as_bytes(std::span(kMagic)));
  out(std::as_bytes(std::span(&version, 1)));
  out(std::as_bytes(std::span(&zero, 1)));
  out(std::as_bytes(std::span(&header_len, 1)));
  out(std::as_bytes(std::span(header_text.data(), header_text.size())));
  const std::uint64_t data_start = align_up(kPrefix + header_len);
  for (auto* list : {&files, &tensors, &packed})
    for (const auto& p : *list) {
      pad_to(data_start + p.offset);
      std::uint64_t before = file.size();
      p.emit(out);
      if (file.size() - before != p.nbytes) runtime_error("converting {}: {} wrote an unexpected size", m.name, p.name);
    }
  pad_to(data_start + cursor);
  std::uint64_t checksum = hash.digest();
  file.write(std::as_bytes(std::span(&checksum, 1)));
  file.write(std::as_bytes(std::span(kTrailerMagic)));
  file.commit();
}

bool is_converted_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, 8);
  return in && std::memcmp(head, kMagic, 8) == 0;
}

LoadedModel load_converted_file(const fs::path& path, std::string_view spec) {
  ParsedFile pf = parse_file(path);
  HeaderReader r(path.string());
  const std::byte* data = pf.file->bytes().data() + pf.data_start;
  LoadedModel m;
  m.name = std::string(spec);
  m.location = path;
  m.config_json = r.get<std::string>(pf.header, "config_json");
  m.config = parse_model_config(m.config_json, path.string() + " (config.json)");
  for (const auto& f : pf.files) {
    if (std::find(std::begin(kTokenizerFiles), std::end(kTokenizerFiles), f.name) == std::end(kTokenizerFiles))
      r.fail(fmt::format("unknown file {}", f.name));
    const std::string_view bytes(reinterpret_cast<const char*>(data + f.offset), f.nbytes);
    if (f.name == "wordpiece.bin")
      m.tokenizer.wordpiece_image = SharedBytes{bytes, pf.file};
    else
      text_slot(m.tokenizer, f.name).emplace(bytes);
  }
  if (const json& st = r.get<json>(pf.header, "sentence_transformer"); !st.is_null())
    m.sentence_transformer = st_from_json(st, r);
  for (const auto& t : pf.tensors) m.weights.add(t.name, TensorView{t.dtype, t.shape, data + t.offset, t.nbytes});
  for (const auto& p : pf.packed) {
    const std::span<const std::byte> bytes(data + p.entry.offset, p.entry.nbytes);
    m.weights.add_packed(p.entry.name, {p.layout, bytes.data(), bytes.size(), p.shape, p.parts});
    if (p.parts.empty()) continue;
    // Each part's plain form, should anything read it: unpacked from the packed one, once for all its
    // parts (Q, K and V are read together). Weights::find runs these one at a time.
    const dnnl::memory::desc& layout = p.parts_layout;
    const Shape part_shape{p.shape[0] / static_cast<std::int64_t>(p.parts.size()), p.shape[1]};
    const DType dtype = layout_dtype(layout);
    const std::size_t part_bytes = static_cast<std::size_t>(shape_numel(part_shape)) * dtype_size(dtype);
    auto all = std::make_shared<std::vector<std::byte>>();  // freed with the last part's recovery
    for (std::size_t i = 0; i < p.parts.size(); ++i)
      m.weights.add_recoverable(p.parts[i], {dtype, part_shape}, [layout, bytes, i, part_bytes, all] {
        if (all->empty()) *all = unpacked(layout, bytes);
        return std::vector<std::byte>(all->begin() + static_cast<std::ptrdiff_t>(i * part_bytes),
                                      all->begin() + static_cast<std::ptrdiff_t>((i + 1) * part_bytes));
      });
  }
  for (const auto& [alias, target] : r.get<std::map<std::string, std::string>>(pf.header, "aliases")) {
    const TensorView* t = m.weights.find(target);
    if (!t) r.fail(fmt::format("alias {} names a missing tensor {}", alias, target));
    m.weights.add(alias, *t);
  }
  m.weights.keep(pf.file);
  auto dtype_text = r.get<std::string>(pf.header, "dtype");
  m.stored_dtype = DType::U8;
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::I8})
    if (stored_dtype_name(d) == dtype_text) m.stored_dtype = d;
  if (m.stored_dtype == DType::U8) r.fail(fmt::format("unknown dtype \"{}\"", dtype_text));
  validate_weights(m, path.string());
  m.origins.emplace_back("converted file", path.string());
  m.origins.emplace_back("converted from", r.get<std::string>(pf.header, "source"));
  m.origins.emplace_back("converted by", "bertkit " + r.get<std::string>(pf.header, "bertkit_version"));
  return m;
}

ConvertedFileCheck check_converted_file(const fs::path& path) {
  LoadedModel m = load_converted_file(path, path.string());
  auto file = MappedFile::open(path);
  auto bytes = file->bytes();
  Hash64 hash;
  hash.update(bytes.first(bytes.size() - kTrailer));
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - kTrailer, 8);
  if (hash.digest() != stored)
    bad_input("{}: checksum mismatch (stored {:016x}, computed {:016x}): the file is damaged", path.string(), stored,
              hash.digest());
  auto names = m.weights.names();
  auto weights = static_cast<std::size_t>(std::count_if(names.begin(), names.end(), [](const std::string& n) { return !n.ends_with(".scale"); }));
  return {stored, weights, bytes.size(), std::string(stored_dtype_name(m.stored_dtype))};
}

}  // namespace bertkit::core
