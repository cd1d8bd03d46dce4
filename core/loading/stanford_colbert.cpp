#include "core/loading/stanford_colbert.h"

#include "core/error.h"
#include "core/json.h"
#include "core/model/colbert_config.h"

#include <algorithm>

namespace bertkit::core {

namespace fs = std::filesystem;

namespace {

constexpr const char* kArtifactMetadata = "artifact.metadata";
constexpr const char* kProjection = "linear.weight";

}  // namespace

std::optional<RawTensor> take_stanford_projection(RawCheckpoint& raw, const fs::path& folder) {
  auto it = std::find_if(raw.tensors.begin(), raw.tensors.end(), [](const RawTensor& t) { return t.name == kProjection; });
  if (it == raw.tensors.end())
    bad_input("{}: an {} checkpoint without its projection {}", folder.string(), kStanfordColbertArchitecture, kProjection);
  RawTensor projection = *it;
  raw.tensors.erase(it);
  return projection;
}

void add_stanford_colbert(const fs::path& folder, const RawTensor& projection, LoadedModel& m) {
  const fs::path metadata = folder / kArtifactMetadata;
  std::optional<std::int64_t> dim;
  ColbertConfig colbert;
  if (fs::exists(metadata)) {
    colbert = stanford_colbert_config(read_json_file(metadata), metadata.string(), dim);
    m.origins.emplace_back("colbert settings", metadata.string());
    m.files.push_back(metadata);
  } else {
    colbert = stanford_colbert_config(nlohmann::json::object(), metadata.string(), dim);
  }
  const Shape& shape = projection.view.shape;
  if (shape.size() != 2 || shape[1] != m.config.hidden_size || shape[0] < 1 || (dim && shape[0] != *dim))
    bad_input("{}: tensor {} has shape {}, expected [{}, {}]", folder.string(), kProjection, shape_string(shape),
              dim ? std::to_string(*dim) : "dim", m.config.hidden_size);
  m.weights.add_f32("dense.0.weight", projection.view);
  SentenceTransformerConfig& st = m.sentence_transformer.emplace();
  st.colbert = std::move(colbert);
  st.dense.push_back({.in_features = static_cast<int>(shape[1]), .out_features = static_cast<int>(shape[0]), .bias = false,
                      .activation = DenseActivation::Identity});
  m.origins.emplace_back("dense (Stanford ColBERT)", fmt::format("{} of the weights", kProjection));
}

}  // namespace bertkit::core
