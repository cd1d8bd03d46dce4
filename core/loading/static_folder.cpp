#include "core/loading/static_folder.h"

#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"
#include "core/files.h"
#include "core/folder_files.h"
#include "core/json.h"
#include "core/loading/model_source.h"

namespace bertkit::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// config.json with model_type "model2vec"; a file that is not JSON is left to the transformer loader,
// which names what is wrong with it.
bool is_model2vec_config(const fs::path& config) {
  std::error_code ec;
  return fs::is_regular_file(config, ec) && names_model2vec(read_text_file(config));
}

struct StaticModules {
  fs::path module;
  bool normalize = false;
};

// modules.json's StaticEmbedding module, then at most a Normalize module, as sentence-transformers runs them.
std::optional<StaticModules> read_static_modules(const fs::path& root) {
  const fs::path path = root / kModulesJson;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  const ModuleFolders modules = read_module_folders(read_text_file(path), path.string());
  if (modules.modules.empty() || modules.modules.front().kind != ModuleKind::StaticEmbedding) return std::nullopt;
  StaticModules out{root / modules.transformer};
  for (std::size_t i = 1; i < modules.modules.size(); ++i) {
    if (modules.modules[i].kind != ModuleKind::Normalize)
      bad_input("{}: a StaticEmbedding model followed by the module at \"{}\", which bertkit does not run after one "
                "(it takes Normalize only)",
                path.string(), modules.modules[i].folder);
    out.normalize = true;
  }
  return out;
}

// The table: `embedding.weight` (StaticEmbedding's), else `embeddings` (model2vec's, which
// StaticEmbedding.load also takes); model2vec's own layout names it `embeddings` only.
void read_table(StaticModel& m) {
  RawCheckpoint raw = read_weights_folder(m.module);
  m.files.insert(m.files.end(), raw.files.begin(), raw.files.end());
  for (const auto& f : raw.files) m.origins.emplace_back("weights", f.string());
  const std::string where = raw.files.empty() ? m.module.string() : raw.files.front().string();
  const bool model2vec = m.layout == StaticLayout::Model2Vec;
  const RawTensor* table = nullptr;
  for (const RawTensor& t : raw.tensors) {
    if (t.name == "mapping" || t.name == "weights")
      bad_input("{}: tensor {}: a model2vec model with a quantised vocabulary (mapping, weights), which bertkit does "
                "not read yet",
                where, t.name);
    if (t.name == "embeddings" || (!model2vec && t.name == "embedding.weight"))
      if (!table || t.name == "embedding.weight") table = &t;
  }
  if (!table)
    bad_input("{}: no tensor {}: not a static embedding table", where,
              model2vec ? "embeddings" : "embedding.weight (or embeddings)");
  if (table->view.shape.size() != 2 || table->view.shape[0] <= 0 || table->view.shape[1] <= 0)
    bad_input("{}: tensor {} has shape {}, expected [vocabulary, dimension]", where, table->name,
              shape_string(table->view.shape));
  m.table_name = table->name;
  m.rows = table->view.shape[0];
  m.dim = table->view.shape[1];
  for (auto& owner : raw.owners) m.weights.keep(std::move(owner));
  m.weights.add_f32(std::string(kStaticTable), table->view);
}

// tokenizer.json alone (both libraries build the tokenizer with Tokenizer.from_file), and the
// truncation it sets, which StaticEmbedding keeps.
void read_tokenizer(StaticModel& m) {
  const fs::path path = m.module / kTokenizerJson;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) bad_input("{}: no {}: a static embedding model's tokenizer", m.module.string(), kTokenizerJson);
  m.tokenizer.tokenizer_json = read_text_file(path);
  m.tokenizer.origin = m.module.string();
  m.tokenizer.paths.push_back(path);
  m.files.push_back(path);
  m.origins.emplace_back("tokenizer", path.string());
  if (m.layout == StaticLayout::Model2Vec) return;
  const json j = json::parse(*m.tokenizer.tokenizer_json, nullptr, false);
  const json truncation = j.is_object() ? j.value("truncation", json()) : json();
  if (truncation.is_null()) return;
  const json max_length = truncation.is_object() ? truncation.value("max_length", json()) : json();
  if (!max_length.is_number_unsigned() || max_length.get<std::size_t>() == 0)
    bad_input("{}: \"truncation\" has no positive max_length: {}", path.string(), truncation.dump());
  m.truncation_max_length = max_length.get<std::size_t>();
  m.truncation_left = truncation.value("direction", json()) == "Left";
}

void read_model2vec_config(StaticModel& m) {
  const fs::path path = m.location / kConfig;
  const json j = read_json_file(path);
  m.files.push_back(path);
  m.origins.emplace_back("config", path.string());
  const json normalize = j.value("normalize", json());
  if (!normalize.is_null() && !normalize.is_boolean())
    bad_input("{}: field \"normalize\" has the wrong type: {}", path.string(), normalize.dump());
  m.settings.normalize = normalize.is_boolean() && normalize.get<bool>();
  m.normalize_from = "normalize of config.json";
}

}  // namespace

bool names_model2vec(std::string_view config_json) {
  const json j = json::parse(config_json, nullptr, false);
  return j.is_object() && j.value("model_type", json()) == "model2vec";
}

std::string_view static_layout_name(StaticLayout layout) {
  return layout == StaticLayout::Model2Vec ? "model2vec StaticModel" : "sentence-transformers StaticEmbedding";
}

std::optional<StaticLayout> static_layout(const fs::path& folder) {
  if (is_model2vec_config(folder / kConfig)) return StaticLayout::Model2Vec;
  if (read_static_modules(folder)) return StaticLayout::SentenceTransformers;
  return std::nullopt;
}

StaticModel load_static_model(const fs::path& folder, std::string_view spec) {
  StaticModel m;
  m.name = std::string(spec);
  m.location = folder;
  m.module = folder;
  m.settings.pooling.mean = true;
  m.settings.strip_texts = false;  // StaticEmbedding.tokenize and StaticModel.tokenize take texts as they are
  if (is_model2vec_config(folder / kConfig)) {
    m.layout = StaticLayout::Model2Vec;
    read_model2vec_config(m);
  } else {
    const std::optional<StaticModules> modules = read_static_modules(folder);
    if (!modules) bad_input("{}: not a static embedding model", folder.string());
    m.module = modules->module;
    m.settings.normalize = modules->normalize;
    m.normalize_from = "modules.json";
    m.files.push_back(folder / kModulesJson);
    m.origins.emplace_back("sentence-transformers modules", (folder / kModulesJson).string());
    const fs::path settings = folder / kSentenceTransformersConfig;
    std::error_code ec;
    if (fs::is_regular_file(settings, ec)) {
      read_sentence_transformers_config(settings, m.settings);
      m.settings.strip_texts = false;
      m.files.push_back(settings);
      m.origins.emplace_back("sentence-transformers config", settings.string());
    }
  }
  read_tokenizer(m);
  read_table(m);
  return m;
}

}  // namespace bertkit::core
