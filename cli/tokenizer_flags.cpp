#include "cli/tokenizer_flags.h"

#include "cli/number_flags.h"
#include "cli/switch_flags.h"
#include "records/log.h"
#include "core/loading/converted_file.h"
#include "core/loading/model_source.h"
#include "core/loading/static_folder.h"
#include "core/error.h"
#include "core/json.h"
#include "core/model/family_spec.h"
#include "tokenizer/loader.h"
#include "tokenizer/pipeline_pieces.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

namespace bertkit::cli {

namespace fs = std::filesystem;

void add_tokenizer_flags(CLI::App& sub, TokenizerFlags& f) {
  sub.add_option("-m,--model", f.model,
                 "Model folder, tokenizer.json, vocab.txt, converted file or cached model id "
                 "(default: the built-in bert-base-uncased vocabulary)");
  add_switch_flags(sub, "--lowercase", "--no-lowercase", f.lowercase, "Lower-case the text (override the model)",
                   "Keep the case (override the model)");
  add_switch_flags(sub, "--strip-accents", "--no-strip-accents", f.strip_accents,
                   "Strip accents (default: when lower-casing)", "Keep accents");
  sub.add_flag("--no-chinese-split", f.no_chinese_split, "Do not put spaces around CJK ideographs");
  sub.add_option("--max-length", f.max_length, "Truncate to this many tokens, special tokens included")
      ->check(whole_number(0, 1 << 30));
  sub.add_option("--truncation", f.truncation,
                 "longest_first, only_first, only_second or none (default: longest_first with --max-length)");
  sub.add_option("--truncation-side", f.truncation_side, "right or left")->capture_default_str();
  sub.add_option("--stride", f.stride, "Tokens shared by consecutive overflowing windows")
      ->check(whole_number(0, 1 << 30))
      ->capture_default_str();
  sub.add_option("--padding", f.padding, "longest (within a batch), max_length or none")->capture_default_str();
  sub.add_option("--padding-side", f.padding_side, "right or left")->capture_default_str();
  sub.add_flag("--no-special-tokens", f.no_special_tokens, "Do not add [CLS] and [SEP]");
  sub.add_option("--compat", f.compat,
                 "fast (Hugging Face's Rust tokenizer, what pipelines use) or python (the slow BertTokenizer or RobertaTokenizer)")
      ->capture_default_str();
}

namespace {

tok::TokenizerFiles files_of(const core::LoadedModel& loaded) {
  tok::TokenizerFiles files = loaded.tokenizer;
  files.origin = loaded.location.string();
  files.paths = loaded.files;
  return files;
}

// vocab.txt alone is read as BERT's tokenizer ([CLS] A [SEP]): right only for a family whose tokenizer
// that is, not for one that puts <s> A </s> around a text with the same kind of vocabulary (MPNet).
bool vocab_txt_is_bert_tokenizer(const core::FamilySpec& family) {
  const tok::SpecialTokens bert;
  return family.special_tokens.cls == bert.cls && family.special_tokens.sep == bert.sep;
}

[[noreturn]] void refuse_vocab_txt(const std::string& config, const core::FamilySpec& family) {
  bad_input("{}: a {} model puts {} ... {} around a text, and without a tokenizer.json bertkit reads vocab.txt "
            "as BERT's tokenizer only: give its tokenizer.json, or the vocab.txt alone to read it as BERT's",
            config, family.model_type, family.special_tokens.cls, family.special_tokens.sep);
}

// A folder's tokenizer is the one its files declare: tokenizer.json, vocab.json + merges.txt (byte-level
// BPE), else vocab.txt read as BERT's tokenizer, which is right only for a family bertkit knows to
// tokenize that way. A config.json naming another model_type without a tokenizer.json is refused, as the
// model commands refuse it. Returns the config.json when it was read.
std::optional<fs::path> check_folder_tokenizer(const fs::path& folder) {
  std::error_code ec;
  const fs::path config = folder / core::kConfig;
  const core::TokenizerSource source = core::choose_tokenizer_files(core::exists_in(folder)).source;
  // tokenizer.json says what it is; vocab.json + merges.txt (no vocab.txt) declare byte-level BPE and
  // spm.model DeBERTa's SentencePiece tokenizer, whatever the family.
  if (source == core::TokenizerSource::TokenizerJson || source == core::TokenizerSource::VocabJsonMerges ||
      source == core::TokenizerSource::SentencePiece || !fs::exists(config, ec))
    return std::nullopt;
  const auto json = core::read_json_file(config);
  if (!json.is_object() || !json.contains("model_type") || !json["model_type"].is_string()) return config;
  const auto type = json["model_type"].get<std::string>();
  const core::FamilySpec* family = core::find_family(type);
  if (!family)
    bad_input("{}: model_type \"{}\" is not supported ({}), and without a tokenizer.json its tokenizer is "
              "unknown: give its tokenizer.json, or the vocab.txt alone to read it as BERT's",
              config.string(), type, core::supported_model_types());
  if (source == core::TokenizerSource::VocabTxt && !vocab_txt_is_bert_tokenizer(*family))
    refuse_vocab_txt(config.string(), *family);
  return config;
}

// What -m names, for its tokenizer only: a folder, tokenizer.json or vocab.txt is read as it is; a
// converted file's tokenizer and a cached model id's folder are read without their weights (a cached
// snapshot needs only its tokenizer files, ModelPart::Tokenizer).
tok::TokenizerFiles model_tokenizer_files(const std::string& model) {
  std::error_code ec;
  const bool is_path = fs::exists(model, ec);
  const fs::path extension = fs::path(model).extension();
  if (is_path && !fs::is_directory(model, ec) && extension != ".json" && extension != ".txt") {
    if (core::is_converted_file(model)) return core::read_converted_tokenizer(model);
    return files_of(core::load_model(model));  // refused there, as every command refuses it
  }
  const fs::path location = is_path ? fs::path(model) : core::resolve_model_location(model, core::ModelPart::Tokenizer);
  // A static embedding model's tokenizer is its tokenizer.json alone, in its StaticEmbedding module's folder.
  if (fs::is_directory(location, ec) && core::static_layout(location))
    return core::load_static_model(location, model).tokenizer;
  const std::optional<fs::path> config = fs::is_directory(location, ec) ? check_folder_tokenizer(location) : std::nullopt;
  tok::TokenizerFiles files = tok::read_tokenizer_files(location);
  if (config) files.paths.push_back(*config);
  return files;
}

tok::Side parse_side(const std::string& s, const char* flag) {
  if (s == "right") return tok::Side::Right;
  if (s == "left") return tok::Side::Left;
  usage_error("{} must be right or left, not '{}'", flag, s);
}

// --compat python stands for transformers' slow tokenizers: BertTokenizer (a WordPiece model behind one
// BertNormalizer, whose Python character classes bertkit reproduces), RobertaTokenizer (byte-level
// BPE: the fast tokenizer's tokens, and the pipelines' slow-tokenizer paths, which ner and qa follow) and
// DebertaV2Tokenizer (spm.model read with SentencePiece's own rules, which it already is). Another
// Unigram tokenizer's slow twin is not reproduced, so the flag is refused there, never taken and ignored.
void check_python_compat(const tok::TokenizerSpec& spec) {
  const std::string kind = tok::model_kind(spec.model);
  if (kind == "BPE" || tok::normalizer_kinds(spec.normalizer) == std::vector<std::string>{"SentencePiece"}) return;
  if (kind != "WordPiece")
    usage_error("--compat python reproduces transformers' slow BertTokenizer and RobertaTokenizer; this tokenizer "
                "is {}: leave --compat out",
                kind);
  const std::vector<std::string> normalizers = tok::normalizer_kinds(spec.normalizer);
  if (normalizers.size() != 1 || normalizers.front() != "BertNormalizer")
    usage_error("--compat python reproduces BertTokenizer, whose normalizer is one BertNormalizer; this WordPiece "
                "tokenizer's is {}: leave --compat out",
                normalizers.empty() ? std::string("none") : fmt::format("{}", fmt::join(normalizers, ", ")));
}

}  // namespace

std::unique_ptr<tok::Tokenizer> build_tokenizer(const TokenizerFlags& f, const core::LoadedModel* model,
                                                std::vector<std::filesystem::path>* files_read) {
  if (f.compat != "fast" && f.compat != "python") usage_error("--compat must be fast or python, not '{}'", f.compat);
  tok::TokenizerFiles files = model ? files_of(*model)
                              : f.model.empty() ? tok::builtin_tokenizer_files()
                                                : model_tokenizer_files(f.model);
  if (f.compat == "python") files = tok::slow_sentencepiece_files(std::move(files));
  if (files_read) *files_read = files.paths;
  if (model && !files.tokenizer_json && files.vocab_txt && !vocab_txt_is_bert_tokenizer(*model->config.family))
    refuse_vocab_txt(model->location.string(), *model->config.family);
  tok::TokenizerSpec spec = tok::build_tokenizer_spec(files);
  if (f.compat == "python") check_python_compat(spec);
  if (f.lowercase) spec.bert_normalizer().lowercase = *f.lowercase;
  if (f.strip_accents) spec.bert_normalizer().strip_accents = *f.strip_accents;
  if (f.no_chinese_split) spec.bert_normalizer().handle_chinese_chars = false;
  if (f.compat == "python") spec.profile = tok::UnicodeProfile::Python;
  return std::make_unique<tok::Tokenizer>(std::move(spec));
}

records::TokenizeOptions tokenize_options(const TokenizerFlags& f, const tok::Tokenizer& tokenizer) {
  records::TokenizeOptions o;
  o.encode.add_special_tokens = !f.no_special_tokens;
  std::string strategy = f.truncation.empty() ? (f.max_length ? "longest_first" : "none") : f.truncation;
  std::optional<std::size_t> max_length = f.max_length ? f.max_length : tokenizer.spec().model_max_length;
  if (strategy != "none") {
    if (!max_length) usage_error("--truncation {} needs --max-length: this tokenizer has no model_max_length", strategy);
    tok::TruncationParams t;
    t.max_length = *max_length;
    t.strategy = tok::parse_truncation_strategy(strategy);
    t.stride = f.stride;
    t.side = parse_side(f.truncation_side, "--truncation-side");
    o.encode.truncation = t;
  } else if (f.stride) {
    usage_error("--stride needs truncation (--max-length or --truncation)");
  }
  o.padding.strategy = tok::parse_padding_strategy(f.padding);
  o.padding.side = parse_side(f.padding_side, "--padding-side");
  o.padding.pad_id = tokenizer.pad_id();
  if (o.padding.strategy == tok::PaddingStrategy::MaxLength) {
    if (!max_length) usage_error("--padding max_length needs --max-length");
    o.padding.length = *max_length;
  }
  return o;
}

}  // namespace bertkit::cli
