#include "tokenizer/loader.h"

#include "core/error.h"
#include "core/json.h"
#include "tokenizer/default_vocab.h"
#include "tokenizer/json_fields.h"
#include "tokenizer/sentencepiece_spec.h"
#include "tokenizer/tokenizer_json.h"
#include "tokenizer/tokenizer_json_pieces.h"
#include "tokenizer/wordpiece_image.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

namespace bertkit::tok {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::string> read_if_exists(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) bad_input("cannot read {}", path.string());
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) bad_input("cannot read {}", path.string());
  return std::move(s).str();
}

// A special token in tokenizer_config.json / special_tokens_map.json: a string or an AddedToken dict.
std::optional<std::string> token_content(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("content") && v["content"].is_string()) return v["content"].get<std::string>();
  return std::nullopt;
}

AddedToken added_token_from_json(const json& t, const std::string& where) {
  AddedToken a;
  a.content = get_or<std::string>(t, "content", "", where);
  if (a.content.empty()) bad_input("{}: an added token has no content", where);
  a.id = get_or<std::int32_t>(t, "id", -1, where);
  a.special = get_or<bool>(t, "special", false, where);
  a.single_word = get_or<bool>(t, "single_word", false, where);
  a.lstrip = get_or<bool>(t, "lstrip", false, where);
  a.rstrip = get_or<bool>(t, "rstrip", false, where);
  a.normalized = get_or<bool>(t, "normalized", !a.special, where);
  return a;
}

// Numbers `t` as Hugging Face's tokenizer does when it adds a token, whatever id a file wrote beside it
// (Rust's tokenizer only warns when they differ): the id of the token with its text, else the next id
// past the vocabulary and the tokens added after it.
void number_added_token(const TokenizerSpec& spec, AddedToken& t) {
  if (auto id = spec.find_token(t.content)) {
    t.id = *id;
    return;
  }
  t.id = spec.next_added_id();
}

// The vocabulary of vocab.txt, with the token index and WordPiece's tries from bertkit's compiled image
// when the files have one.
std::shared_ptr<Vocab> vocab_from_lines(const TokenizerFiles& files, const std::string& where, TokenizerSpec& spec) {
  if (files.wordpiece_image) {
    const std::string image_where = files.origin + "/wordpiece.bin";
    if (auto tables = read_wordpiece_image(files.wordpiece_image->bytes, files.wordpiece_image->owner, image_where)) {
      auto vocab = std::make_shared<Vocab>(Vocab::from_text(*files.vocab_txt, where, std::move(tables->index)));
      if (vocab->size() != tables->vocab_size)
        bad_input("{}: corrupt compiled tokenizer: built for {} tokens, vocab.txt has {}", image_where, tables->vocab_size,
                  vocab->size());
      // Damaged, or built from another vocab.txt, the tables would give wrong ids that stay inside the
      // vocabulary. The checksum costs half of what looking every token up did (2.4 M instructions).
      if (!wordpiece_image_matches(files.wordpiece_image->bytes, *vocab))
        bad_input("{}: corrupt compiled tokenizer: damaged, or built from another vocab.txt", image_where);
      spec.compiled = std::make_shared<const WordPieceTables>(std::move(*tables));
      return vocab;
    }
  }
  return std::make_shared<Vocab>(Vocab::from_text(*files.vocab_txt, where));
}

// transformers' RobertaTokenizer's special tokens, the defaults of a byte-level BPE tokenizer.
SpecialTokens roberta_special_tokens() { return {"<unk>", "<s>", "</s>", "<pad>", "<mask>"}; }

