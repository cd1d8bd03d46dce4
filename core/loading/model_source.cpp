#include "core/loading/model_source.h"

#include "core/loading/converted_file.h"
#include "core/loading/retrieval_heads.h"
#include "core/loading/stanford_colbert.h"
#include "core/loading/static_folder.h"
#include "core/model/load_weights.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace bertkit::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

template <typename T>
T json_field(const json& object, const char* key, T fallback, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    bad_input("{}: field \"{}\" has the wrong type: {}", where, key, it->dump());
  }
}

// sentence-transformers 6's compact Pooling config: "pooling_mode" is one mode's name or a list of them.
void read_pooling_modes(const json& modes, const std::string& where, Pooling& p) {
  const std::pair<const char*, bool Pooling::*> names[] = {
      {"cls", &Pooling::cls},
      {"max", &Pooling::max},
      {"mean", &Pooling::mean},
      {"mean_sqrt_len_tokens", &Pooling::mean_sqrt_len},
      {"weightedmean", &Pooling::weighted_mean},
      {"lasttoken", &Pooling::last_token},
  };
  const json list = modes.is_array() ? modes : json::array({modes});
  for (const json& mode : list) {
    bool known = false;
    for (const auto& [name, field] : names)
      if (mode == name) {
        p.*field = true;
        known = true;
      }
    if (!known)
      bad_input("{}: unsupported pooling_mode {} (supported: cls, max, mean, mean_sqrt_len_tokens, weightedmean, "
                "lasttoken)",
                where, mode.dump());
  }
}

Pooling read_pooling(const fs::path& config_path) {
  const std::string where = config_path.string();
  json j = read_json_file(config_path);
  if (!j.is_object()) bad_input("{}: not a JSON object", where);
  Pooling p;
  if (j.contains("pooling_mode")) {
    read_pooling_modes(j["pooling_mode"], where, p);
  } else {
    p.cls = json_field(j, "pooling_mode_cls_token", false, where);
  p.max = json_field(j, "pooling_mode_max_tokens", false, where);
  p.mean = json_field(j, "pooling_mode_mean_tokens", false, where);
  p.mean_sqrt_len = json_field(j, "pooling_mode_mean_sqrt_len_tokens", false, where);
  p.weighted_mean = json_field(j, "pooling_mode_weightedmean_tokens", false, where);
  p.last_token = json_field(j, "pooling_mode_lasttoken", false, where);
  }
  p.include_prompt = json_field(j, "include_prompt", true, where);
  if (!(p.cls || p.max || p.mean || p.mean_sqrt_len || p.weighted_mean || p.last_token))
    bad_input("{}: no pooling mode is enabled", where);
  return p;
}

DenseLayer read_dense(const fs::path& folder, int index, Weights& weights, std::vector<fs::path>& files) {
  const fs::path config_path = folder / kConfig;
  files.push_back(config_path);
  const std::string where = config_path.string();
  json j = read_json_file(config_path);
  if (!j.is_object()) bad_input("{}: not a JSON object", where);
  DenseLayer d;
  d.in_features = json_field(j, "in_features", 0, where);
  d.out_features = json_field(j, "out_features", 0, where);
  d.bias = json_field(j, "bias", true, where);
  if (d.in_features <= 0 || d.out_features <= 0) bad_input("{}: in_features and out_features must be positive", where);
  auto act = json_field<std::string>(j, "activation_function", "torch.nn.modules.activation.Tanh", where);
  if (json_field(j, "use_residual", false, where))
    bad_input("{}: a Dense module with use_residual is not supported", where);
  if (act == "torch.nn.modules.activation.Tanh") d.activation = DenseActivation::Tanh;
  else if (act == "torch.nn.modules.linear.Identity") d.activation = DenseActivation::Identity;
  else bad_input("{}: unsupported activation_function \"{}\" (supported: Tanh, Identity)", where, act);

  RawCheckpoint raw = read_weights_folder(folder);
  files.insert(files.end(), raw.files.begin(), raw.files.end());
  for (auto& owner : raw.owners) weights.keep(std::move(owner));
  const std::string prefix = "dense." + std::to_string(index) + ".";
  bool have_weight = false, have_bias = false;
  for (const RawTensor& t : raw.tensors) {
    bool is_weight = t.name == "linear.weight", is_bias = t.name == "linear.bias";
    if (!is_weight && !(is_bias && d.bias)) bad_input("{}: unexpected tensor {} in a Dense module", folder.string(), t.name);
    Shape want = is_weight ? Shape{d.out_features, d.in_features} : Shape{d.out_features};
    if (t.view.shape != want)
      bad_input("{}: tensor {} has shape {}, expected {}", folder.string(), t.name, shape_string(t.view.shape),
                shape_string(want));
    weights.add_f32(prefix + (is_weight ? "weight" : "bias"), t.view);
    (is_weight ? have_weight : have_bias) = true;
  }
  if (!have_weight || (d.bias && !have_bias)) bad_input("{}: Dense module without linear.weight/linear.bias", folder.string());
  return d;
}

