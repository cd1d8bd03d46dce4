#include "tokenizer/tokenizer_json_pieces.h"

#include "core/error.h"
#include "tokenizer/json_fields.h"

#include <vector>

namespace bertkit::tok {

namespace {

using nlohmann::json;

[[noreturn]] void unsupported(const char* field, const std::string& type, const std::string& where) {
  if (type.empty()) bad_input("{}: the {} has no type", where, field);
  bad_input("{}: {} type \"{}\" is not supported yet", where, field, type);
}

std::string type_of(const json& piece, const std::string& where) { return get_or<std::string>(piece, "type", "", where); }

// The pieces of a Sequence (the list under `list_key`), nested sequences flattened; any other piece
// stands for itself.
void flatten(const json& piece, const char* list_key, const std::string& where, std::vector<const json*>& out) {
  if (type_of(piece, where) != "Sequence") {
    out.push_back(&piece);
    return;
  }
  if (!piece.contains(list_key) || !piece[list_key].is_array())
    bad_input("{}: a Sequence without its '{}' list", where, list_key);
  for (const json& p : piece[list_key]) flatten(p, list_key, where, out);
}

// The one piece a field stands for: Sequences of one piece are common, longer ones need a runner bertkit
// has only for normalisers.
const json& single_piece(const json& piece, const char* field, const char* list_key, const std::string& where) {
  std::vector<const json*> pieces;
  flatten(piece, list_key, where, pieces);
  if (pieces.size() != 1) bad_input("{}: a {} Sequence of {} pieces is not supported yet", where, field, pieces.size());
  return *pieces.front();
}

NormalizerOptions bert_normalizer_options(const json& n, const std::string& where) {
  NormalizerOptions o;
  o.clean_text = get_or<bool>(n, "clean_text", true, where);
  o.handle_chinese_chars = get_or<bool>(n, "handle_chinese_chars", true, where);
  o.lowercase = get_or<bool>(n, "lowercase", true, where);
  if (n.contains("strip_accents") && !n["strip_accents"].is_null())
    o.strip_accents = get_or<bool>(n, "strip_accents", false, where);
  return o;
}

PrecompiledSpec read_precompiled(const json& n, const std::string& where) {
  const std::string charsmap = get_or<std::string>(n, "precompiled_charsmap", "", where);
  return {std::make_shared<const PrecompiledCharsmap>(PrecompiledCharsmap::from_base64(charsmap, where))};
}

ReplaceSpec read_replace(const json& n, const std::string& where) {
  const json& pattern = n.value("pattern", json());
  const bool regex = pattern.is_object() && pattern.contains("Regex");
  if (!pattern.is_object() || !(regex || pattern.contains("String")))
    bad_input("{}: Replace normalizer's pattern is neither {{\"String\": ...}} nor {{\"Regex\": ...}}", where);
  return read_replace_pattern(regex, get_or<std::string>(pattern, regex ? "Regex" : "String", "", where),
                              get_or<std::string>(n, "content", "", where), where);
}

// Metaspace's options, the pre-tokenizer's and the decoder's: prepend_scheme, or the older
// add_prefix_space (false is "never").
MetaspaceSpec read_metaspace(const json& m, const std::string& where) {
  MetaspaceSpec spec;
  const std::string replacement = get_or<std::string>(m, "replacement", "\u2581", where);
  std::size_t i = 0;
  if (replacement.empty() || valid_utf8_prefix(replacement) != replacement.size() ||
      (next_code_point(replacement, i), i != replacement.size()))
    bad_input("{}: Metaspace replacement '{}' is not one character", where, replacement);
  i = 0;
  spec.replacement = next_code_point(replacement, i);
  const std::string scheme = get_or<std::string>(m, "prepend_scheme", "", where);
  if (scheme == "first") spec.prepend_scheme = PrependScheme::First;
  else if (scheme == "never") spec.prepend_scheme = PrependScheme::Never;
  else if (scheme == "always" || scheme.empty()) spec.prepend_scheme = PrependScheme::Always;
  else bad_input("{}: Metaspace prepend_scheme '{}' is not first, always or never", where, scheme);
  if (scheme.empty() && !get_or<bool>(m, "add_prefix_space", true, where)) spec.prepend_scheme = PrependScheme::Never;
  spec.split = get_or<bool>(m, "split", true, where);
  return spec;
}

void read_normalizer(const json& n, TokenizerSpec& spec, const std::string& where) {
  spec.normalizer.clear();
  if (n.is_null()) {
    // A BertNormalizer with every step off changes nothing, and tokenizer_config.json can still turn
    // its steps on, as transformers' BERT tokenizers do.
    spec.normalizer.push_back(NormalizerOptions{false, false, false, false});
    return;
  }
  std::vector<const json*> steps;
  flatten(n, "normalizers", where, steps);
  for (const json* step : steps) {
    const std::string type = type_of(*step, where);
    if (type == "BertNormalizer")
      spec.normalizer.push_back(bert_normalizer_options(*step, where));
    else if (type == "Lowercase")
      spec.normalizer.push_back(LowercaseSpec{});
    else if (type == "Precompiled")
      spec.normalizer.push_back(read_precompiled(*step, where));
    else if (type == "Replace")
      spec.normalizer.push_back(read_replace(*step, where));
    else if (type == "Strip")
      spec.normalizer.push_back(StripSpec{get_or<bool>(*step, "strip_left", true, where), get_or<bool>(*step, "strip_right", true, where)});
    else if (type == "NFC")
      spec.normalizer.push_back(UnicodeForm::Nfc);
    else if (type == "NFD")
      spec.normalizer.push_back(UnicodeForm::Nfd);
    else if (type == "NFKC")
      spec.normalizer.push_back(UnicodeForm::Nfkc);
    else if (type == "NFKD")
      spec.normalizer.push_back(UnicodeForm::Nfkd);
    else if (type == "StripAccents")
      spec.normalizer.push_back(StripAccentsSpec{});
    else
      unsupported("normalizer", type, where);
  }
}

ByteLevelOptions byte_level_options(const json& piece, const std::string& where) {
  ByteLevelOptions o;
  o.add_prefix_space = get_or<bool>(piece, "add_prefix_space", true, where);
  o.trim_offsets = get_or<bool>(piece, "trim_offsets", true, where);
  o.use_regex = get_or<bool>(piece, "use_regex", true, where);
  return o;
}

// A Punctuation pre-tokenizer's "behavior" (Isolated when absent).
SplitBehavior read_split_behavior(const json& piece, const std::string& where) {
  const std::string name = get_or<std::string>(piece, "behavior", "Isolated", where);
  if (name == "Removed") return SplitBehavior::Removed;
  if (name == "Isolated") return SplitBehavior::Isolated;
  if (name == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::MergedWithNext;
  if (name == "Contiguous") return SplitBehavior::Contiguous;
  bad_input("{}: the Punctuation pre-tokenizer's behavior \"{}\" is not one of Removed, Isolated, MergedWithPrevious, "
            "MergedWithNext, Contiguous", where, name);
}

void read_pre_tokenizer(const json& pre, TokenizerSpec& spec, const std::string& where) {
  // None at all keeps BERT's, as bertkit always did.
  if (pre.is_null()) return;
  std::vector<const json*> pieces;
  flatten(pre, "pretokenizers", where, pieces);
  // T5's and some SentencePiece conversions' [WhitespaceSplit, Metaspace]: Metaspace behind a whitespace split.
  if (pieces.size() == 2 && type_of(*pieces[0], where) == "WhitespaceSplit" && type_of(*pieces[1], where) == "Metaspace") {
    MetaspaceSpec metaspace = read_metaspace(*pieces[1], where);
    metaspace.whitespace_split = true;
    spec.pre_tokenizer = metaspace;
    return;
  }
  // Pre-tokenizers that only split, in any number: BERT's alone keeps its own fast class.
  SplitSequenceSpec split;
  for (const json* p : pieces) {
    const std::string type = type_of(*p, where);
    if (type == "BertPreTokenizer") split.steps.emplace_back(BertPreTokenizerSpec{});
    else if (type == "WhitespaceSplit") split.steps.emplace_back(WhitespaceSplitSpec{});
    else if (type == "Whitespace") split.steps.emplace_back(WhitespaceSpec{});
    else if (type == "Punctuation") split.steps.emplace_back(PunctuationSpec{read_split_behavior(*p, where)});
    else if (type == "Digits") split.steps.emplace_back(DigitsSpec{get_or<bool>(*p, "individual_digits", false, where)});
    else break;
  }
  if (split.steps.size() == pieces.size() && !pieces.empty()) {
    if (split.steps.size() == 1 && std::holds_alternative<BertPreTokenizerSpec>(split.steps.front()))
      spec.pre_tokenizer = BertPreTokenizerSpec{};
    else
      spec.pre_tokenizer = std::move(split);
    return;
  }
  const json& piece = single_piece(pre, "pre_tokenizer", "pretokenizers", where);
  const std::string type = type_of(piece, where);
  if (type == "ByteLevel") {
    spec.pre_tokenizer = byte_level_options(piece, where);
    return;
  }
  if (type == "Metaspace") {
    spec.pre_tokenizer = read_metaspace(piece, where);
    return;
  }
  if (type != "BertPreTokenizer") unsupported("pre_tokenizer", type, where);
  spec.pre_tokenizer = BertPreTokenizerSpec{};
}

std::vector<TemplatePiece> read_template(const json& pieces, const json& special_tokens, const Vocab& vocab,
                                         const std::string& where) {
  std::vector<TemplatePiece> out;
  if (!pieces.is_array()) bad_input("{}: post_processor template is not a list", where);
  for (const json& p : pieces) {
    TemplatePiece piece;
    if (p.contains("Sequence")) {
      piece.is_sequence = true;
      piece.sequence = get_or<std::string>(p["Sequence"], "id", "A", where) == "B" ? 1 : 0;
      piece.type_id = get_or<std::int32_t>(p["Sequence"], "type_id", 0, where);
    } else if (p.contains("SpecialToken")) {
      std::string name = get_or<std::string>(p["SpecialToken"], "id", "", where);
      piece.type_id = get_or<std::int32_t>(p["SpecialToken"], "type_id", 0, where);
      if (special_tokens.is_object() && special_tokens.contains(name)) {
        for (const json& id : special_tokens[name].value("ids", json::array())) piece.special_ids.push_back(id.get<std::int32_t>());
      } else if (auto id = vocab.find(name)) {
        piece.special_ids.push_back(*id);
      } else {
        bad_input("{}: template special token '{}' is unknown", where, name);
      }
    } else {
      bad_input("{}: unknown template piece {}", where, p.dump());
    }
    out.push_back(std::move(piece));
  }
  return out;
}

// BertProcessing's and RobertaProcessing's [token, id] pairs; the token becomes the special token of
// that role.
std::int32_t special_pair(const json& post, const char* key, const char* type, std::string& token,
                          const std::string& where) {
  const json& v = post.value(key, json());
  if (!v.is_array() || v.size() != 2) bad_input("{}: {}.{} must be [token, id]", where, type, key);
  token = v[0].get<std::string>();
  return v[1].get<std::int32_t>();
}

void read_post_processor(const json& post_field, TokenizerSpec& spec, const std::string& where) {
  if (post_field.is_null()) {
    spec.post_processor = PostProcessor({{true, 0, {}, 0}}, {{true, 0, {}, 0}, {true, 1, {}, 1}});
    return;
  }
  const json& post = single_piece(post_field, "post_processor", "processors", where);
  const std::string type = type_of(post, where);
  if (type == "TemplateProcessing") {
    const json& specials = post.value("special_tokens", json::object());
    spec.post_processor = PostProcessor(read_template(post.value("single", json()), specials, *spec.vocab, where),
                                        read_template(post.value("pair", json()), specials, *spec.vocab, where));
  } else if (type == "BertProcessing") {
    const std::int32_t cls = special_pair(post, "cls", "BertProcessing", spec.special.cls, where);
    const std::int32_t sep = special_pair(post, "sep", "BertProcessing", spec.special.sep, where);
    spec.post_processor = PostProcessor::bert(cls, sep);
  } else if (type == "RobertaProcessing") {
    const std::int32_t cls = special_pair(post, "cls", "RobertaProcessing", spec.special.cls, where);
    const std::int32_t sep = special_pair(post, "sep", "RobertaProcessing", spec.special.sep, where);
    std::optional<OffsetTrimming> trimming;
    if (get_or<bool>(post, "trim_offsets", true, where))
      trimming = OffsetTrimming{get_or<bool>(post, "add_prefix_space", true, where)};
    spec.post_processor = PostProcessor::roberta(cls, sep, trimming);
  } else if (type == "ByteLevel") {
    // No special tokens; its trim_offsets as RobertaProcessing's.
    spec.post_processor = PostProcessor({{true, 0, {}, 0}}, {{true, 0, {}, 0}, {true, 1, {}, 1}});
    if (get_or<bool>(post, "trim_offsets", true, where))
      spec.post_processor->set_trimming(OffsetTrimming{get_or<bool>(post, "add_prefix_space", true, where)});
  } else {
    unsupported("post_processor", type, where);
  }
}

void read_decoder(const json& dec_field, TokenizerSpec& spec, const std::string& where) {
  if (dec_field.is_null()) return;
  const json& dec = single_piece(dec_field, "decoder", "decoders", where);
  const std::string type = type_of(dec, where);
  if (type == "ByteLevel") {
    spec.decoder = ByteLevelDecoderOptions{};
    return;
  }
  if (type == "Metaspace") {
    spec.decoder = MetaspaceDecoderSpec{read_metaspace(dec, where)};
    return;
  }
  if (!type.empty() && type != "WordPiece") unsupported("decoder", type, where);
  DecoderOptions options = std::get<DecoderOptions>(spec.decoder);
  options.prefix = get_or<std::string>(dec, "prefix", "##", where);
  options.cleanup = get_or<bool>(dec, "cleanup", true, where);
  spec.decoder = options;
}

// A merge: "a b" (the older form) or ["a", "b"].
std::pair<std::string, std::string> read_merge(const json& m, std::size_t rank, const std::string& where) {
  if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string())
    return {m[0].get<std::string>(), m[1].get<std::string>()};
  if (m.is_string()) {
    const std::string& s = m.get_ref<const std::string&>();
    const std::size_t space = s.find(' ');
    if (space != std::string::npos && s.find(' ', space + 1) == std::string::npos)
      return {s.substr(0, space), s.substr(space + 1)};
  }
  bad_input("{}: BPE merge {} is not \"a b\" or [\"a\", \"b\"]", where, rank + 1);
}

BpeOptions read_bpe_options(const json& model, const std::string& where) {
  // The fields RoBERTa-family files use; the others change the tokens and are refused by name.
  if (model.contains("dropout") && !model["dropout"].is_null() && get_or<double>(model, "dropout", 0, where) != 0)
    bad_input("{}: the BPE model's dropout is not supported", where);
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (!get_or<std::string>(model, key, "", where).empty())
      bad_input("{}: the BPE model's {} is not supported yet", where, key);
  if (get_or<bool>(model, "byte_fallback", false, where))
    bad_input("{}: the BPE model's byte_fallback (Gemma's tokenizer, as mmBERT has) is not supported yet", where);
  BpeOptions o;
  if (model.contains("unk_token") && !model["unk_token"].is_null())
    o.unk_token = get_or<std::string>(model, "unk_token", "", where);
  o.fuse_unk = get_or<bool>(model, "fuse_unk", false, where);
  o.ignore_merges = get_or<bool>(model, "ignore_merges", false, where);
  const json& merges = model.value("merges", json::array());
  if (!merges.is_array()) bad_input("{}: the BPE model's merges are not a list", where);
  auto list = std::make_shared<BpeMerges>();
  list->reserve(merges.size());
  for (const json& m : merges) list->push_back(read_merge(m, list->size(), where));
  o.merges = std::move(list);
  return o;
}

}  // namespace

ModelSpec read_model_spec(const json& model, const std::string& where) {
  std::string type = type_of(model, where);
  // Files written before models were tagged with their type: BPE has merges, WordPiece a prefix.
  if (type.empty() && model.contains("merges")) type = "BPE";
  if (type.empty() && model.contains("continuing_subword_prefix")) type = "WordPiece";
  if (type == "BPE") return read_bpe_options(model, where);
  if (type.empty() && model.contains("unk_id")) type = "Unigram";
  if (type == "Unigram") {
    UnigramSpec u;
    const json& unk = model.value("unk_id", json());
    if (!unk.is_null() && (!unk.is_number_integer() || unk.get<std::int64_t>() < 0 || unk.get<std::int64_t>() > INT32_MAX))
      bad_input("{}: the Unigram model's unk_id is not an id", where);
    if (!unk.is_null()) u.unk_id = unk.get<std::int32_t>();
    u.byte_fallback = get_or<bool>(model, "byte_fallback", false, where);
    return u;
  }
  if (type != "WordPiece") unsupported("model", type, where);
  WordPieceOptions o;
  o.unk_token = get_or<std::string>(model, "unk_token", "[UNK]", where);
  o.continuing_subword_prefix = get_or<std::string>(model, "continuing_subword_prefix", "##", where);
  o.max_input_chars_per_word = get_or<std::size_t>(model, "max_input_chars_per_word", 100, where);
  return o;
}

std::shared_ptr<Vocab> read_unigram_vocab(std::optional<std::vector<std::pair<std::string, double>>> vocab,
                                          UnigramSpec& spec, const std::string& where) {
  if (!vocab || vocab->empty()) bad_input("{}: the Unigram model has no vocab list", where);
  std::vector<std::pair<std::string, std::int64_t>> pieces;
  auto scores = std::make_shared<std::vector<double>>();
  pieces.reserve(vocab->size());
  scores->reserve(vocab->size());
  for (auto& [piece, score] : *vocab) {
    pieces.emplace_back(std::move(piece), static_cast<std::int64_t>(pieces.size()));
    scores->push_back(score);
  }
  // Checked here, naming the file: the loader names the unknown token by it before the model is built.
  if (spec.unk_id >= 0 && static_cast<std::size_t>(spec.unk_id) >= pieces.size())
    bad_input("{}: the Unigram model's unk_id {} is outside its {} pieces", where, spec.unk_id, pieces.size());
  spec.scores = std::move(scores);
  return std::make_shared<Vocab>(Vocab::from_pairs(std::move(pieces), where));
}

void read_pipeline_pieces(const json& file, TokenizerSpec& spec, const std::string& where) {
  read_normalizer(file.value("normalizer", json()), spec, where);
  read_pre_tokenizer(file.value("pre_tokenizer", json()), spec, where);
  read_post_processor(file.value("post_processor", json()), spec, where);
  read_decoder(file.value("decoder", json()), spec, where);
}

}  // namespace bertkit::tok
