// Loading tokenizers: vocab.txt (split on '\n' only, clear errors when empty, duplicated or without
// [UNK]), tokenizer.json (BERT's WordPiece subset; other kinds named in the error), and the settings of
// tokenizer_config.json (old layout and added_tokens_decoder) and special_tokens_map.json on top.
#include "tokenizer_test_helpers.h"

#include "core/error.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using bertkit::tok::TokenizerFiles;
using bertkit::tok::Tokenizer;
using bertkit::tok::Vocab;
using nlohmann::json;

namespace {

const std::vector<std::string> kSmall = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "[unused0]", "caf\xC3\xA9", "cafe"};

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::unique_ptr<Tokenizer> load(const TokenizerFiles& files) {
  return std::make_unique<Tokenizer>(bertkit::tok::build_tokenizer_spec(files));
}

std::unique_ptr<Tokenizer> load(const std::filesystem::path& path) { return load(bertkit::tok::read_tokenizer_files(path)); }

// A minimal tokenizer.json over kSmall in the layout of ../shared/vocab/*/tokenizer.json.
json tokenizer_json(bool lowercase = true) {
  json vocab = json::object();
  for (std::size_t i = 0; i < kSmall.size(); ++i) vocab[kSmall[i]] = i;
  json added = json::array();
  for (int id : {0, 1, 2, 3, 4})
    added.push_back({{"id", id}, {"content", kSmall[static_cast<std::size_t>(id)]}, {"single_word", false}, {"lstrip", false},
                     {"rstrip", false}, {"normalized", false}, {"special", true}});
  json seq_a = {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}, seq_b = {{"Sequence", {{"id", "B"}, {"type_id", 1}}}};
  json cls = {{"SpecialToken", {{"id", "[CLS]"}, {"type_id", 0}}}}, sep0 = {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 0}}}},
       sep1 = {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 1}}}};
  return {{"version", "1.0"},
          {"truncation", nullptr},
          {"padding", nullptr},
          {"added_tokens", added},
          {"normalizer",
           {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true}, {"strip_accents", nullptr}, {"lowercase", lowercase}}},
          {"pre_tokenizer", {{"type", "BertPreTokenizer"}}},
          {"post_processor",
           {{"type", "TemplateProcessing"},
            {"single", {cls, seq_a, sep0}},
            {"pair", {cls, seq_a, sep0, seq_b, sep1}},
            {"special_tokens", {{"[CLS]", {{"id", "[CLS]"}, {"ids", {2}}, {"tokens", {"[CLS]"}}}}, {"[SEP]", {{"id", "[SEP]"}, {"ids", {3}}, {"tokens", {"[SEP]"}}}}}}}},
          {"decoder", {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}}},
          {"model", {{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"continuing_subword_prefix", "##"}, {"max_input_chars_per_word", 100}, {"vocab", vocab}}}};
}

std::string encode_tokens(const Tokenizer& tok, std::string_view text, std::optional<std::string_view> pair = std::nullopt) {
  return bktest::tokens_str(tok.encode(text, pair, {}), tok);
}

}  // namespace

TEST_CASE("vocab.txt: one token per '\\n'-terminated line, nothing else splits") {
  // U+2028 and '\r' are part of tokens; a final line without '\n' counts; a UTF-8 BOM is skipped.
  Vocab v = Vocab::from_text("\xEF\xBB\xBF[UNK]\nx\xE2\x80\xA8y\nz\r\nlast", "v.txt");
  REQUIRE(v.size() == 4);
  CHECK(v.token(0) == "[UNK]");
  CHECK(v.find("x\xE2\x80\xA8y") == 1);
  CHECK(v.find("z\r") == 2);
  CHECK(v.find("last") == 3);
  CHECK_FALSE(v.find("x").has_value());
}

