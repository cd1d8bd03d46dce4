#include "tokenizer/wordpiece_image.h"

#include "core/error.h"
#include "core/hash64.h"
#include "tokenizer/image_io.h"
#include "tokenizer/tokenizer.h"

#include <cstring>
#include <span>

namespace bertkit::tok {

namespace {
constexpr std::uint32_t kMagic = 0x50574B42;  // "BKWP"
constexpr std::uint32_t kVersion = 2;  // 2: with a checksum
constexpr std::size_t kChecksumBytes = 8;
constexpr std::int32_t kMaxVocab = std::int32_t{1} << 28;

std::uint64_t checksum(std::string_view body, const Vocab& vocab) {
  core::Hash64 hash;
  hash.update(std::as_bytes(std::span(body)));
  hash.update(std::as_bytes(std::span(vocab.joined())));
  return hash.digest();
}
}  // namespace

std::string write_wordpiece_image(const Tokenizer& tokenizer) {
  const auto* wordpiece = dynamic_cast<const WordPiece*>(&tokenizer.model());
  if (!wordpiece) runtime_error("only a WordPiece model is compiled into an image");
  const std::string& prefix = wordpiece->options().continuing_subword_prefix;
  ImageWriter out;
  out.u32(kMagic);
  out.u32(kVersion);
  out.u32(static_cast<std::uint32_t>(tokenizer.spec().vocab->size()));
  out.array(prefix.data(), prefix.size());
  tokenizer.spec().vocab->index().write(out);
  wordpiece->write(out);
  std::string image = out.take();
  const std::uint64_t sum = checksum(image, *tokenizer.spec().vocab);
  image.append(reinterpret_cast<const char*>(&sum), kChecksumBytes);  // little-endian, as every field
  return image;
}

std::optional<WordPieceTables> read_wordpiece_image(std::string_view bytes, std::shared_ptr<const void> keep,
                                                    std::string_view where) {
  ImageReader in(bytes, std::move(keep), where);
  if (in.u32() != kMagic) in.fail("no image signature");
  if (in.u32() != kVersion) return std::nullopt;
  WordPieceTables t;
  t.vocab_size = in.u32();
  if (t.vocab_size == 0 || t.vocab_size > kMaxVocab) in.fail("the vocabulary size is out of range");
  const auto ids = static_cast<std::int32_t>(t.vocab_size);
  const auto prefix = in.array<char>(1024);
  t.continuing_subword_prefix.assign(prefix.begin(), prefix.end());
  t.index = TokenIndex::read(in, ids);
  t.initial = PrefixTrie::read(in, ids);
  t.continuations = PrefixTrie::read(in, ids);
  in.u32();  // the checksum, checked by wordpiece_image_matches
  in.u32();
  if (!in.at_end()) in.fail("bytes after the last table");
  return t;
}

bool wordpiece_image_current(std::string_view bytes) {
  std::uint32_t head[2];
  if (bytes.size() < sizeof head) return false;
  std::memcpy(head, bytes.data(), sizeof head);
  return head[0] == kMagic && head[1] == kVersion;
}

bool wordpiece_image_matches(std::string_view bytes, const Vocab& vocab) {
  if (bytes.size() < kChecksumBytes) return false;
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + bytes.size() - kChecksumBytes, kChecksumBytes);
  return stored == checksum(bytes.substr(0, bytes.size() - kChecksumBytes), vocab);
}

}  // namespace bertkit::tok
