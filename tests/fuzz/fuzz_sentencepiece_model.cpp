// A SentencePiece model file (spm.model: the ModelProto protobuf), read by read_sentencepiece_model and,
// when it is one, built into DeBERTa's slow tokenizer and run over a few texts and over the input's
// second half read as text. Beyond not crashing: every piece read is a view inside the input and
// non-empty; ids are inside the vocabulary, offsets inside the text with starts never going back, and
// decoding gives valid UTF-8.
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer_input.h"
#include "tokenizer/loader.h"
#include "tokenizer/sentencepiece_model.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <string>
#include <string_view>

using namespace bertkit::tok;
using bkfuzz::check;

namespace {

void check_pieces(const SentencePieceModel& m, std::string_view bytes) {
  for (const SentencePieceEntry& p : m.pieces) {
    check(!p.piece.empty());
    check(p.piece.data() >= bytes.data() && p.piece.data() + p.piece.size() <= bytes.data() + bytes.size());
  }
  check(m.unk_id >= 0 && static_cast<std::size_t>(m.unk_id) < m.pieces.size());
}

void check_tokenizer(std::string_view bytes) {
  TokenizerFiles files;
  files.origin = "fuzz";
  files.spm_model = std::string(bytes);
  const Tokenizer t(build_tokenizer_spec(files));
  std::string tail;
  repair_utf8(bytes.substr(bytes.size() / 2), tail);
  for (std::string_view text : {std::string_view("  Hello [MASK] w\xC3\xB6rld\xE2\x96\x81 x[UNK]y \xF0\x9F\xA6\xA9  "),
                                std::string_view(""), std::string_view(tail)}) {
    const Encoding e = t.encode(text, std::string_view("b"), {});
    bkfuzz::check_encoding(t, e, text, "b", bkfuzz::OffsetOrder::AfterPreviousBegin);
    const std::string decoded = t.decode(e.ids, false);
    check(valid_utf8_prefix(decoded) == decoded.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    check_pieces(read_sentencepiece_model(bytes, "fuzz"), bytes);
    check_tokenizer(bytes);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
