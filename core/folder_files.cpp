#include "core/folder_files.h"

#include "core/error.h"
#include "core/files.h"
#include "core/json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace bertkit::core {

namespace fs = std::filesystem;

namespace {

constexpr WeightsFormat kWeightsFormats[] = {
    {"model.safetensors", "model.safetensors.index.json", "model", "safetensors"},
    {"pytorch_model.bin", "pytorch_model.bin.index.json", "pytorch_model", "bin"},
};

ModuleKind module_kind(std::string_view type) {
  if (is_sentence_transformers_module(type, "Transformer") || is_sentence_transformers_module(type, "MLMTransformer"))
    return ModuleKind::Transformer;
  if (is_sentence_transformers_module(type, "Pooling") || is_sentence_transformers_module(type, "SpladePooling"))
    return ModuleKind::Pooling;
  if (is_sentence_transformers_module(type, "Dense") || is_pylate_dense(type)) return ModuleKind::Dense;
  if (is_sentence_transformers_module(type, "Normalize")) return ModuleKind::Normalize;
  if (is_sentence_transformers_module(type, "StaticEmbedding")) return ModuleKind::StaticEmbedding;
  return ModuleKind::Other;
}

// The shards an index's weight_map names, or the index itself when it cannot be read (the loader
// then says what is wrong with it).
std::optional<std::string> first_missing_shard(const fs::path& folder, std::string_view index) {
  nlohmann::json j;
  try {
    j = read_json_file(folder / index);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object()) return std::nullopt;
  for (const auto& [tensor, file] : j["weight_map"].items())
    if (file.is_string() && !fs::exists(folder / file.get<std::string>())) return file.get<std::string>();
  return std::nullopt;
}

// What a folder holding model weights lacks of them.
std::optional<std::string> missing_weights(const fs::path& folder, const std::string& prefix) {
  const WeightsChoice weights = choose_weights(exists_in(folder));
  if (!weights.format)
    return prefix.empty() ? fmt::format("its weights ({})", weights_file_names())
                          : fmt::format("the weights of {} ({})", prefix, weights_file_names());
  if (weights.layout == WeightsLayout::Sharded)
    if (auto shard = first_missing_shard(folder, weights.format->index)) return prefix + *shard;
  return std::nullopt;
}

}  // namespace

FileExists exists_in(const fs::path& folder) {
  return [folder](std::string_view name) {
    std::error_code ec;
    return fs::is_regular_file(folder / name, ec);
  };
}

namespace {

// Each source in the loader's order of preference: the files it needs, and one it reads when present.
struct SourceFiles {
  TokenizerSource source;
  std::string_view needed[2];  // the second may be empty
  std::string_view optional;   // may be empty
};
constexpr SourceFiles kTokenizerSources[] = {
    {TokenizerSource::TokenizerJson, {kTokenizerJson, {}}, kVocabTxt},
    {TokenizerSource::VocabTxt, {kVocabTxt, {}}, {}},
    {TokenizerSource::VocabJsonMerges, {kVocabJson, kMergesTxt}, {}},
    {TokenizerSource::SentencePiece, {kSpmModel, {}}, kAddedTokens},
};

}  // namespace

TokenizerChoice choose_tokenizer_files(const FileExists& exists) {
  TokenizerChoice c;
  auto take = [&](std::string_view name) {
    if (!name.empty() && exists(name)) c.files.emplace_back(name);
  };
  for (const SourceFiles& s : kTokenizerSources) {
    if (!exists(s.needed[0]) || (!s.needed[1].empty() && !exists(s.needed[1]))) continue;
    c.source = s.source;
    for (std::string_view name : {s.needed[0], s.needed[1], s.optional}) take(name);
    break;
  }
  if (c.source == TokenizerSource::None)
    for (std::string_view model : kSentencePieceModels)
      if (!c.sentencepiece_only && exists(model)) c.sentencepiece_only = std::string(model);
  take(kTokenizerConfig);
  take(kSpecialTokensMap);
  return c;
}

std::vector<std::string> downloaded_tokenizer_files(const FileExists& exists) {
  const TokenizerChoice choice = choose_tokenizer_files(exists);
  std::vector<std::string> files = choice.files;
  auto add = [&](std::string_view name) {
    if (exists(name) && std::find(files.begin(), files.end(), name) == files.end()) files.emplace_back(name);
  };
  add(kAddedTokens);
  // Without tokenizer.json the SentencePiece model is the tokenizer's only full description.
  if (choice.source != TokenizerSource::TokenizerJson)
    for (std::string_view model : kSentencePieceModels) add(model);
  return files;
}

std::span<const WeightsFormat> weights_formats() { return kWeightsFormats; }

WeightsChoice choose_weights(const FileExists& exists) {
  for (const WeightsFormat& f : kWeightsFormats) {
    if (exists(f.file)) return {&f, WeightsLayout::Single};
    if (exists(f.index)) return {&f, WeightsLayout::Sharded};
  }
  return {};
}

