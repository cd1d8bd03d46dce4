#pragma once
// What the first bytes of an input say it is. bertkit reads text; gzip is read through (zlib), and the
// binary formats users feed it by mistake (compressed or columnar files, arrays) are refused by name,
// instead of being tokenized as U+FFFD garbage.
#include <string_view>

namespace bertkit::records {

enum class InputKind {
  Text,
  Gzip,
  Binary,    // a known binary format: refuse it
  NeedMore,  // the bytes so far begin a signature: read more before deciding (or Text at the end)
};

struct InputSignature {
  InputKind kind = InputKind::Text;
  std::string_view format;  // Binary: what it is, e.g. "zstd-compressed data"
  std::string_view advice;  // Binary: how to read it instead, e.g. "decompress it first (zstd -d)"
};

// `head` is the start of the input, however much has arrived. Only whole signatures count, so a text
// line that merely starts with the same letters as one (e.g. "PAR") is decided once it is complete.
InputSignature sniff_input(std::string_view head);

}  // namespace bertkit::records
