#include "core/loading/retrieval_heads.h"

#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"
#include "core/folder_files.h"
#include "core/json.h"
#include "core/model/sparse_linear_head.h"

namespace bertkit::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string string_field(const json& j, const char* key, const char* fallback, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_string()) bad_input("{}: field \"{}\" is not a string: {}", where, key, it->dump());
  return it->get<std::string>();
}

}  // namespace

SpladePooling read_splade_pooling(const fs::path& config_path) {
  const std::string where = config_path.string();
  const json j = read_json_file(config_path);
  if (!j.is_object()) bad_input("{}: not a JSON object", where);
  SpladePooling p;
  // SpladePooling's own defaults: max and relu.
  const std::string strategy = string_field(j, "pooling_strategy", "max", where);
  if (strategy == "sum") p.strategy = SpladeStrategy::Sum;
  else if (strategy != "max") bad_input("{}: unsupported pooling_strategy \"{}\" (supported: max, sum)", where, strategy);
  const std::string activation = string_field(j, "activation_function", "relu", where);
  if (activation == "log1p_relu") p.activation = SpladeActivation::Log1pRelu;
  else if (activation != "relu")
    bad_input("{}: unsupported activation_function \"{}\" (supported: relu, log1p_relu)", where, activation);
  return p;
}

void read_sparse_linear(const fs::path& folder, LoadedModel& m) {
  const fs::path path = folder / kSparseLinearHead;
  if (!fs::exists(path)) return;
  RawCheckpoint raw = read_torch_checkpoint(path);
  const std::int64_t hidden = m.config.hidden_size;
  bool have_weight = false, have_bias = false;
  for (const RawTensor& t : raw.tensors) {
    const bool is_weight = t.name == "weight";
    if (!is_weight && t.name != "bias") bad_input("{}: unexpected tensor {} (a Linear(hidden, 1) has weight and bias)", path.string(), t.name);
    const Shape want = is_weight ? Shape{1, hidden} : Shape{1};
    if (t.view.shape != want)
      bad_input("{}: tensor {} has shape {}, expected {}", path.string(), t.name, shape_string(t.view.shape), shape_string(want));
    m.weights.add_f32(is_weight ? kSparseLinearWeight : kSparseLinearBias, t.view);
    (is_weight ? have_weight : have_bias) = true;
  }
  if (!have_weight || !have_bias) bad_input("{}: a Linear(hidden, 1) needs weight and bias", path.string());
  for (auto& owner : raw.owners) m.weights.keep(std::move(owner));
  m.sparse_linear = true;
  m.origins.emplace_back("sparse head", path.string());
  m.files.push_back(path);
}

}  // namespace bertkit::core