void read_tokenizer_json(const std::string& text, const TokenizerFiles& files, TokenizerSpec& spec,
                         const std::string& where, const std::string& vocab_txt_where) {
  TokenizerJson file = parse_tokenizer_json(text, where);
  const json& j = file.rest;
  if (!j.is_object()) bad_input("{}: not a tokenizer.json object", where);
  const json& model = j.value("model", json::object());
  spec.model = read_model_spec(model, where);
  if (auto* unigram = std::get_if<UnigramSpec>(&spec.model)) {
    spec.vocab = read_unigram_vocab(std::move(file.scored_vocab), *unigram, where);
    // transformers' SentencePiece tokenizers (XLM-R, CamemBERT) name these by default.
    spec.special = {unigram->unk_id >= 0 ? std::string(spec.vocab->token(unigram->unk_id)) : "<unk>", "<s>", "</s>", "<pad>",
                    "<mask>"};
  } else if (file.vocab)
    spec.vocab = std::make_shared<Vocab>(Vocab::from_pairs(std::move(*file.vocab), where));
  else if (files.vocab_txt)
    spec.vocab = vocab_from_lines(files, vocab_txt_where, spec);
  else
    bad_input("{}: the model has no vocab", where);
  if (const auto* wordpiece = std::get_if<WordPieceOptions>(&spec.model)) {
    spec.special.unk = wordpiece->unk_token;
  } else if (const auto* bpe = std::get_if<BpeOptions>(&spec.model)) {
    spec.special = roberta_special_tokens();
    spec.special.unk = bpe->unk_token.value_or(spec.special.unk);
  }
  read_pipeline_pieces(j, spec, where);
  // bertkit's BPE model reads the text's bytes through the byte-level alphabet, which the ByteLevel
  // pre-tokenizer leaves unwritten: the two come together.
  const bool bpe = std::holds_alternative<BpeOptions>(spec.model);
  if (bpe != std::holds_alternative<ByteLevelOptions>(spec.pre_tokenizer))
    bad_input("{}: {} is not supported yet", where,
              bpe ? "a BPE model without the ByteLevel pre-tokenizer"
                  : "the ByteLevel pre-tokenizer before a model other than BPE");
  for (const json& t : j.value("added_tokens", json::array())) {
    AddedToken a = added_token_from_json(t, where);
    number_added_token(spec, a);
    spec.added_tokens.push_back(std::move(a));
  }
}

// The JSON object of vocab.json (token -> id).
std::shared_ptr<Vocab> vocab_from_json(const std::string& text, const std::string& where) {
  json j = core::parse_json(text, where);
  if (!j.is_object()) bad_input("{}: not a JSON object of tokens and ids", where);
  std::vector<std::pair<std::string, std::int64_t>> entries;
  entries.reserve(j.size());
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer()) bad_input("{}: token '{}' has no integer id", where, it.key());
    entries.emplace_back(it.key(), it.value().get<std::int64_t>());
  }
  return std::make_shared<Vocab>(Vocab::from_pairs(std::move(entries), where));
}

// merges.txt: an optional "#version" line, then one "a b" per line.
std::shared_ptr<const BpeMerges> merges_from_text(std::string_view text, const std::string& where) {
  auto merges = std::make_shared<BpeMerges>();
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || (line_no == 1 && line.starts_with("#version"))) continue;
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos)
      bad_input("{}:{}: a merge is two tokens separated by one space", where, line_no);
    merges->emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  }
  return merges;
}

// vocab.json + merges.txt: the pipeline transformers' RobertaTokenizerFast converts the slow tokenizer
// to (ByteLevel without a prefix space, BPE, RobertaProcessing with trim_offsets, ByteLevel decoder).
void read_bpe_files(const TokenizerFiles& files, TokenizerSpec& spec) {
  spec.vocab = vocab_from_json(*files.vocab_json, files.origin + "/vocab.json");
  BpeOptions bpe;
  bpe.merges = merges_from_text(*files.merges_txt, files.origin + "/merges.txt");
  spec.model = bpe;
  spec.normalizer = {NormalizerOptions{false, false, false, false}};
  spec.pre_tokenizer = ByteLevelOptions{false, true, true};
  spec.decoder = ByteLevelDecoderOptions{};
  spec.special = roberta_special_tokens();
}

// `replace`: t's flags win over an entry already there (else only its special flag is merged).
void add_or_update(std::vector<AddedToken>& tokens, AddedToken t, bool replace = false) {
  for (AddedToken& existing : tokens)
    if (existing.content == t.content) {
      t.special = existing.special || t.special;
      if (replace) existing = std::move(t);
      else existing.special = t.special;
      return;
    }
  tokens.push_back(std::move(t));
}

void read_special_tokens(const json& cfg, TokenizerSpec& spec, const std::string& where) {
  if (!cfg.is_object()) bad_input("{}: not a JSON object", where);
  std::pair<const char*, std::string*> names[] = {{"unk_token", &spec.special.unk}, {"cls_token", &spec.special.cls},
                                                  {"sep_token", &spec.special.sep}, {"pad_token", &spec.special.pad},
                                                  {"mask_token", &spec.special.mask}};
  for (auto& [key, dst] : names)
    if (cfg.contains(key))
      if (auto content = token_content(cfg[key])) *dst = *content;
  // A special token given as a dict keeps its flags (RoBERTa's mask token: lstrip).
  for (auto& [key, dst] : names)
    if (cfg.contains(key) && cfg[key].is_object())
      if (auto id = spec.find_token(*dst)) {
        AddedToken t = added_token_from_json(cfg[key], where);
        t.id = *id;
        t.special = true;
        add_or_update(spec.added_tokens, std::move(t));
      }
  for (const json& t : cfg.value("additional_special_tokens", json::array())) {
    auto content = token_content(t);
    if (!content) continue;
    auto id = spec.find_token(*content);
    if (!id) bad_input("{}: additional special token '{}' is not in the vocabulary", where, *content);
    add_or_update(spec.added_tokens, AddedToken{*content, *id, true, false, false, false, false});
  }
}

