#include "core/loading/converted_file.h"
#include "core/model/colbert_linear_head.h"
#include "core/model/sparse_linear_head.h"
#include "core/checkpoint/converted_format.h"
#include "core/model/model_tensors.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash64.h"
#include "core/json.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>

namespace bertkit::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

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
  st.similarity_fn_name = r.optional<std::string>(j, "similarity_fn_name");
  st.strip_texts = r.optional<bool>(j, "strip_texts").value_or(true);
  if (j.contains("splade")) {
    const json& splade = r.get<json>(j, "splade");
    const auto strategy = r.get<std::string>(splade, "strategy"), activation = r.get<std::string>(splade, "activation");
    if ((strategy != "max" && strategy != "sum") || (activation != "relu" && activation != "log1p_relu"))
      r.fail(fmt::format("unknown splade pooling {} / {}", strategy, activation));
    st.splade = SpladePooling{strategy == "sum" ? SpladeStrategy::Sum : SpladeStrategy::Max,
                              activation == "log1p_relu" ? SpladeActivation::Log1pRelu : SpladeActivation::Relu};
  }
  if (auto colbert = j.find("colbert"); colbert != j.end()) {
    st.colbert.emplace();
    read_colbert_config(*colbert, r.where(), *st.colbert);
  }
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
  std::vector<converted::Entry> files, tensors;
  struct Packed {
    converted::Entry entry;
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
  constexpr std::size_t kPrefix = sizeof(converted::Prefix), kTrailer = sizeof(converted::Trailer);
  converted::Prefix prefix{};
  if (bytes.size() >= kPrefix + kTrailer) std::memcpy(&prefix, bytes.data(), kPrefix);
  if (bytes.size() < kPrefix + kTrailer || std::memcmp(prefix.magic, converted::Prefix::kMagic, 8) != 0)
    r.fail("too short or no BERTKIT magic");
  if (prefix.version < converted::kOldestVersion || prefix.version > converted::kVersion)
    bad_input("{}: converted file format version {}; this bertkit reads versions {} to {} (convert the model again)",
              path.string(), prefix.version, converted::kOldestVersion, converted::kVersion);
  const std::uint64_t header_len = prefix.header_length;
  if (header_len > bytes.size() - kPrefix - kTrailer) r.fail("header length runs past the end of the file");
  pf.header = parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data() + kPrefix), header_len),
                         path.string() + " (header)");
  if (!pf.header.is_object()) r.fail("header is not a JSON object");
  converted::Trailer trailer{};
  std::memcpy(&trailer, bytes.data() + bytes.size() - kTrailer, kTrailer);
  if (std::memcmp(trailer.magic, converted::Trailer::kMagic, 8) != 0) r.fail("no checksum trailer (truncated?)");
  pf.data_start = converted::align_up(kPrefix + header_len);
  pf.data_size = r.get<std::uint64_t>(pf.header, "data_size");
  if (pf.data_start > bytes.size() || pf.data_size != bytes.size() - kTrailer - pf.data_start)
    r.fail(fmt::format("data section of {} bytes does not match the file size {}", pf.data_size, bytes.size()));

  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  auto place = [&](const json& e, converted::Entry& entry) {
    entry.name = r.get<std::string>(e, "name");
    entry.offset = r.get<std::uint64_t>(e, "offset");
    entry.nbytes = r.get<std::uint64_t>(e, "nbytes");
    if (entry.offset % converted::kAlign != 0) r.fail(fmt::format("{} is not 64-byte aligned", entry.name));
    if (entry.offset > pf.data_size || entry.nbytes > pf.data_size - entry.offset)
      r.fail(fmt::format("{} lies outside the data section", entry.name));
    ranges.emplace_back(entry.offset, entry.offset + entry.nbytes);
  };
  for (const json& e : r.get<json>(pf.header, "files")) {
    converted::Entry entry;
    place(e, entry);
    pf.files.push_back(std::move(entry));
  }
  std::set<std::string> names;
  for (const json& e : r.get<json>(pf.header, "tensors")) {
    converted::Entry entry;
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
void validate_weights(LoadedModel& m, const std::string& where) {
  drop_absent_head(m.config, [&](std::string_view name) { return m.weights.info(name).has_value(); });
  std::map<std::string, Shape> want;
  for (const auto& e : model_tensors(m.config))
    if (!e.optional || m.weights.find(e.name)) want[e.name] = e.shape;
  if (m.sentence_transformer)
    for (std::size_t k = 0; k < m.sentence_transformer->dense.size(); ++k) {
      const auto& d = m.sentence_transformer->dense[k];
      want["dense." + std::to_string(k) + ".weight"] = {d.out_features, d.in_features};
      if (d.bias) want["dense." + std::to_string(k) + ".bias"] = {d.out_features};
    }
  if (m.weights.info(kSparseLinearWeight)) {  // BGE-M3's sparse head, converted with the encoder
    want[kSparseLinearWeight] = {1, m.config.hidden_size};
    want[kSparseLinearBias] = {1};
    m.sparse_linear = true;
  }
  if (auto colbert = m.weights.info(kColbertLinearWeight)) {  // and its ColBERT head
    const std::int64_t dim = colbert->shape.empty() ? 0 : colbert->shape[0];
    want[kColbertLinearWeight] = {dim, m.config.hidden_size};
    want[kColbertLinearBias] = {dim};
    m.colbert_linear = true;
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
// The tokenizer's files the converted file carries.
TokenizerFiles tokenizer_of(const ParsedFile& pf, const HeaderReader& r) {
  const std::byte* data = pf.file->bytes().data() + pf.data_start;
  TokenizerFiles tokenizer;
  for (const auto& f : pf.files) {
    const auto& known = converted::kTokenizerFiles;
    if (std::find(std::begin(known), std::end(known), f.name) == std::end(known))
      r.fail(fmt::format("unknown file {}", f.name));
    const std::string_view bytes(reinterpret_cast<const char*>(data + f.offset), f.nbytes);
    if (f.name == "wordpiece.bin")
      tokenizer.wordpiece_image = SharedBytes{bytes, pf.file};
    else
      tokenizer_text(tokenizer, f.name)->emplace(bytes);
  }
  return tokenizer;
}

}  // namespace

TokenizerFiles read_converted_tokenizer(const fs::path& path) {
  const ParsedFile pf = parse_file(path);
  TokenizerFiles tokenizer = tokenizer_of(pf, HeaderReader(path.string()));
  tokenizer.origin = path.string();
  tokenizer.paths.push_back(path);
  return tokenizer;
}

bool is_converted_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, 8);
  return in && std::memcmp(head, converted::Prefix::kMagic, 8) == 0;
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
  m.tokenizer = tokenizer_of(pf, r);
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
  m.files.push_back(path);
  m.origins.emplace_back("converted from", r.get<std::string>(pf.header, "source"));
  m.origins.emplace_back("converted by", "bertkit " + r.get<std::string>(pf.header, "bertkit_version"));
  if (m.sparse_linear) m.origins.emplace_back("sparse head", "sparse_linear.weight and .bias of this file");
  if (m.colbert_linear) m.origins.emplace_back("colbert head", "colbert_linear.weight and .bias of this file");
  return m;
}

ConvertedFileCheck check_converted_file(const fs::path& path) {
  LoadedModel m = load_converted_file(path, path.string());
  auto file = MappedFile::open(path);
  auto bytes = file->bytes();
  Hash64 hash;
  converted::Trailer trailer{};
  hash.update(bytes.first(bytes.size() - sizeof trailer));
  std::memcpy(&trailer, bytes.data() + bytes.size() - sizeof trailer, sizeof trailer);
  const std::uint64_t stored = trailer.checksum;
  if (hash.digest() != stored)
    bad_input("{}: checksum mismatch (stored {:016x}, computed {:016x}): the file is damaged", path.string(), stored,
              hash.digest());
  return {stored, model_tensor_count(m.weights), bytes.size(), std::string(stored_dtype_name(m.stored_dtype))};
}

}  // namespace bertkit::core
