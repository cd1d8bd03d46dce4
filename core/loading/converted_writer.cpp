#include "core/loading/converted_file.h"
#include "core/checkpoint/converted_format.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash64.h"
#include "core/json.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <span>

namespace bertkit::core {

using nlohmann::json;

namespace {

json st_to_json(const SentenceTransformerConfig& st) {
  json dense = json::array();
  for (const auto& d : st.dense)
    dense.push_back({{"in_features", d.in_features}, {"out_features", d.out_features}, {"bias", d.bias},
                     {"activation", d.activation == DenseActivation::Tanh ? "tanh" : "identity"}});
  const Pooling& p = st.pooling;
  json out = {{"pooling", {{"cls", p.cls}, {"max", p.max}, {"mean", p.mean}, {"mean_sqrt_len", p.mean_sqrt_len},
                          {"weighted_mean", p.weighted_mean}, {"last_token", p.last_token},
                          {"include_prompt", p.include_prompt}}},
             {"dense", dense},
             {"normalize", st.normalize},
             {"max_seq_length", st.max_seq_length ? json(*st.max_seq_length) : json()},
             {"do_lower_case", st.do_lower_case ? json(*st.do_lower_case) : json()},
             {"prompts", st.prompts},
             {"default_prompt_name", st.default_prompt_name ? json(*st.default_prompt_name) : json()}};
  // Only when the model names one: files of the models without it keep their bytes.
  if (st.similarity_fn_name) out["similarity_fn_name"] = *st.similarity_fn_name;
  if (!st.strip_texts) out["strip_texts"] = false;
  if (st.splade)
    out["splade"] = {{"strategy", st.splade->strategy == SpladeStrategy::Sum ? "sum" : "max"},
                     {"activation", st.splade->activation == SpladeActivation::Log1pRelu ? "log1p_relu" : "relu"}};
  if (st.colbert) out["colbert"] = colbert_config_json(*st.colbert);
  return out;
}

// Every blob and tensor with its offset in the data section, planned before any is written: the header,
// which holds the offsets, comes first.
struct DataPlan {
  struct Planned {
    converted::Entry entry;
    std::span<const std::byte> bytes;
  };
  std::vector<Planned> files, tensors, packed;  // in this order in the file
  std::uint64_t size = 0;

  void add(std::vector<Planned>& list, std::string name, DType dtype, Shape shape, std::span<const std::byte> bytes) {
    list.push_back({{std::move(name), dtype, std::move(shape), size, bytes.size()}, bytes});
    size = converted::align_up(size + bytes.size());
  }
};

// The packed matrices (Encoder::add_packed_to) that are stored instead of their plain parts: those that
// hold them in the type the file stores them in; others are not stored.
std::vector<std::pair<std::string, const PackedView*>> packed_in_stored_type(const Weights& model,
                                                                             const Weights& stored) {
  std::vector<std::pair<std::string, const PackedView*>> out;
  for (const auto& [name, view] : model.packed()) {
    if (view.shape.size() != 2 || view.parts.empty()) continue;
    const auto layout = layout_from_name({view.shape[1], view.shape[0]}, view.layout);
    const Shape part_shape{view.shape[0] / static_cast<std::int64_t>(view.parts.size()), view.shape[1]};
    bool fits = layout && layout->get_size() == view.nbytes;
    for (const auto& part : view.parts) {
      auto t = stored.info(part);
      fits = fits && t && t->shape == part_shape && t->dtype == layout_dtype(*layout);
    }
    if (fits) out.emplace_back(name, &view);
  }
  return out;
}

// Prefix, header, data section (zeros between entries) and trailer.
void write_planned_file(const std::filesystem::path& destination, const std::string& header_text, const DataPlan& plan) {
  AtomicFile file(destination);
  Hash64 hash;
  auto out = [&](std::span<const std::byte> bytes) {
    hash.update(bytes);
    file.write(bytes);
  };
  static const std::array<std::byte, converted::kAlign> zeros{};
  auto pad_to = [&](std::uint64_t position) {
    while (file.size() < position)
      out(std::span(zeros).first(std::min<std::uint64_t>(converted::kAlign, position - file.size())));
  };
  converted::Prefix prefix{{}, converted::kVersion, 0, header_text.size()};
  std::memcpy(prefix.magic, converted::Prefix::kMagic, sizeof prefix.magic);
  out(std::as_bytes(std::span(&prefix, 1)));
  out(std::as_bytes(std::span(header_text.data(), header_text.size())));
  const std::uint64_t data_start = converted::align_up(sizeof prefix + header_text.size());
  for (const auto* list : {&plan.files, &plan.tensors, &plan.packed})
    for (const auto& [e, bytes] : *list) {
      pad_to(data_start + e.offset);
      out(bytes);
    }
  pad_to(data_start + plan.size);
  converted::Trailer trailer{hash.digest(), {}};
  std::memcpy(trailer.magic, converted::Trailer::kMagic, sizeof trailer.magic);
  file.write(std::as_bytes(std::span(&trailer, 1)));
  file.commit();
}

}  // namespace

void write_converted_file(const LoadedModel& m, const std::filesystem::path& destination, StoreType type) {
  const Weights stored = with_store_type(m.weights, type);
  DataPlan plan;
  for (const char* name : converted::kTokenizerFiles)
    if (const auto text = converted::tokenizer_file(m.tokenizer, name))
      plan.add(plan.files, name, DType::U8, {}, std::as_bytes(std::span(text->data(), text->size())));

  const auto packed = packed_in_stored_type(m.weights, stored);
  std::set<std::string> packed_only;
  for (const auto& [name, view] : packed) packed_only.insert(view->parts.begin(), view->parts.end());
  json aliases = json::object();
  TiedTensors tied;
  auto add_tensor = [&](const std::string& name, const TensorView& t) {
    plan.add(plan.tensors, name, t.dtype, t.shape, std::span(t.data, t.nbytes));
  };
  for (const auto& name : stored.names()) {
    if (name.ends_with(".scale") && stored.info(name.substr(0, name.size() - 6))) continue;  // with its matrix
    const TensorView& t = *stored.find(name);
    if (!packed_only.count(name)) {
      if (auto first = tied.first_with(name, t)) {
        aliases[name] = *first;  // stored once
        continue;
      }
      add_tensor(name, t);
    }
    if (t.dtype == DType::I8) add_tensor(name + ".scale", *stored.find(name + ".scale"));
  }
  for (const auto& [name, view] : packed)  // after every tensor
    plan.add(plan.packed, name, DType::U8, {}, std::span(view->data, view->nbytes));

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
                 {"data_size", plan.size}};
  json& jf = header["files"] = json::array();
  for (const auto& [e, bytes] : plan.files) jf.push_back({{"name", e.name}, {"offset", e.offset}, {"nbytes", e.nbytes}});
  json& jt = header["tensors"] = json::array();
  for (const auto& [e, bytes] : plan.tensors)
    jt.push_back({{"name", e.name}, {"dtype", dtype_name(e.dtype)}, {"shape", e.shape}, {"offset", e.offset},
                  {"nbytes", e.nbytes}});
  json& jp = header["packed"] = json::array();
  for (std::size_t i = 0; i < packed.size(); ++i) {
    const converted::Entry& e = plan.packed[i].entry;
    const PackedView& view = *packed[i].second;
    jp.push_back({{"name", e.name}, {"layout", view.layout}, {"shape", view.shape}, {"parts", view.parts},
                  {"offset", e.offset}, {"nbytes", e.nbytes}});
  }
  write_planned_file(destination, header.dump(), plan);
}

}  // namespace bertkit::core
