#pragma once
// The one table of which files a model folder has and which of them bertkit reads: the tokenizer's
// files, the weights in each format, sentence-transformers' modules. The loaders (core/checkpoint,
// tokenizer/), the CLI's tokenizer checks and the Hub downloader's file list (core/hub) all choose
// through it, so what is downloaded is exactly what can be read. It knows names only, no formats.
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// Whether a file of one folder is there: the file system for a folder on disk, the repository's file
// list for a Hub download.
using FileExists = std::function<bool(std::string_view name)>;
FileExists exists_in(const std::filesystem::path& folder);

// ---- The tokenizer ----
// What the tokenizer's vocabulary and model are read from, in the loader's order of preference.
enum class TokenizerSource {
  TokenizerJson,   // tokenizer.json (with vocab.txt beside it when present: a converted file's
                   // tokenizer.json keeps its vocabulary there)
  VocabTxt,        // vocab.txt alone: BERT's WordPiece pipeline
  VocabJsonMerges, // vocab.json + merges.txt: transformers' slow RobertaTokenizer (byte-level BPE)
  SentencePiece,   // spm.model (with added_tokens.json): transformers' slow DebertaV2Tokenizer
  None,
};
inline constexpr std::string_view kTokenizerJson = "tokenizer.json";
inline constexpr std::string_view kVocabTxt = "vocab.txt";
inline constexpr std::string_view kVocabJson = "vocab.json";
inline constexpr std::string_view kMergesTxt = "merges.txt";
// Read on top of any of them.
inline constexpr std::string_view kTokenizerConfig = "tokenizer_config.json";
inline constexpr std::string_view kSpecialTokensMap = "special_tokens_map.json";
// transformers' slow tokenizers' legacy list of added tokens: fetched with the rest, read beside
// spm.model (elsewhere the added tokens bertkit reads are tokenizer.json's and tokenizer_config.json's).
inline constexpr std::string_view kAddedTokens = "added_tokens.json";
// DeBERTa-v2/v3's SentencePiece model, which bertkit reads itself when no tokenizer.json is there.
inline constexpr std::string_view kSpmModel = "spm.model";
// SentencePiece models (XLM-R and CamemBERT, DeBERTa-v3, ALBERT/T5, Llama). bertkit reads the others'
// tokenizer from tokenizer.json; a folder with only one of them is named as such.
inline constexpr std::string_view kSentencePieceModels[] = {"sentencepiece.bpe.model", "spm.model", "spiece.model",
                                                            "tokenizer.model"};

struct TokenizerChoice {
  TokenizerSource source = TokenizerSource::None;
  std::vector<std::string> files;  // every tokenizer file of the folder the loader reads, in table order
  // With no source: the SentencePiece model the folder has, to name it in the refusal.
  std::optional<std::string> sentencepiece_only;
};
// The tokenizer files of one folder the loader reads. The downloader fetches the same list, plus
// added_tokens.json and the SentencePiece model when no tokenizer.json comes (downloaded_tokenizer_files).
TokenizerChoice choose_tokenizer_files(const FileExists& exists);
std::vector<std::string> downloaded_tokenizer_files(const FileExists& exists);

// ---- The weights ----
// One format: a single file, else its index and the shards the index names (PREFIX-NNNNN-of-NNNNN.EXT).
struct WeightsFormat {
  std::string_view file;   // model.safetensors
  std::string_view index;  // model.safetensors.index.json
  std::string_view shard_prefix, shard_extension;
};
// safetensors before pytorch_model.bin, a single file before its shards.
std::span<const WeightsFormat> weights_formats();
enum class WeightsLayout { Single, Sharded };
struct WeightsChoice {
  const WeightsFormat* format = nullptr;
  WeightsLayout layout = WeightsLayout::Single;
  std::string_view file() const { return layout == WeightsLayout::Single ? format->file : format->index; }
};
// The first format present (the single file before the index of the same format), or no format.
WeightsChoice choose_weights(const FileExists& exists);
// "model.safetensors, model.safetensors.index.json, pytorch_model.bin or pytorch_model.bin.index.json".
std::string weights_file_names();
bool is_shard_of(const WeightsFormat& format, std::string_view name);

// ---- sentence-transformers ----
inline constexpr std::string_view kConfig = "config.json";  // every transformers folder's, and Pooling's, Dense's
inline constexpr std::string_view kModulesJson = "modules.json";
inline constexpr std::string_view kSentenceTransformersConfig = "config_sentence_transformers.json";  // the root's
inline constexpr std::string_view kSentenceBertConfig = "sentence_bert_config.json";  // the Transformer module's

// BGE-M3's heads in FlagEmbedding's layout: files at the repository's root, beside the encoder, that
// FlagEmbedding loads with torch.load (bertkit with its restricted unpickler). Read when present.
inline constexpr std::string_view kSparseLinearHead = "sparse_linear.pt";
inline constexpr std::string_view kColbertLinearHead = "colbert_linear.pt";
inline constexpr std::string_view kFlagEmbeddingHeads[] = {kSparseLinearHead, kColbertLinearHead};

// Pooling: sentence-transformers' Pooling and a SparseEncoder's SpladePooling (a config.json, no weights);
// Dense: sentence-transformers' and PyLate's (a config.json and weights).
// Whether modules.json's "type" names the sentence-transformers class `cls`, wherever a version keeps it:
// 5 writes sentence_transformers.models.Pooling (its SparseEncoder sentence_transformers.sparse_encoder.models.
// SpladePooling), 6 sentence_transformers.sentence_transformer.modules.pooling.Pooling (and base.modules.*,
// sparse_encoder.modules.*): the class name after the last dot is the same.
bool is_sentence_transformers_module(std::string_view type, std::string_view cls);
// PyLate's Dense (pylate.models.Dense.Dense): the same linear.weight as sentence-transformers', its own config keys.
bool is_pylate_dense(std::string_view type);
enum class ModuleKind { Transformer, Pooling, Dense, Normalize, StaticEmbedding, Other };
struct ModuleFolder {
  std::string folder;  // relative, "" or ending in '/'
  ModuleKind kind = ModuleKind::Other;
};
// The folders of modules.json's modules ("" for the root), the Transformer module's first.
struct ModuleFolders {
  std::string transformer;            // where config.json, the tokenizer and the weights are
  std::vector<ModuleFolder> modules;  // every module's folder, once, the transformer's included
  // The place of `transformer` is a StaticEmbedding module's (a token table, no config.json).
  bool static_embedding = false;
};
// Bad input naming `where` when the file is not a list of modules or a path leaves the repository.
ModuleFolders read_module_folders(std::string_view modules_json, std::string_view where);
// A folder without modules.json: the transformer at the root.
ModuleFolders root_transformer();

// ---- A folder on disk ----
enum class ModelPart { Tokenizer, Whole };
// The first file bertkit needs from the model folder `root` that it lacks, as a message part ("config.json",
// "its weights (model.safetensors, ... or ...)", "1_Pooling/config.json"), or nothing when it has all.
// Tokenizer: a tokenizer the loader reads. Whole: also config.json, the weights (and the shards an
// index names), and the config.json and weights of each Pooling and Dense module (SpladePooling and
// PyLate's Dense included). BGE-M3's .pt heads are not needed: the dense model runs without them, and a
// command asking for their vectors names the missing file.
std::optional<std::string> first_missing_file(const std::filesystem::path& root, ModelPart part);

}  // namespace bertkit::core