// `has_tokenizer_json`: the added tokens of tokenizer.json keep their flags, as transformers' fast
// tokenizers only add the tokens of added_tokens_decoder they lack; without it added_tokens_decoder
// defines them.
void read_tokenizer_config(const std::string& text, TokenizerSpec& spec, const std::string& where,
                           bool has_tokenizer_json) {
  json cfg = core::parse_json(text, where);
  if (!cfg.is_object()) bad_input("{}: not a JSON object", where);
  // transformers' Bert tokenizers take these from tokenizer_config.json (with these defaults) and
  // rebuild the normaliser of tokenizer.json when they disagree with it.
  NormalizerOptions* normalizer = std::holds_alternative<WordPieceOptions>(spec.model) ? spec.find_bert_normalizer() : nullptr;
  if (normalizer) {
    normalizer->lowercase = get_or<bool>(cfg, "do_lower_case", true, where);
    normalizer->handle_chinese_chars = get_or<bool>(cfg, "tokenize_chinese_chars", true, where);
    normalizer->strip_accents = std::nullopt;
    if (cfg.contains("strip_accents") && !cfg["strip_accents"].is_null())
      normalizer->strip_accents = get_or<bool>(cfg, "strip_accents", false, where);
  }
  if (cfg.contains("model_max_length") && cfg["model_max_length"].is_number()) {
    double m = cfg["model_max_length"].get<double>();
    // transformers writes a huge sentinel (1e30) when a model has no limit.
    if (m > 0 && m < 1e9) spec.model_max_length = static_cast<std::size_t>(m);
  }
  const bool clean_up = get_or<bool>(cfg, "clean_up_tokenization_spaces", true, where);
  if (auto* wordpiece = std::get_if<DecoderOptions>(&spec.decoder)) wordpiece->clean_up_tokenization_spaces = clean_up;
  if (auto* byte_level = std::get_if<ByteLevelDecoderOptions>(&spec.decoder))
    byte_level->clean_up_tokenization_spaces = clean_up;
  // RobertaTokenizerFast sets the pre-tokenizer's add_prefix_space and the post-processor's
  // add_prefix_space and trim_offsets from its arguments (defaults false, true), whatever
  // tokenizer.json says.
  if (auto* byte_level = std::get_if<ByteLevelOptions>(&spec.pre_tokenizer)) {
    byte_level->add_prefix_space = get_or<bool>(cfg, "add_prefix_space", false, where);
    if (spec.post_processor && spec.post_processor->trimming() != std::nullopt) {
      std::optional<OffsetTrimming> trimming;
      if (get_or<bool>(cfg, "trim_offsets", true, where)) trimming = OffsetTrimming{byte_level->add_prefix_space};
      spec.post_processor->set_trimming(trimming);
    }
  }
  if (auto* metaspace = std::get_if<MetaspaceDecoderSpec>(&spec.decoder)) metaspace->clean_up_tokenization_spaces = clean_up;
  if (auto* sp = std::get_if<SentencePieceDecoderSpec>(&spec.decoder)) sp->clean_up_tokenization_spaces = clean_up;
  read_special_tokens(cfg, spec, where);
  if (cfg.contains("added_tokens_decoder") && cfg["added_tokens_decoder"].is_object()) {
    for (auto it = cfg["added_tokens_decoder"].begin(); it != cfg["added_tokens_decoder"].end(); ++it) {
      AddedToken t = added_token_from_json(it.value(), where);
      try {
        t.id = std::stoi(it.key());
      } catch (const std::exception&) {
        bad_input("{}: added_tokens_decoder key '{}' is not an id", where, it.key());
      }
      // transformers adds those the fast tokenizer lacks through it, which numbers them its own way.
      if (has_tokenizer_json) number_added_token(spec, t);
      add_or_update(spec.added_tokens, std::move(t), !has_tokenizer_json);
    }
  }
}

std::int32_t require_special(const Vocab& vocab, const std::string& token, const char* role) {
  auto id = vocab.find(token);
  if (!id) bad_input("the {} token '{}' is not in the vocabulary", role, token);
  return *id;
}