// Whether config_sentence_transformers.json's __version__ says sentence-transformers 6 or later saved
// the folder: its Transformer module tokenizes texts as they are, where 5 and earlier strip them.
bool saved_by_version_6(const json& config) {
  auto version = config.find("__version__");
  if (version == config.end() || !version->is_object()) return false;
  auto st = version->find("sentence_transformers");
  if (st == version->end() || !st->is_string()) return false;
  const std::string v = st->get<std::string>();
  int major = 0;
  std::from_chars(v.data(), v.data() + v.size(), major);
  return major >= 6;
}

// The sources of the model's settings, for `info`: (what, file).
using Origins = std::vector<std::pair<std::string, std::string>>;

// modules.json: the Transformer module's folder (returned), the Pooling and Normalize modules into `st`;
// Dense modules are read later, into the model's Weights: their folders go to `dense_folders`.
fs::path read_modules(const fs::path& root, SentenceTransformerConfig& st, std::vector<fs::path>& dense_folders,
                      Origins& origins, std::vector<fs::path>& files) {
  const fs::path modules_path = root / kModulesJson;
  const std::string where = modules_path.string();
  json modules = read_json_file(modules_path);
  if (!modules.is_array()) bad_input("{}: not a list of modules", where);
  origins.emplace_back("sentence-transformers modules", where);
  files.push_back(modules_path);
  std::optional<fs::path> transformer;
  bool have_pooling = false;
  for (const json& m : modules) {
    if (!m.is_object()) bad_input("{}: a module is not an object", where);
    auto type = json_field<std::string>(m, "type", "", where);
    auto rel = json_field<std::string>(m, "path", "", where);
    fs::path rel_path(rel);
    if (rel_path.is_absolute() || rel.find("..") != std::string::npos)
      bad_input("{}: module path \"{}\" leaves the model folder", where, rel);
    fs::path folder = rel.empty() ? root : root / rel_path;
    if (is_sentence_transformers_module(type, "Transformer") ||
        is_sentence_transformers_module(type, "MLMTransformer")) {
      if (transformer) bad_input("{}: more than one Transformer module", where);
      transformer = folder;
    } else if (is_sentence_transformers_module(type, "Pooling")) {
      st.pooling = read_pooling(folder / kConfig);
      have_pooling = true;
      origins.emplace_back("pooling", (folder / kConfig).string());
      files.push_back(folder / kConfig);
    } else if (is_sentence_transformers_module(type, "SpladePooling")) {
      st.splade = read_splade_pooling(folder / kConfig);
      origins.emplace_back("splade pooling", (folder / kConfig).string());
      files.push_back(folder / kConfig);
    } else if (is_pylate_dense(type)) {
      // PyLate's Dense holds the same linear.weight as sentence-transformers' (and its own config keys).
      if (!st.colbert) st.colbert.emplace();
      dense_folders.push_back(folder);
      origins.emplace_back("dense (PyLate ColBERT)", folder.string());
    } else if (is_sentence_transformers_module(type, "Dense")) {
      dense_folders.push_back(folder);
      origins.emplace_back("dense", folder.string());
    } else if (is_sentence_transformers_module(type, "Normalize")) {
      st.normalize = true;
    } else {
      bad_input("{}: unsupported module type \"{}\"", where, type);
    }
  }
  if (!transformer) bad_input("{}: no sentence_transformers.models.Transformer module", where);
  if (!have_pooling) st.pooling.mean = true;  // what sentence-transformers adds to a bare transformer
  return *transformer;
}

