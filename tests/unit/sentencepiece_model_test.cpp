// SentencePiece's ModelProto read from scratch: protobuf bytes built here field by field (unknown fields
// of every wire type among them), what the reader takes from them, the tokenizer built on them, and
// damaged files refused with one line naming the file and the fault.
#include "expect_bad_input.h"

#include "tokenizer/loader.h"
#include "tokenizer/sentencepiece_model.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

using namespace bertkit::tok;

namespace {

// protobuf's encoding, enough to write a ModelProto.
struct Proto {
  std::string bytes;
  Proto& varint(std::uint64_t v) {
    do {
      bytes.push_back(static_cast<char>((v & 0x7F) | (v > 0x7F ? 0x80 : 0)));
      v >>= 7;
    } while (v);
    return *this;
  }
  Proto& tag(std::uint64_t field, unsigned wire) { return varint(field << 3 | wire); }
  Proto& number(std::uint64_t field, std::uint64_t v) { return tag(field, 0).varint(v); }
  Proto& text(std::uint64_t field, std::string_view s) {
    tag(field, 2).varint(s.size());
    bytes.append(s);
    return *this;
  }
  Proto& real(std::uint64_t field, float f) {
    tag(field, 5);
    char b[4];
    std::memcpy(b, &f, 4);
    bytes.append(b, 4);
    return *this;
  }
};

std::string piece(std::string_view text, float score, int type = 1) {
  Proto p;
  p.text(1, text).real(2, score);
  if (type != 1) p.number(3, static_cast<std::uint64_t>(type));
  return p.bytes;
}

// A Unigram model: <unk>, [CLS], [SEP], "▁a", "a", "b", "▁b", "▁", then (byte_fallback) <0x00>..<0xFF>.
std::string model_bytes(bool byte_fallback, int model_type = 1) {
  Proto m;
  m.text(1, piece("<unk>", 0, 2)).text(1, piece("[CLS]", 0, 3)).text(1, piece("[SEP]", 0, 3));
  m.text(1, piece("\xE2\x96\x81" "a", -1)).text(1, piece("a", -2)).text(1, piece("b", -2));
  m.text(1, piece("\xE2\x96\x81" "b", -1.5f)).text(1, piece("\xE2\x96\x81", -3));
  if (byte_fallback)
    for (int b = 0; b < 256; ++b) m.text(1, piece(fmt::format("<0x{:02X}>", b), 0, 6));
  Proto trainer;
  trainer.number(3, static_cast<std::uint64_t>(model_type)).number(35, byte_fallback ? 1 : 0).number(40, 0);
  trainer.text(45, "<unk>").tag(99, 1).bytes.append(8, '\x01');  // an unknown 64-bit field
  m.text(2, trainer.bytes);
  Proto normalizer;
  normalizer.text(1, "identity").number(3, 1).number(4, 1).number(77, 5);  // field 77: unknown
  m.text(3, normalizer.bytes);
  m.text(4, "self-test data, skipped");
  return m.bytes;
}

std::string tokens(const Tokenizer& tok, const Encoding& e) {
  std::string out;
  for (std::size_t i = 0; i < e.ids.size(); ++i)
    out += fmt::format("{}{}@{}:{}", i ? " " : "", tok.token(e.ids[i]), e.offsets[i].begin, e.offsets[i].end);
  return out;
}

std::unique_ptr<Tokenizer> tokenizer_of(std::string bytes) {
  TokenizerFiles files;
  files.origin = "tiny";
  files.spm_model = std::move(bytes);
  return std::make_unique<Tokenizer>(build_tokenizer_spec(files));
}

}  // namespace

TEST_CASE("sentencepiece model: pieces, trainer_spec and normalizer_spec read, unknown fields skipped") {
  const std::string bytes = model_bytes(true);
  const SentencePieceModel m = read_sentencepiece_model(bytes, "tiny.model");
  REQUIRE(m.pieces.size() == 8 + 256);
  CHECK(m.pieces[3].piece == "\xE2\x96\x81" "a");
  CHECK(m.pieces[3].score == -1.0f);
  CHECK(m.pieces[0].type == PieceType::Unknown);
  CHECK(m.pieces[1].type == PieceType::Control);
  CHECK(m.pieces[8].type == PieceType::Byte);
  CHECK(m.unk_id == 0);
  CHECK(m.byte_fallback);
  CHECK(m.model_type == SentencePieceModelType::Unigram);
  CHECK(m.normalizer.name == "identity");
  CHECK(m.normalizer.precompiled_charsmap.empty());
  CHECK(m.normalizer.add_dummy_prefix);
  // Zero-copy: the pieces are views into the bytes.
  CHECK(m.pieces[3].piece.data() >= bytes.data());
  CHECK(m.pieces[3].piece.data() < bytes.data() + bytes.size());
}

