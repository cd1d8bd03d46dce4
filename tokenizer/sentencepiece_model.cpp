#include "tokenizer/sentencepiece_model.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <cstring>

namespace bertkit::tok {

namespace {

// Protobuf's wire types (encoding.md): groups (3, 4) are never in a ModelProto and are refused.
enum Wire : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// One message's bytes, read field by field. Offsets in messages count from the file's first byte.
class WireReader {
 public:
  WireReader(std::string_view bytes, std::size_t base, const std::string& where, std::string_view message)
      : bytes_(bytes), base_(base), where_(where), message_(message) {}

  bool done() const { return pos_ >= bytes_.size(); }

  // The next field's number and wire type.
  std::pair<std::uint64_t, std::uint32_t> tag() {
    const std::uint64_t key = varint();
    const auto wire = static_cast<std::uint32_t>(key & 7);
    if (wire != kVarint && wire != kFixed64 && wire != kLengthDelimited && wire != kFixed32)
      fail("field {} has wire type {}, which a SentencePiece model never holds", key >> 3, wire);
    if ((key >> 3) == 0) fail("a field numbered 0");
    return {key >> 3, wire};
  }

  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (done()) fail("a number runs past the end of the {}", message_);
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return value;
    }
    fail("a number longer than 10 bytes");
  }

  std::string_view length_delimited() {
    const std::uint64_t n = varint();
    if (n > bytes_.size() - pos_)
      fail("a field of {} bytes runs past the end of the {} ({} bytes left)", n, message_, bytes_.size() - pos_);
    const std::string_view out = bytes_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }

  float fixed32_float() {
    const std::string_view b = fixed(4);
    std::uint32_t bits = 0;
    for (int k = 3; k >= 0; --k) bits = (bits << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(k)]);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

  // Where a nested message starts, for its own reader.
  std::size_t offset() const { return base_ + pos_; }

  void skip(std::uint32_t wire) {
    if (wire == kVarint) varint();
    else if (wire == kFixed64) fixed(8);
    else if (wire == kLengthDelimited) length_delimited();
    else fixed(4);
  }

  // A field this reader takes must come with the wire type its declaration gives.
  void expect(std::uint64_t field, std::uint32_t wire, std::uint32_t want) {
    if (wire != want) fail("field {} has wire type {}, expected {}", field, wire, want);
  }

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    bad_input("{}: not a SentencePiece model: in the {} at byte {}: {}", where_, message_, base_ + pos_,
              fmt::format(format, std::forward<Args>(args)...));
  }

 private:
  std::string_view fixed(std::size_t n) {
    if (n > bytes_.size() - pos_) fail("a {}-byte number runs past the end of the {}", n, message_);
    const std::string_view out = bytes_.substr(pos_, n);
    pos_ += n;
    return out;
  }

  std::string_view bytes_;
  std::size_t base_;
  std::size_t pos_ = 0;
  const std::string& where_;
  std::string_view message_;
};

// A string field: protobuf strings are UTF-8.
std::string_view utf8_field(WireReader& r, std::uint64_t field, const char* name) {
  const std::string_view s = r.length_delimited();
  if (valid_utf8_prefix(s) != s.size()) r.fail("{} (field {}) is not valid UTF-8", name, field);
  return s;
}

SentencePieceEntry read_piece(std::string_view bytes, std::size_t base, const std::string& where, std::size_t index) {
  const std::string message = fmt::format("piece {}", index);
  WireReader r(bytes, base, where, message);
  SentencePieceEntry e;
  while (!r.done()) {
    const auto [field, wire] = r.tag();
    if (field == 1) {
      r.expect(field, wire, kLengthDelimited);
      e.piece = utf8_field(r, field, "its text");
    } else if (field == 2) {
      r.expect(field, wire, kFixed32);
      e.score = r.fixed32_float();
    } else if (field == 3) {
      r.expect(field, wire, kVarint);
      const std::uint64_t type = r.varint();
      if (type < 1 || type > 6) r.fail("piece type {} is not one of 1 to 6", type);
      e.type = static_cast<PieceType>(type);
    } else {
      r.skip(wire);
    }
  }
  if (e.piece.empty()) r.fail("the piece has no text");
  return e;
}

void read_trainer_spec(std::string_view bytes, std::size_t base, const std::string& where, SentencePieceModel& m) {
  WireReader r(bytes, base, where, "trainer_spec");
  while (!r.done()) {
    const auto [field, wire] = r.tag();
    if (field == 3 || field == 24 || field == 35) r.expect(field, wire, kVarint);
    if (field == 3) {
      const std::uint64_t type = r.varint();
      if (type < 1 || type > 4) r.fail("model_type {} is not one of 1 to 4", type);
      m.model_type = static_cast<SentencePieceModelType>(type);
    } else if (field == 24) {
      m.treat_whitespace_as_suffix = r.varint() != 0;
    } else if (field == 35) {
      m.byte_fallback = r.varint() != 0;
    } else {
      r.skip(wire);
    }
  }
}

void read_normalizer_spec(std::string_view bytes, std::size_t base, const std::string& where, SentencePieceModel& m) {
  WireReader r(bytes, base, where, "normalizer_spec");
  SentencePieceNormalizerSpec& n = m.normalizer;
  while (!r.done()) {
    const auto [field, wire] = r.tag();
    if (field == 1 || field == 2) r.expect(field, wire, kLengthDelimited);
    if (field >= 3 && field <= 5) r.expect(field, wire, kVarint);
    if (field == 1) n.name = utf8_field(r, field, "name");
    else if (field == 2) n.precompiled_charsmap = r.length_delimited();
    else if (field == 3) n.add_dummy_prefix = r.varint() != 0;
    else if (field == 4) n.remove_extra_whitespaces = r.varint() != 0;
    else if (field == 5) n.escape_whitespaces = r.varint() != 0;
    else r.skip(wire);
  }
}

}  // namespace

SentencePieceModel read_sentencepiece_model(std::string_view bytes, const std::string& where) {
  WireReader r(bytes, 0, where, "model");
  SentencePieceModel m;
  while (!r.done()) {
    const auto [field, wire] = r.tag();
    if (field >= 1 && field <= 3) {
      r.expect(field, wire, kLengthDelimited);
      const std::string_view body = r.length_delimited();
      const std::size_t start = r.offset() - body.size();
      if (field == 1) m.pieces.push_back(read_piece(body, start, where, m.pieces.size()));
      else if (field == 2) read_trainer_spec(body, start, where, m);
      else read_normalizer_spec(body, start, where, m);
    } else {
      r.skip(wire);
    }
  }
  if (m.pieces.empty()) bad_input("{}: not a SentencePiece model: it has no pieces", where);
  // As sentencepiece does, the unknown piece is the one of type UNKNOWN (trainer_spec's unk_id only
  // says where training put it).
  for (std::size_t id = 0; id < m.pieces.size(); ++id) {
    if (m.pieces[id].type != PieceType::Unknown) continue;
    if (m.unk_id >= 0) bad_input("{}: the SentencePiece model has two unknown pieces ({} and {})", where, m.unk_id, id);
    m.unk_id = static_cast<std::int32_t>(id);
  }
  if (m.unk_id < 0) bad_input("{}: the SentencePiece model has no unknown piece", where);
  return m;
}

std::string_view sentencepiece_model_type_name(SentencePieceModelType type) {
  // By TrainerSpec.ModelType's number (the reader takes 1 to 4 only).
  constexpr std::string_view kNames[] = {"", "Unigram", "BPE", "WORD", "CHAR"};
  return kNames[static_cast<int>(type)];
}

}  // namespace bertkit::tok