std::string weights_file_names() {
  std::vector<std::string_view> names;
  for (const WeightsFormat& f : kWeightsFormats) names.insert(names.end(), {f.file, f.index});
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
  return out;
}

bool is_shard_of(const WeightsFormat& format, std::string_view name) {
  // PREFIX-00001-of-00003.EXT
  if (!name.starts_with(format.shard_prefix) || !name.ends_with(format.shard_extension)) return false;
  name.remove_prefix(format.shard_prefix.size());
  if (name.size() < format.shard_extension.size()) return false;
  name.remove_suffix(format.shard_extension.size());
  auto five_digits = [](std::string_view s) {
    return s.size() == 5 && std::all_of(s.begin(), s.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
  };
  return name.size() == 16 && name.front() == '-' && name.back() == '.' && five_digits(name.substr(1, 5)) &&
         name.substr(6, 4) == "-of-" && five_digits(name.substr(10, 5));
}

bool is_sentence_transformers_module(std::string_view type, std::string_view cls) {
  if (!type.starts_with("sentence_transformers.") || type.size() <= cls.size() || !type.ends_with(cls) ||
      type[type.size() - cls.size() - 1] != '.')
    return false;
  return type.find(".models.") != std::string_view::npos || type.find(".modules.") != std::string_view::npos;
}

bool is_pylate_dense(std::string_view type) { return type.starts_with("pylate.") && type.ends_with(".Dense"); }

ModuleFolders root_transformer() { return {"", {{"", ModuleKind::Transformer}}}; }

ModuleFolders read_module_folders(std::string_view modules_json, std::string_view where) {
  const nlohmann::json modules = nlohmann::json::parse(modules_json, nullptr, false);
  if (!modules.is_array()) bad_input("{}: not a list of modules", where);
  ModuleFolders out;
  bool have_transformer = false;
  for (const auto& m : modules) {
    if (!m.is_object() || !m.value("path", nlohmann::json()).is_string())
      bad_input("{}: a module without a \"path\"", where);
    const std::string path = m["path"].get<std::string>();
    if (path.starts_with('/') || path.find("..") != std::string::npos)
      bad_input("{}: module path \"{}\" leaves the repository", where, path);
    // "." is the root, as model2vec's modules.json names it.
    const std::string folder = path.empty() || path == "." ? std::string() : path.ends_with('/') ? path : path + "/";
    const nlohmann::json type = m.value("type", nlohmann::json());
    const ModuleKind kind = type.is_string() ? module_kind(type.get<std::string>()) : ModuleKind::Other;
    // A StaticEmbedding module holds the tokenizer and weights where a Transformer would.
    if ((kind == ModuleKind::Transformer || kind == ModuleKind::StaticEmbedding) && !have_transformer) {
      out.transformer = folder;
      out.static_embedding = kind == ModuleKind::StaticEmbedding;
      have_transformer = true;
    }
    auto same = [&](const ModuleFolder& f) { return f.folder == folder; };
    if (std::none_of(out.modules.begin(), out.modules.end(), same)) out.modules.push_back({folder, kind});
  }
  auto transformer = [&](const ModuleFolder& f) { return f.folder == out.transformer; };
  if (std::none_of(out.modules.begin(), out.modules.end(), transformer))
    out.modules.insert(out.modules.begin(), {out.transformer, ModuleKind::Transformer});
  return out;
}

std::optional<std::string> first_missing_file(const fs::path& root, ModelPart part) {
  std::error_code ec;
  const ModuleFolders modules = fs::is_regular_file(root / kModulesJson, ec)
                                    ? read_module_folders(read_text_file(root / kModulesJson), (root / kModulesJson).string())
                                    : root_transformer();
  const fs::path transformer = root / modules.transformer;
  const TokenizerChoice tokenizer = choose_tokenizer_files(exists_in(transformer));
  if (tokenizer.source == TokenizerSource::None)
    return fmt::format("{}its tokenizer ({}, {}, {}, or {} with {})", modules.transformer, kTokenizerJson, kVocabTxt,
                       kSpmModel, kVocabJson, kMergesTxt);
  if (part == ModelPart::Tokenizer) return std::nullopt;
  if (!modules.static_embedding && !exists_in(transformer)(kConfig)) return modules.transformer + std::string(kConfig);
  if (auto weights = missing_weights(transformer, modules.transformer)) return weights;
  for (const ModuleFolder& m : modules.modules) {
    if (m.kind != ModuleKind::Pooling && m.kind != ModuleKind::Dense) continue;
    if (!exists_in(root / m.folder)(kConfig)) return m.folder + std::string(kConfig);
    if (m.kind == ModuleKind::Dense)
      if (auto weights = missing_weights(root / m.folder, m.folder)) return weights;
  }
  return std::nullopt;
}

}  // namespace bertkit::core