TEST_CASE("vocab.txt: bert-base-chinese has a U+2028 token and one id per '\\n'") {
  std::string text = bktest::read_file(bktest::shared("vocab/bert-base-chinese/vocab.txt"));
  Vocab v = Vocab::from_text(text, "vocab.txt");
  auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  CHECK(v.size() == lines + (text.empty() || text.back() == '\n' ? 0 : 1));
  auto id = v.find("\xE2\x80\xA8");
  REQUIRE(id);
  CHECK(v.token(*id) == "\xE2\x80\xA8");
  // The line of the token in the file is its id + 1.
  std::size_t line = 1, pos = 0;
  while (line <= static_cast<std::size_t>(*id)) pos = text.find('\n', pos) + 1, ++line;
  CHECK(text.compare(pos, 4, "\xE2\x80\xA8\n") == 0);
  // The same id in its tokenizer.json.
  const auto& tok = bktest::shared_tokenizer("bert-base-chinese");
  CHECK(tok.token_id("\xE2\x80\xA8") == id);
}

TEST_CASE("vocab.txt: empty, duplicated tokens and a missing [UNK] are clear errors") {
  CHECK_THROWS_WITH_AS(Vocab::from_text("", "/m/vocab.txt"), doctest::Contains("/m/vocab.txt: the vocabulary is empty"), bertkit::Error);
  CHECK_THROWS_WITH_AS(Vocab::from_text("[UNK]\na\nb\na\n", "/m/vocab.txt"),
                       doctest::Contains("/m/vocab.txt:4: duplicate token 'a' (first on line 2)"), bertkit::Error);
  // The line (vocab.txt) or id (tokenizer.json) of a token that is not valid UTF-8; a BOM is on line 1.
  CHECK_THROWS_WITH_AS(Vocab::from_text("\xEF\xBB\xBF[UNK]\nok\nbad\xC3\nfine\n", "/m/vocab.txt"),
                       doctest::Contains("/m/vocab.txt:3: token is not valid UTF-8"), bertkit::Error);
  CHECK_THROWS_WITH_AS(Vocab::from_text("[UNK]\n\xE2\x80", "/m/vocab.txt"),
                       doctest::Contains("/m/vocab.txt:2: token is not valid UTF-8"), bertkit::Error);
  CHECK_THROWS_WITH_AS(Vocab::from_pairs({{"[UNK]", 0}, {"caf\xC3", 2}, {"x", 1}}, "/m/tokenizer.json"),
                       doctest::Contains("/m/tokenizer.json:2: token is not valid UTF-8"), bertkit::Error);
  TokenizerFiles files;
  files.vocab_txt = "[CLS]\n[SEP]\nhello\n";
  files.origin = "/m/vocab.txt";
  CHECK_THROWS_WITH_AS(load(files), doctest::Contains("'[UNK]' is not in the vocabulary"), bertkit::Error);
  files.vocab_txt = "[UNK]\n[SEP]\nhello\n";
  CHECK_THROWS_WITH_AS(load(files), doctest::Contains("'[CLS]' is not in the vocabulary"), bertkit::Error);
  try {
    Vocab::from_text("", "x");
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::BadInput);
  }
}

TEST_CASE("vocab.txt alone: BERT defaults, lower-casing, [CLS]/[SEP] template, special tokens kept whole") {
  TokenizerFiles files;
  files.vocab_txt = bktest::vocab_text(kSmall);
  files.origin = "vocab.txt";
  auto tok = load(files);
  CHECK(encode_tokens(*tok, "Hello [MASK] worlds [mask]") == "[CLS] hello [MASK] world ##s [UNK] [UNK] [UNK] [SEP]");
  CHECK(encode_tokens(*tok, "hello", std::string_view("world")) == "[CLS] hello [SEP] world [SEP]");
  CHECK(tok->pad_id() == 0);
  CHECK(tok->mask_id() == 4);
  CHECK(tok->is_special_id(2));
  CHECK_FALSE(tok->is_special_id(5));
}

