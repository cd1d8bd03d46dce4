#include "tokenizer/sentencepiece_spec.h"

#include "core/error.h"
#include "core/json.h"
#include "tokenizer/json_fields.h"
#include "tokenizer/sentencepiece_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace bertkit::tok {

namespace {


// The pieces as the vocabulary (ids in file order), their scores and types.
std::shared_ptr<const Vocab> read_pieces(const SentencePieceModel& m, const std::string& where, UnigramSpec& unigram) {
  std::vector<std::pair<std::string, std::int64_t>> entries;
  auto scores = std::make_shared<std::vector<double>>();
  auto types = std::make_shared<std::vector<PieceType>>();
  entries.reserve(m.pieces.size());
  for (const SentencePieceEntry& p : m.pieces) {
    entries.emplace_back(std::string(p.piece), static_cast<std::int64_t>(entries.size()));
    scores->push_back(p.score);
    types->push_back(p.type);
  }
  // Vocab refuses a piece given twice, as sentencepiece does.
  auto vocab = std::make_shared<const Vocab>(Vocab::from_pairs(std::move(entries), where));
  unigram.unk_id = m.unk_id;
  unigram.byte_fallback = m.byte_fallback;
  unigram.scores = std::move(scores);
  unigram.types = std::move(types);
  return vocab;
}

// User-defined pieces pass the normaliser as they are.
std::shared_ptr<const PrefixTrie> user_defined_trie(const SentencePieceModel& m) {
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  for (std::size_t id = 0; id < m.pieces.size(); ++id)
    if (m.pieces[id].type == PieceType::UserDefined) entries.emplace_back(m.pieces[id].piece, static_cast<std::int32_t>(id));
  if (entries.empty()) return nullptr;
  auto trie = std::make_shared<PrefixTrie>();
  trie->build(entries);
  return trie;
}

// Words may be cut before each "▁" when no piece holds one after its start (a model trained with
// split_by_whitespace, as nearly all are): each word is then encoded on its own, with the same pieces.
bool pieces_split_at_spaces(const SentencePieceModel& m) {
  return std::none_of(m.pieces.begin(), m.pieces.end(),
                      [](const SentencePieceEntry& p) { return p.piece.find(kSentencePieceSpace, 1) != std::string_view::npos; });
}

// The added token as a slow tokenizer matches it: in the raw text, on its own.
void as_slow_added_token(AddedToken& t) {
  t.normalized = false;
  t.lstrip = t.rstrip = t.single_word = false;
}

void read_added_tokens_json(const std::string& text, const std::string& where, TokenizerSpec& spec) {
  const nlohmann::json j = core::parse_json(text, where);
  if (!j.is_object()) bad_input("{}: not a JSON object of tokens and ids", where);
  std::vector<std::pair<std::int64_t, std::string>> by_id;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer()) bad_input("{}: token '{}' has no integer id", where, it.key());
    by_id.emplace_back(it.value().get<std::int64_t>(), it.key());
  }
  std::sort(by_id.begin(), by_id.end());
  for (const auto& [id, content] : by_id) {
    if (spec.vocab->find(content)) continue;  // transformers adds only what the vocabulary lacks
    if (auto known = spec.find_token(content); known && *known == id) continue;
    // transformers 4.33 refuses such a file ("Non-consecutive added token").
    if (id != spec.next_added_id())
      bad_input("{}: added token '{}' has id {}, but the next id after the vocabulary and the tokens added before it "
                "is {}",
                where, content, id, spec.next_added_id());
    spec.added_tokens.push_back(AddedToken{content, static_cast<std::int32_t>(id), true, false, false, false, false});
  }
}