// sentence_bert_config.json beside the transformer: max_seq_length and do_lower_case.
void read_sentence_bert_config(const fs::path& sbert, SentenceTransformerConfig& st) {
  json j = read_json_file(sbert);
  if (!j.is_object()) bad_input("{}: not a JSON object", sbert.string());
  if (j.contains("max_seq_length") && !j["max_seq_length"].is_null()) {
    int n = json_field(j, "max_seq_length", 0, sbert.string());
    if (n <= 0) bad_input("{}: max_seq_length must be positive", sbert.string());
    st.max_seq_length = n;
  }
  if (j.contains("do_lower_case") && !j["do_lower_case"].is_null())
    st.do_lower_case = json_field(j, "do_lower_case", false, sbert.string());
}

}  // namespace

void read_sentence_transformers_config(const fs::path& prompts, SentenceTransformerConfig& st) {
  json j = read_json_file(prompts);
  if (!j.is_object()) bad_input("{}: not a JSON object", prompts.string());
  if (auto it = j.find("prompts"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) bad_input("{}: \"prompts\" is not an object", prompts.string());
    for (const auto& [name, text] : it->items()) {
      if (!text.is_string()) bad_input("{}: prompt \"{}\" is not a string", prompts.string(), name);
      st.prompts[name] = text.get<std::string>();
    }
  }
  if (auto it = j.find("default_prompt_name"); it != j.end() && !it->is_null()) {
    if (!it->is_string()) bad_input("{}: \"default_prompt_name\" is not a string", prompts.string());
    st.default_prompt_name = it->get<std::string>();
    if (!st.prompts.count(*st.default_prompt_name))
      bad_input("{}: default_prompt_name \"{}\" is not one of the prompts", prompts.string(), *st.default_prompt_name);
  }
  if (st.colbert) read_colbert_config(j, prompts.string(), *st.colbert);
  if (auto it = j.find("similarity_fn_name"); st.colbert && it != j.end() && *it == "MaxSim") {
    // PyLate's own: the ColBERT model scores with MaxSim, whatever else would be read here.
  } else if (auto it = j.find("similarity_fn_name"); it != j.end() && !it->is_null()) {
    static constexpr std::string_view kNames[] = {"cosine", "dot", "euclidean", "manhattan"};
    if (!it->is_string() || std::find(std::begin(kNames), std::end(kNames), it->get<std::string>()) == std::end(kNames))
      bad_input("{}: similarity_fn_name {} is not one of cosine, dot, euclidean, manhattan", prompts.string(), it->dump());
    st.similarity_fn_name = it->get<std::string>();
  }
  if (auto it = j.find("truncate_dim"); it != j.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() <= 0)
      bad_input("{}: truncate_dim {} is not a positive integer", prompts.string(), it->dump());
    st.truncate_dim = it->get<std::int64_t>();
  }
  st.strip_texts = !saved_by_version_6(j);
}