TEST_CASE("tokenizer.json: BERT's WordPiece subset") {
  bktest::TempDir dir;
  write_text(dir / "tokenizer.json", tokenizer_json().dump());
  auto tok = load(dir / "tokenizer.json");
  CHECK(encode_tokens(*tok, "HELLO Caf\xC3\xA9 worlds") == "[CLS] hello cafe world ##s [SEP]");
  CHECK(tok->spec().model_max_length == std::nullopt);

  // lowercase false: accents are kept too (strip_accents follows lowercase).
  write_text(dir / "tokenizer.json", tokenizer_json(false).dump());
  tok = load(dir / "tokenizer.json");
  CHECK(encode_tokens(*tok, "hello caf\xC3\xA9 Hello") == "[CLS] hello caf\xC3\xA9 [UNK] [SEP]");

  // A template of another shape is followed as written.
  json j = tokenizer_json();
  j["post_processor"]["pair"] = json::array({j["post_processor"]["pair"][0], j["post_processor"]["pair"][1],
                                             j["post_processor"]["pair"][2], j["post_processor"]["pair"][2],
                                             {{"Sequence", {{"id", "B"}, {"type_id", 0}}}}, j["post_processor"]["pair"][2]});
  write_text(dir / "tokenizer.json", j.dump());
  tok = load(dir / "tokenizer.json");
  auto e = tok->encode("hello", std::string_view("world"), {});
  CHECK(bktest::tokens_str(e, *tok) == "[CLS] hello [SEP] [SEP] world [SEP]");
  CHECK(bktest::join(e.type_ids) == "0 0 0 0 0 0");
}

TEST_CASE("tokenizer.json: another kind of model is named in the error") {
  bktest::TempDir dir;
  json bpe = {{"model", {{"type", "BPE"}, {"vocab", {{"a", 0}}}, {"merges", json::array()}}}};
  write_text(dir / "tokenizer.json", bpe.dump());
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("BPE"), bertkit::Error);
  json word_level = {{"model", {{"type", "WordLevel"}, {"vocab", {{"a", 0}}}}}};
  write_text(dir / "tokenizer.json", word_level.dump());
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("WordLevel"), bertkit::Error);
  json j = tokenizer_json();
  j["pre_tokenizer"] = {{"type", "ByteLevel"}};
  write_text(dir / "tokenizer.json", j.dump());
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("ByteLevel"), bertkit::Error);
  write_text(dir / "tokenizer.json", "{\"model\": ");
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("invalid JSON"), bertkit::Error);
  write_text(dir / "tokenizer.json", "{\"model\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("nested deeper than 64 levels"), bertkit::Error);
  j = tokenizer_json();
  j["model"]["vocab"]["hello"] = 1;  // the id of [UNK] as well
  write_text(dir / "tokenizer.json", j.dump());
  CHECK_THROWS_WITH_AS(load(dir / "tokenizer.json"), doctest::Contains("id 1 is given to both"), bertkit::Error);
}

TEST_CASE("folders: what is there, 0_Transformer, and clear errors for what is not") {
  bktest::TempDir dir;
  CHECK_THROWS_WITH_AS(bertkit::tok::read_tokenizer_files(dir.path()), doctest::Contains("no tokenizer.json, vocab.txt, spm.model, or vocab.json with merges.txt"), bertkit::Error);
  CHECK_THROWS_WITH_AS(bertkit::tok::read_tokenizer_files(dir / "missing.json"), doctest::Contains("no such file"), bertkit::Error);
  std::filesystem::create_directory(dir / "0_Transformer");
  write_text(dir / "0_Transformer" / "vocab.txt", bktest::vocab_text(kSmall));
  auto tok = load(dir.path());
  CHECK(encode_tokens(*tok, "hello") == "[CLS] hello [SEP]");
}

