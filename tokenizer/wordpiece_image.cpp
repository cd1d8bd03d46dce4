#include "tokenizer/wordpiece_image.h"

#include "tokenizer/image_io.h"
#include "tokenizer/tokenizer.h"

namespace bertkit::tok {

namespace {
constexpr std::uint32_t kMagic = 0x50574B42;  // "BKWP"
constexpr std::uint32_t kVersion = 1;
constexpr std::int32_t kMaxVocab = std::int32_t{1} << 28;
}  // namespace

std::string write_wordpiece_image(const Tokenizer& tokenizer) {
  const std::string& prefix = tokenizer.spec().wordpiece.continuing_subword_prefix;
  ImageWriter out;
  out.u32(kMagic);
  out.u32(kVersion);
  out.u32(static_cast<std::uint32_t>(tokenizer.vocab_size()));
  out.array(prefix.data(), prefix.size());
  tokenizer.spec().vocab->index().write(out);
  tokenizer.wordpiece().write(out);
  return out.take();
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
  if (!in.at_end()) in.fail("bytes after the last table");
  return t;
}

}  // namespace bertkit::tok