namespace {

// modules.json and the files it points to, then the two settings files when present; returns the folder
// of the Transformer module.
fs::path read_sentence_transformer(const fs::path& root, SentenceTransformerConfig& st,
                                   std::vector<fs::path>& dense_folders, Origins& origins,
                                   std::vector<fs::path>& files) {
  const fs::path transformer = read_modules(root, st, dense_folders, origins, files);
  const fs::path sbert = transformer / kSentenceBertConfig;
  if (fs::exists(sbert)) {
    read_sentence_bert_config(sbert, st);
    origins.emplace_back("sentence-transformers settings", sbert.string());
    files.push_back(sbert);
  }
  const fs::path prompts = root / kSentenceTransformersConfig;
  if (fs::exists(prompts)) {
    read_sentence_transformers_config(prompts, st);
    origins.emplace_back("sentence-transformers config", prompts.string());
    files.push_back(prompts);
  }
  return transformer;
}

LoadedModel load_folder(const fs::path& root, std::string_view spec) {
  if (const std::optional<StaticLayout> layout = static_layout(root))
    bad_input("{}: a static embedding model ({}: a table of token vectors, no transformer): embed, similarity and "
              "info take it",
              root.string(), static_layout_name(*layout));
  LoadedModel m;
  m.name = std::string(spec);
  fs::path folder = root;
  std::vector<fs::path> dense_folders;
  if (fs::exists(root / kModulesJson)) {
    m.sentence_transformer.emplace();
    folder = read_sentence_transformer(root, *m.sentence_transformer, dense_folders, m.origins, m.files);
  }
  m.location = folder;
  const fs::path config_path = folder / kConfig;
  if (!fs::exists(config_path)) bad_input("{}: no config.json", folder.string());
  m.config_json = read_text_file(config_path);
  m.config = parse_model_config(m.config_json, config_path.string());
  m.origins.emplace_back("config", config_path.string());
  m.files.push_back(config_path);

  RawCheckpoint raw = read_weights_folder(folder);
  for (const auto& f : raw.files) m.origins.emplace_back("weights", f.string());
  m.files.insert(m.files.end(), raw.files.begin(), raw.files.end());
  const bool stanford = !m.sentence_transformer && m.config.architecture == kStanfordColbertArchitecture;
  const std::optional<RawTensor> projection = stanford ? take_stanford_projection(raw, folder) : std::nullopt;
  auto loaded = load_weights(std::move(raw), m.config, folder.string());
  m.weights = std::move(loaded.weights);
  m.unexpected_tensors = std::move(loaded.unexpected);
  if (projection) add_stanford_colbert(folder, *projection, m);
  read_flag_embedding_heads(root, m);
  for (const fs::path& dense : dense_folders)
    m.sentence_transformer->dense.push_back(
        read_dense(dense, static_cast<int>(m.sentence_transformer->dense.size()), m.weights, m.files));

  FolderTokenizer tokenizer = read_folder_tokenizer(folder);
  m.tokenizer = std::move(tokenizer.files);
  for (const fs::path& file : m.tokenizer.paths) m.origins.emplace_back("tokenizer", file.string());
  m.files.insert(m.files.end(), m.tokenizer.paths.begin(), m.tokenizer.paths.end());
  return m;
}

ModelFetcher& model_fetcher() {
  static ModelFetcher fetcher;
  return fetcher;
}

}  // namespace

void set_model_fetcher(ModelFetcher fetcher) { model_fetcher() = std::move(fetcher); }

fs::path resolve_model_location(std::string_view spec, ModelPart part) {
  fs::path direct{std::string(spec)};
  if (fs::exists(direct)) return direct;
  const std::optional<ModelId> id = parse_model_id(spec);
  if (!id) bad_input("model {}: no such file or folder", spec);
  const CacheLookup cached = find_cached_model(*id);
  // A snapshot lacking a file (a download that stopped, --exclude, a cache another library filled
  // with the tokenizer only) would fail to load, or change the numbers without a word (a missing
  // sentence-transformers module): it is used only when complete, else completed where the Hub may be asked.
  const std::optional<std::string> incomplete = cached.snapshot ? incomplete_snapshot(cached, part) : std::nullopt;
  if (cached.snapshot && !incomplete) return *cached.snapshot;
  if (model_fetcher()) return model_fetcher()(*id, CacheMiss{part, incomplete, cached.cut_off});
  if (cached.snapshot)
    bad_input("model {}: the copy in the Hugging Face cache ({}) is incomplete: {}; `bertkit download {}` completes it",
              spec, cached.snapshot->string(), *incomplete, spec);
  bad_input("model {}: not a file or folder, and not in the Hugging Face cache ({}; download it once with "
            "bertkit download {})",
            spec, cached.why_not, spec);
}

LoadedModel load_model(std::string_view spec) {
  fs::path location = resolve_model_location(spec);
  if (fs::is_directory(location)) return load_folder(location, spec);
  if (is_converted_file(location)) return load_converted_file(location, spec);
  bad_input("model {}: {} is neither a model folder nor a file made by bertkit convert", spec, location.string());
}

}  // namespace bertkit::core