TEST_CASE("tokenizer_config.json (old layout) and special_tokens_map.json override tokenizer.json") {
  bktest::TempDir dir;
  write_text(dir / "tokenizer.json", tokenizer_json(true).dump());
  // transformers rebuilds the normaliser from do_lower_case / strip_accents / tokenize_chinese_chars.
  write_text(dir / "tokenizer_config.json",
        R"({"do_lower_case": false, "strip_accents": null, "model_max_length": 7, "tokenizer_class": "BertTokenizer",
            "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "mask_token": "[MASK]",
            "clean_up_tokenization_spaces": false})");
  auto tok = load(dir.path());
  CHECK(encode_tokens(*tok, "hello Hello caf\xC3\xA9") == "[CLS] hello [UNK] caf\xC3\xA9 [SEP]");
  CHECK(tok->spec().model_max_length == 7);
  CHECK_FALSE(std::get<bertkit::tok::DecoderOptions>(tok->spec().decoder).clean_up_tokenization_spaces);
  // A sentinel of "no limit" is not a limit.
  write_text(dir / "tokenizer_config.json", R"({"do_lower_case": true, "model_max_length": 1000000000000000019884624838656})");
  tok = load(dir.path());
  CHECK(tok->spec().model_max_length == std::nullopt);
  CHECK(std::get<bertkit::tok::DecoderOptions>(tok->spec().decoder).clean_up_tokenization_spaces);

  // special_tokens_map.json: tokens as strings or AddedToken dicts; additional ones kept whole.
  write_text(dir / "special_tokens_map.json",
        R"({"mask_token": {"content": "[MASK]", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false},
            "additional_special_tokens": ["[unused0]"]})");
  tok = load(dir.path());
  CHECK(encode_tokens(*tok, "hello[unused0]world") == "[CLS] hello [unused0] world [SEP]");
  CHECK(tok->is_special_id(8));
  CHECK(tok->decode(std::vector<std::int32_t>{2, 5, 8, 6, 3}, true) == "hello world");
  write_text(dir / "special_tokens_map.json", R"({"additional_special_tokens": ["[not-there]"]})");
  CHECK_THROWS_WITH_AS(load(dir.path()), doctest::Contains("[not-there]"), bertkit::Error);
}

TEST_CASE("tokenizer_config.json (transformers >= 4.34): added_tokens_decoder") {
  bktest::TempDir dir;
  write_text(dir / "vocab.txt", bktest::vocab_text(kSmall));
  write_text(dir / "tokenizer_config.json", R"({
  "added_tokens_decoder": {
    "0": {"content": "[PAD]", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false, "special": true},
    "8": {"content": "[unused0]", "lstrip": false, "normalized": false, "rstrip": true, "single_word": false, "special": true}
  },
  "additional_special_tokens": ["[unused0]"],
  "do_lower_case": true,
  "model_max_length": 16
})");
  auto tok = load(dir.path());
  // normalized false: matched before lower-casing, so [UNUSED0] is not it; rstrip takes the spaces.
  auto e = tok->encode("hello[unused0]  world [UNUSED0]", std::nullopt, {});
  CHECK(bktest::tokens_str(e, *tok) == "[CLS] hello [unused0] world [UNK] [UNK] [UNK] [SEP]");
  CHECK(bktest::char_offsets_str(e, "hello[unused0]  world [UNUSED0]") == "0:0 0:5 5:16 16:21 22:23 23:30 30:31 0:0");
  CHECK(tok->spec().model_max_length == 16);
  write_text(dir / "tokenizer_config.json", R"({"added_tokens_decoder": {"x": {"content": "[PAD]"}}})");
  CHECK_THROWS_WITH_AS(load(dir.path()), doctest::Contains("'x' is not an id"), bertkit::Error);
}