void add_missing_special_tokens(TokenizerSpec& spec) {
  for (const std::string* name : {&spec.special.pad, &spec.special.unk, &spec.special.cls, &spec.special.sep,
                                  &spec.special.mask})
    if (auto id = spec.vocab->find(*name)) add_or_update(spec.added_tokens, AddedToken{*name, *id, true, false, false, false, false});
}

}  // namespace

TokenizerFiles read_tokenizer_files(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    fs::path dir = path;
    // sentence-transformers' old layout keeps the tokenizer in 0_Transformer/.
    const fs::path old_layout = dir / "0_Transformer";
    if (core::choose_tokenizer_files(core::exists_in(dir)).source == core::TokenizerSource::None &&
        core::choose_tokenizer_files(core::exists_in(old_layout)).source != core::TokenizerSource::None)
      dir = old_layout;
    core::FolderTokenizer tokenizer = core::read_folder_tokenizer(dir);
    tokenizer.files.origin = path.string();
    if (tokenizer.choice.source != core::TokenizerSource::None) return std::move(tokenizer.files);
    if (tokenizer.choice.sentencepiece_only)
      bad_input("{}: only a SentencePiece model ({}) and no tokenizer.json; bertkit reads DeBERTa's spm.model itself, "
                "other models' tokenizer from tokenizer.json (write it with transformers: "
                "AutoTokenizer.from_pretrained(FOLDER).save_pretrained(FOLDER))",
                path.string(), *tokenizer.choice.sentencepiece_only);
    bad_input("{}: no tokenizer.json, vocab.txt, spm.model, or vocab.json with merges.txt in this folder", path.string());
  }
  if (!fs::exists(path, ec)) bad_input("{}: no such file or folder", path.string());
  TokenizerFiles files;
  files.origin = path.string();
  std::optional<std::string> text = read_if_exists(path);
  if (!text) bad_input("{}: not a regular file", path.string());
  files.paths.push_back(path);
  if (path.extension() == ".json")
    files.tokenizer_json = std::move(text);
  else if (path.filename() == core::kSpmModel)
    files.spm_model = std::move(text);
  else
    files.vocab_txt = std::move(text);
  return files;
}

TokenizerFiles slow_sentencepiece_files(TokenizerFiles files) {
  std::error_code ec;
  const fs::path spm = fs::path(files.origin) / core::kSpmModel;
  if (!files.tokenizer_json || !fs::is_directory(files.origin, ec) || !fs::is_regular_file(spm, ec)) return files;
  files.tokenizer_json.reset();
  files.vocab_txt.reset();
  files.spm_model = read_if_exists(spm);
  files.paths.push_back(spm);
  const fs::path added = fs::path(files.origin) / core::kAddedTokens;
  if ((files.added_tokens_json = read_if_exists(added))) files.paths.push_back(added);
  return files;
}

TokenizerFiles builtin_tokenizer_files() {
  TokenizerFiles files;
  files.vocab_txt = std::string(default_vocab_text());
  if (auto image = default_wordpiece_image())  // part of the binary: it lives as long as the process
    files.wordpiece_image = core::SharedBytes{*image, std::shared_ptr<const void>(image->data(), [](const void*) {})};
  files.origin = "built-in bert-base-uncased vocabulary";
  return files;
}

TokenizerSpec build_tokenizer_spec(const TokenizerFiles& files) {
  TokenizerSpec spec;
  std::error_code ec;
  const std::string& origin = files.origin;
  const std::string vocab_txt_where = files.tokenizer_json || files.tokenizer_config_json ? origin + "/vocab.txt" : origin;
  if (files.tokenizer_json) {
    read_tokenizer_json(*files.tokenizer_json, files, spec,
                        origin + (files.vocab_txt || files.tokenizer_config_json || fs::is_directory(origin, ec)
                                      ? "/tokenizer.json"
                                      : ""),
                        vocab_txt_where);
  } else if (files.vocab_txt) {
    spec.vocab = vocab_from_lines(files, vocab_txt_where, spec);
  } else if (files.vocab_json && files.merges_txt) {
    read_bpe_files(files, spec);
  } else if (files.spm_model) {
    read_sentencepiece_tokenizer(*files.spm_model, origin + "/" + std::string(core::kSpmModel), spec);
  } else {
    bad_input("{}: no tokenizer.json, vocab.txt or spm.model", origin);
  }
  if (files.special_tokens_map_json) {
    std::string where = origin + "/special_tokens_map.json";
    read_special_tokens(core::parse_json(*files.special_tokens_map_json, where), spec, where);
  }
  if (files.tokenizer_config_json)
    read_tokenizer_config(*files.tokenizer_config_json, spec, origin + "/tokenizer_config.json",
                          files.tokenizer_json.has_value());
  if (auto* wordpiece = std::get_if<WordPieceOptions>(&spec.model)) wordpiece->unk_token = spec.special.unk;
  if (!files.tokenizer_json) add_missing_special_tokens(spec);
  if (!files.tokenizer_json && !files.vocab_txt && !files.vocab_json && files.spm_model) finish_sentencepiece_tokenizer(files, spec);
  if (!files.tokenizer_json && files.vocab_json) {
    const bool add_prefix_space = std::get<ByteLevelOptions>(spec.pre_tokenizer).add_prefix_space;
    spec.post_processor = PostProcessor::roberta(require_special(*spec.vocab, spec.special.cls, "classifier"),
                                                 require_special(*spec.vocab, spec.special.sep, "separator"),
                                                 OffsetTrimming{add_prefix_space});
    // RobertaTokenizer's mask token takes the spaces before it.
    for (AddedToken& t : spec.added_tokens)
      if (t.content == spec.special.mask) t.lstrip = true;
  }
  return spec;
}

