#include "core/loading/retrieval_heads.h"

#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"
#include "core/folder_files.h"
#include "core/json.h"
#include "core/model/colbert_linear_head.h"
#include "core/model/sparse_linear_head.h"

#include <optional>
#include <string>

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

namespace {

// A FlagEmbedding head file beside the weights: a torch zip of a Linear(hidden, out) state dict.
struct LinearHeadFile {
  std::string_view file;
  const char* weight;  // the names its tensors get in Weights (and in a converted file)
  const char* bias;
  const char* role;                // for info's "from." lines
  std::optional<std::int64_t> out;  // the output width it must have; none: any (colbert_dim)
};

bool read_linear_head(const fs::path& folder, const LinearHeadFile& head, LoadedModel& m) {
  const fs::path path = folder / head.file;
  if (!fs::exists(path)) return false;
  RawCheckpoint raw = read_torch_checkpoint(path);
  const std::int64_t hidden = m.config.hidden_size;
  const RawTensor* weight = nullptr;
  const RawTensor* bias = nullptr;
  for (const RawTensor& t : raw.tensors) {
    if (t.name == "weight") weight = &t;
    else if (t.name == "bias") bias = &t;
    else bad_input("{}: unexpected tensor {} (a Linear layer has weight and bias)", path.string(), t.name);
  }
  if (!weight || !bias) bad_input("{}: a Linear layer needs weight and bias", path.string());
  const std::int64_t out = head.out.value_or(weight->view.shape.empty() ? 0 : weight->view.shape[0]);
  if (weight->view.shape != Shape{out, hidden} || out < 1)
    bad_input("{}: tensor weight has shape {}, expected [{}, {}] (hidden {})", path.string(),
              shape_string(weight->view.shape), head.out ? std::to_string(out) : "out", hidden, hidden);
  if (bias->view.shape != Shape{out})
    bad_input("{}: tensor bias has shape {}, expected {}", path.string(), shape_string(bias->view.shape),
              shape_string(Shape{out}));
  m.weights.add_f32(head.weight, weight->view);
  m.weights.add_f32(head.bias, bias->view);
  for (auto& owner : raw.owners) m.weights.keep(std::move(owner));
  m.origins.emplace_back(head.role, path.string());
  m.files.push_back(path);
  return true;
}

}  // namespace

void read_flag_embedding_heads(const fs::path& folder, LoadedModel& m) {
  m.sparse_linear = read_linear_head(folder, {kSparseLinearHead, kSparseLinearWeight, kSparseLinearBias, "sparse head", 1}, m);
  m.colbert_linear =
      read_linear_head(folder, {kColbertLinearHead, kColbertLinearWeight, kColbertLinearBias, "colbert head", std::nullopt}, m);
}

}  // namespace bertkit::core