TEST_CASE("tokenizer.json: a piece bertkit has not yet is named with its type and the file") {
  bktest::TempDir dir;
  const std::string where = (dir / "tokenizer.json").string();
  auto refused = [&](const char* field, json piece) {
    json j = tokenizer_json();
    j[field] = std::move(piece);
    write_text(dir / "tokenizer.json", j.dump());
    try {
      load(dir / "tokenizer.json");
    } catch (const bertkit::Error& e) {
      CHECK(e.kind() == bertkit::ErrorKind::BadInput);
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  CHECK(refused("model", {{"type", "BPE"}, {"vocab", json::object()}, {"merges", json::array()}, {"byte_fallback", true}}) ==
        where + ": the BPE model's byte_fallback (Gemma's tokenizer, as mmBERT has) is not supported yet");
  // Written before models were tagged: merges make it BPE, though it has a continuation prefix too.
  CHECK(refused("model", {{"vocab", json::object()}, {"merges", json::array()}, {"continuing_subword_prefix", "##"}}) ==
        where + ": the BPE model's continuing_subword_prefix is not supported yet");
  // A folder with only tokenizer.json: the message names the file, not the folder.
  CHECK_THROWS_WITH_AS(load(dir.path()), (where + ": the BPE model's continuing_subword_prefix is not supported yet").c_str(),
                       bertkit::Error);
  CHECK(refused("normalizer", {{"type", "Prepend"}, {"prepend", "x"}}) == where + ": normalizer type \"Prepend\" is not supported yet");
  CHECK(refused("normalizer", {{"type", "Sequence"}, {"normalizers", {{{"type", "Lowercase"}}, {{"type", "Nmt"}}}}}) ==
        where + ": normalizer type \"Nmt\" is not supported yet");
  CHECK(refused("pre_tokenizer", {{"type", "UnicodeScripts"}}) == where + ": pre_tokenizer type \"UnicodeScripts\" is not supported yet");
  // Pieces that only split combine; one that rewrites the text (ByteLevel) behind one does not.
  CHECK(refused("pre_tokenizer", {{"type", "Sequence"}, {"pretokenizers", {{{"type", "Digits"}}, {{"type", "ByteLevel"}}}}}) ==
        where + ": a pre_tokenizer Sequence of 2 pieces is not supported yet");
  CHECK(refused("pre_tokenizer", {{"type", "Punctuation"}, {"behavior", "Sideways"}}) ==
        where + ": the Punctuation pre-tokenizer's behavior \"Sideways\" is not one of Removed, Isolated, MergedWithPrevious, "
                "MergedWithNext, Contiguous");
  CHECK(refused("post_processor", {{"type", "Sequence"}, {"processors", {{{"type", "ByteLevel"}}, {{"type", "BertProcessing"}}}}}) ==
        where + ": a post_processor Sequence of 2 pieces is not supported yet");
  CHECK(refused("decoder", {{"type", "Fuse"}}) == where + ": decoder type \"Fuse\" is not supported yet");
  CHECK(refused("normalizer", {{"lowercase", true}}) == where + ": the normalizer has no type");
}

TEST_CASE("tokenizer.json: Sequences, Lowercase and RobertaProcessing build the pipeline they describe") {
  bktest::TempDir dir;
  json j = tokenizer_json();
  j["normalizer"] = {{"type", "Sequence"},
                     {"normalizers",
                      {{{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true}, {"strip_accents", false}, {"lowercase", false}},
                       {{"type", "Sequence"}, {"normalizers", {{{"type", "Lowercase"}}}}}}}};
  j["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", {{{"type", "BertPreTokenizer"}}}}};
  j["post_processor"] = {{"type", "RobertaProcessing"}, {"cls", {"[CLS]", 2}}, {"sep", {"[SEP]", 3}}, {"trim_offsets", true}};
  j["decoder"] = {{"type", "Sequence"}, {"decoders", {{{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}}}}};
  write_text(dir / "tokenizer.json", j.dump());
  auto tok = load(dir / "tokenizer.json");
  CHECK(tok->spec().normalizer.size() == 2);
  auto e = tok->encode("HELLO Worlds", std::string_view("hello"), {});
  CHECK(bktest::tokens_str(e, *tok) == "[CLS] hello world ##s [SEP] [SEP] hello [SEP]");
  CHECK(bktest::join(e.type_ids) == "0 0 0 0 0 0 0 0");
  CHECK(bktest::byte_offsets_str(e) == "0:0 0:5 6:11 11:12 0:0 0:0 0:5 0:0");
  CHECK(tok->decode(e.ids, true) == "hello worlds hello");
}