void refuse_unsupported_options(const core::TokenizerFiles& files) {
  if (!files.tokenizer_config_json) return;
  const std::string where = files.origin + "/tokenizer_config.json";
  const nlohmann::json cfg = core::parse_json(*files.tokenizer_config_json, where);
  if (!cfg.is_object()) bad_input("{}: not a JSON object", where);
  for (const char* option : {"do_lower_case", "split_by_punct"})
    if (get_or<bool>(cfg, option, false, where))
      bad_input("{}: {} true is not supported for a SentencePiece tokenizer", where, option);
}

}  // namespace

void read_sentencepiece_tokenizer(std::string_view bytes, const std::string& where, TokenizerSpec& spec) {
  const SentencePieceModel m = read_sentencepiece_model(bytes, where);
  if (m.model_type != SentencePieceModelType::Unigram)
    bad_input("{}: a SentencePiece {} model is not supported (only Unigram)", where,
              sentencepiece_model_type_name(m.model_type));
  if (m.treat_whitespace_as_suffix) bad_input("{}: treat_whitespace_as_suffix is not supported", where);
  if (!m.normalizer.escape_whitespaces) bad_input("{}: a model that does not escape white space is not supported", where);
  UnigramSpec unigram;
  spec.vocab = read_pieces(m, where, unigram);
  SentencePieceRules rules;
  if (!m.normalizer.precompiled_charsmap.empty())
    rules.charsmap = std::make_shared<const PrecompiledCharsmap>(PrecompiledCharsmap::from_bytes(m.normalizer.precompiled_charsmap, where));
  rules.user_defined = user_defined_trie(m);
  rules.add_dummy_prefix = m.normalizer.add_dummy_prefix;
  rules.remove_extra_whitespaces = m.normalizer.remove_extra_whitespaces;
  spec.normalizer = {rules};
  spec.pre_tokenizer = MetaspaceSpec{U'\u2581', PrependScheme::Never, pieces_split_at_spaces(m), false};
  SentencePieceDecoderSpec decoder;
  decoder.vocab = spec.vocab;
  decoder.types = unigram.types;
  decoder.add_dummy_prefix = rules.add_dummy_prefix;
  decoder.remove_extra_whitespaces = rules.remove_extra_whitespaces;
  spec.decoder = std::move(decoder);
  spec.model = std::move(unigram);
  // DebertaV2Tokenizer's special tokens, and the unknown piece the model names.
  spec.special = SpecialTokens{std::string(m.pieces[static_cast<std::size_t>(m.unk_id)].piece), "[CLS]", "[SEP]", "[PAD]",
                               "[MASK]"};
  spec.profile = UnicodeProfile::Python;
}

void finish_sentencepiece_tokenizer(const core::TokenizerFiles& files, TokenizerSpec& spec) {
  refuse_unsupported_options(files);
  if (files.added_tokens_json) read_added_tokens_json(*files.added_tokens_json, files.origin + "/added_tokens.json", spec);
  // transformers adds the special tokens the vocabulary lacks after it, in its attribute order (bos =
  // [CLS] and eos = [SEP] first): DeBERTa-v3's [MASK] becomes 128000 though no file names it.
  for (const std::string* name : {&spec.special.cls, &spec.special.sep, &spec.special.unk, &spec.special.pad,
                                  &spec.special.mask})
    if (!spec.find_token(*name))
      spec.added_tokens.push_back(AddedToken{*name, spec.next_added_id(), true, false, false, false, false});
  auto& decoder = std::get<SentencePieceDecoderSpec>(spec.decoder);
  for (AddedToken& t : spec.added_tokens) {
    as_slow_added_token(t);
    if (static_cast<std::size_t>(t.id) >= spec.vocab->size()) decoder.added.push_back(t.content);
    if (t.special) decoder.special.push_back(t.content);
  }
  for (const std::string* name : {&spec.special.unk, &spec.special.sep, &spec.special.pad, &spec.special.cls,
                                  &spec.special.mask})
    if (std::find(decoder.special.begin(), decoder.special.end(), *name) == decoder.special.end())
      decoder.special.push_back(*name);
}

}  // namespace bertkit::tok