TEST_CASE("sentencepiece model: the tokenizer built on it, white space rules, byte fallback and unknown runs") {
  const auto tok = tokenizer_of(model_bytes(true));
  // Leading, repeated and trailing spaces go (a kept space is aligned to the first of its run); each piece
  // between special tokens has its own "▁".
  CHECK(tokens(*tok, tok->encode("  a   ab ", std::nullopt, {})) ==
        "[CLS]@0:0 \xE2\x96\x81" "a@2:3 \xE2\x96\x81" "a@3:7 b@7:8 [SEP]@0:0");
  CHECK(tokens(*tok, tok->encode("a[SEP]b", std::nullopt, {})) ==
        "[CLS]@0:0 \xE2\x96\x81" "a@0:1 [SEP]@1:6 \xE2\x96\x81" "b@6:7 [SEP]@0:0");
  // A character no piece covers: its UTF-8 bytes, each spanning it.
  CHECK(tokens(*tok, tok->encode("\xC3\xA9" "a", std::nullopt, {})) ==
        "[CLS]@0:0 \xE2\x96\x81@0:0 <0xC3>@0:2 <0xA9>@0:2 a@2:3 [SEP]@0:0");
  CHECK(tok->decode(tok->encode("a \xC3\xA9" "b", std::nullopt, {}).ids, true) == "a \xC3\xA9" "b");
  // Without byte fallback a run of unknown characters is one unknown piece.
  const auto plain = tokenizer_of(model_bytes(false));
  CHECK(tokens(*plain, plain->encode("a\xC3\xA9\xC3\xA9", std::nullopt, {})) ==
        "[CLS]@0:0 \xE2\x96\x81" "a@0:1 <unk>@1:5 [SEP]@0:0");
}

TEST_CASE("sentencepiece model: a damaged or hostile file is refused with one line naming it and the fault") {
  const std::string good = model_bytes(false);
  // Cut anywhere: refused or (cut between fields) read, never more.
  for (std::size_t n = 0; n < good.size(); n += 7) {
    try {
      read_sentencepiece_model(std::string_view(good).substr(0, n), "cut.model");
    } catch (const bertkit::Error& e) {
      CHECK(e.kind() == bertkit::ErrorKind::BadInput);
      CHECK(std::string(e.what()).starts_with("cut.model: "));
    }
  }
  bktest::expect_bad_input([&] { read_sentencepiece_model(good.substr(0, 5), "cut.model"); }, "cut.model",
                           "runs past the end of the model");
  Proto huge;
  huge.tag(1, 2).varint(1u << 30);
  bktest::expect_bad_input([&] { read_sentencepiece_model(huge.bytes, "huge.model"); }, "huge.model",
                           "a field of 1073741824 bytes runs past the end");
  Proto wire;
  wire.number(1, 3);
  bktest::expect_bad_input([&] { read_sentencepiece_model(wire.bytes, "wire.model"); }, "wire.model",
                           "field 1 has wire type 0, expected 2");
  Proto group;
  group.tag(9, 3);
  bktest::expect_bad_input([&] { read_sentencepiece_model(group.bytes, "group.model"); }, "group.model",
                           "wire type 3");
  Proto type;
  type.text(1, piece("x", 0, 9));
  bktest::expect_bad_input([&] { read_sentencepiece_model(type.bytes, "type.model"); }, "type.model",
                           "piece type 9 is not one of 1 to 6");
  Proto no_unk;
  no_unk.text(1, piece("x", 0));
  bktest::expect_bad_input([&] { read_sentencepiece_model(no_unk.bytes, "x.model"); }, "x.model", "no unknown piece");
  bktest::expect_bad_input([&] { read_sentencepiece_model("", "empty.model"); }, "empty.model", "no pieces");
  Proto twice;
  twice.text(1, piece("<unk>", 0, 2)).text(1, piece("a", 0)).text(1, piece("a", -1));
  bktest::expect_bad_input([&] { tokenizer_of(twice.bytes); }, "tiny/spm.model", "are the same token 'a'");
  bktest::expect_bad_input([&] { tokenizer_of(model_bytes(false, 2)); }, "tiny/spm.model",
                           "a SentencePiece BPE model is not supported");
}