std::string model_summary(const TokenizerSpec& spec) {
  if (const auto* bpe = std::get_if<BpeOptions>(&spec.model))
    return fmt::format("BPE (byte-level, {} merges)", bpe->merges->size());
  if (const auto* unigram = std::get_if<UnigramSpec>(&spec.model); unigram && unigram->types)
    return fmt::format("Unigram (SentencePiece spm.model, {} pieces{})", spec.vocab->size(),
                       unigram->byte_fallback ? ", byte fallback" : "");
  return model_kind(spec.model);
}

namespace {

std::string sentencepiece_rules_summary(const SentencePieceRules& rules) {
  std::vector<std::string> on;
  if (rules.charsmap) on.emplace_back("precompiled charsmap");
  if (rules.remove_extra_whitespaces) on.emplace_back("remove_extra_whitespaces");
  if (rules.add_dummy_prefix) on.emplace_back("add_dummy_prefix");
  return fmt::format("SentencePiece({})", fmt::join(on, ", "));
}

}  // namespace

std::string normalizer_summary(const TokenizerSpec& spec) {
  const std::vector<std::string> kinds = normalizer_kinds(spec.normalizer);
  std::vector<std::string> steps;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (const auto* sp = std::get_if<SentencePieceRules>(&spec.normalizer[i])) {
      steps.push_back(sentencepiece_rules_summary(*sp));
      continue;
    }
    const auto* o = std::get_if<NormalizerOptions>(&spec.normalizer[i]);
    if (!o) {
      steps.push_back(kinds[i]);
      continue;
    }
    std::vector<std::string> on;
    if (o->clean_text) on.emplace_back("clean_text");
    if (o->handle_chinese_chars) on.emplace_back("chinese_chars");
    if (o->lowercase) on.emplace_back("lowercase");
    if (o->strips_accents()) on.emplace_back("strip_accents");
    // With every option off it changes nothing: a byte-level BPE's "no normalizer".
    if (!on.empty()) steps.push_back(fmt::format("BertNormalizer({})", fmt::join(on, ", ")));
  }
  return steps.empty() ? "none" : fmt::format("{}", fmt::join(steps, " -> "));
}

TokenizerFiles compact_tokenizer_files(const TokenizerFiles& files) {
  if (!files.tokenizer_json) return files;
  TokenizerJson file = parse_tokenizer_json(*files.tokenizer_json, files.origin + "/tokenizer.json");
  if (!file.vocab || file.vocab->empty()) return files;
  std::vector<const std::string*> by_id(file.vocab->size(), nullptr);
  for (const auto& [token, id] : *file.vocab) {
    if (id < 0 || static_cast<std::size_t>(id) >= by_id.size() || by_id[static_cast<std::size_t>(id)] || token.empty() ||
        token.find('\n') != std::string::npos)
      return files;
    by_id[static_cast<std::size_t>(id)] = &token;
  }
  // Vocab::from_text drops a byte-order mark at the start of the file.
  if (by_id[0]->starts_with("\xEF\xBB\xBF")) return files;
  std::string lines;
  for (const std::string* token : by_id) lines.append(*token).push_back('\n');
  TokenizerFiles compact = files;
  compact.vocab_txt = std::move(lines);
  compact.tokenizer_json = file.rest.dump();
  return compact;
}

}  // namespace bertkit::tok
