#include "records/input_signature.h"

#include <algorithm>
#include <array>

namespace bertkit::records {

namespace {

bool is_level_digit(unsigned char c) { return c >= '1' && c <= '9'; }
bool is_control_byte(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

struct Signature {
  std::string_view magic;  // '?' stands for one byte that `wildcard` accepts
  bool (*wildcard)(unsigned char);
  InputKind kind;
  std::string_view format;
  std::string_view advice;

  // How many leading bytes of `head` agree with the magic.
  std::size_t matched(std::string_view head) const {
    std::size_t n = std::min(head.size(), magic.size()), i = 0;
    for (; i < n; ++i) {
      auto c = static_cast<unsigned char>(head[i]);
      if (magic[i] == '?' ? !wildcard(c) : head[i] != magic[i]) break;
    }
    return i;
  }
};

using namespace std::string_view_literals;

// Magic numbers from each format's specification. Parquet's "PAR1" and bzip2's "BZh" are letters, so
// they count only with what always follows them: a control byte (the first page header's Thrift field)
// for Parquet; the level digit and the block (or end-of-stream) magic for bzip2.
constexpr std::array kSignatures{
    Signature{"\x1f\x8b"sv, nullptr, InputKind::Gzip, "", ""},
    Signature{"\x28\xb5\x2f\xfd"sv, nullptr, InputKind::Binary, "zstd-compressed data",
              "decompress it first (zstd -dc FILE | bertkit ...)"},
    Signature{"\xfd\x37\x7a\x58\x5a\x00"sv, nullptr, InputKind::Binary, "xz-compressed data",
              "decompress it first (xz -dc FILE | bertkit ...)"},
    Signature{"BZh?1AY&SY"sv, is_level_digit, InputKind::Binary, "bzip2-compressed data",
              "decompress it first (bzip2 -dc FILE | bertkit ...)"},
    Signature{"BZh?\x17\x72\x45\x38\x50\x90"sv, is_level_digit, InputKind::Binary, "bzip2-compressed data",
              "decompress it first (bzip2 -dc FILE | bertkit ...)"},
    Signature{"\x04\x22\x4d\x18"sv, nullptr, InputKind::Binary, "lz4-compressed data",
              "decompress it first (lz4 -dc FILE | bertkit ...)"},
    Signature{"7z\xbc\xaf\x27\x1c"sv, nullptr, InputKind::Binary, "a 7-Zip archive", "extract the text file first"},
    Signature{"PK\x03\x04"sv, nullptr, InputKind::Binary, "a zip archive (or .npz, .xlsx, .docx)",
              "extract the text file first"},
    Signature{"PK\x05\x06"sv, nullptr, InputKind::Binary, "an empty zip archive", "extract the text file first"},
    Signature{"PAR1?"sv, is_control_byte, InputKind::Binary, "a Parquet file",
              "export the text column first (e.g. to CSV or JSONL)"},
    Signature{"\x93NUMPY"sv, nullptr, InputKind::Binary, "a NumPy array (.npy)", "bertkit reads text, not arrays"},
};

}  // namespace

InputSignature sniff_input(std::string_view head) {
  bool partial = false;
  for (const Signature& s : kSignatures) {
    std::size_t n = s.matched(head);
    if (n == s.magic.size()) return {s.kind, s.format, s.advice};
    if (n == head.size()) partial = true;  // all of head agrees, and the signature goes on
  }
  return {partial && !head.empty() ? InputKind::NeedMore : InputKind::Text, "", ""};
}

}  // namespace bertkit::records
