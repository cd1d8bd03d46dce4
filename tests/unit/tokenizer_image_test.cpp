// A compiled tokenizer (wordpiece.bin in converted files): the token index and WordPiece's tries written
// by write_wordpiece_image and read back give the same tokens as the tables built from vocab.txt, for
// every vocabulary in ../shared; an image of another version is ignored; a damaged one is refused with
// the file named, never used.
#include "expect_bad_input.h"
#include "support.h"
#include "tokenizer/image_io.h"
#include "tokenizer/loader.h"
#include "tokenizer/wordpiece_image.h"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using bertkit::core::SharedBytes;
using bertkit::tok::build_tokenizer_spec;
using bertkit::tok::Tokenizer;
using bertkit::tok::TokenizerFiles;

namespace {

TokenizerFiles vocab_files(const std::string& vocab) {
  TokenizerFiles files;
  files.origin = "model";
  files.vocab_txt = vocab;
  return files;
}

}  // namespace

TEST_CASE("compiled tokenizer: the stored tables tokenize every corpus line as the built ones") {
  std::vector<std::string> texts;
  for (const char* corpus : {"corpora/en_agnews.txt", "corpora/udhr.txt", "corpora/blns.txt", "corpora/man_de.txt",
                             "corpora/debian_reference_zh_cn.txt", "corpora/long_tokens_base64.txt"}) {
    auto lines = bktest::read_lines(bktest::shared(corpus));
    texts.insert(texts.end(), lines.begin(), lines.begin() + std::min<std::size_t>(lines.size(), 200));
  }
  for (const char* name : {"bert-base-uncased", "bert-base-cased", "bert-base-multilingual-cased", "bert-base-chinese"}) {
    TokenizerFiles files = vocab_files(bktest::read_file(bktest::shared(std::string("vocab/") + name + "/vocab.txt")));
    const Tokenizer built(build_tokenizer_spec(files));
    files.wordpiece_image = SharedBytes::copy_of(bertkit::tok::write_wordpiece_image(built));
    const Tokenizer compiled(build_tokenizer_spec(files));
    REQUIRE(compiled.spec().compiled != nullptr);
    CHECK(built.spec().compiled == nullptr);
    REQUIRE(compiled.vocab_size() == built.vocab_size());
    // One assertion for the whole vocabulary: one per token costs minutes under the sanitizers.
    std::vector<std::optional<std::int32_t>> built_ids, compiled_ids;
    for (std::int32_t id = 0; id < static_cast<std::int32_t>(built.vocab_size()); ++id) {
      built_ids.push_back(built.token_id(built.token(id)));
      compiled_ids.push_back(compiled.token_id(built.token(id)));
    }
    CHECK_MESSAGE(compiled_ids == built_ids, name);
    bertkit::tok::EncodeOptions options;
    for (const std::string& text : texts) {
      auto a = built.encode(text, std::nullopt, options), b = compiled.encode(text, std::nullopt, options);
      REQUIRE_MESSAGE(a.ids == b.ids, name);
      CHECK(a.offsets == b.offsets);
    }
  }
}

TEST_CASE("compiled tokenizer: another version is ignored, another vocabulary or damage is refused") {
  const std::string vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\nun\n##aff\n##able\n";
  TokenizerFiles files = vocab_files(vocab);
  const std::string image = bertkit::tok::write_wordpiece_image(Tokenizer(build_tokenizer_spec(files)));
  const std::filesystem::path where = "model/wordpiece.bin";

  std::string other_version = image;
  other_version[4] = static_cast<char>(other_version[4] + 1);
  files.wordpiece_image = SharedBytes::copy_of(other_version);
  CHECK(build_tokenizer_spec(files).compiled == nullptr);

  files.vocab_txt = vocab + "extra\n";
  files.wordpiece_image = SharedBytes::copy_of(image);
  bktest::expect_bad_input([&] { build_tokenizer_spec(files); }, where, "built for 11 tokens, vocab.txt has 12");
  // The same number of tokens, one of them changed: the tables would give "hallo" the id of "hello".
  std::string changed = vocab;
  changed.replace(changed.find("hello"), 5, "hallo");
  files.vocab_txt = changed;
  bktest::expect_bad_input([&] { build_tokenizer_spec(files); }, where, "built from another vocab.txt");
  files.vocab_txt = vocab;

  // Every truncation, and every byte changed (its bits flipped): refused with the file named, except a
  // changed format version (bytes 4-7), which is another version's image, ignored.
  for (std::size_t n = 0; n < image.size(); n += 4) {
    files.wordpiece_image = SharedBytes::copy_of(image.substr(0, n));
    bktest::expect_bad_input([&] { build_tokenizer_spec(files); }, where, "corrupt compiled tokenizer");
  }
  for (std::size_t i = 0; i < image.size(); ++i) {
    std::string damaged = image;
    damaged[i] = static_cast<char>(~damaged[i]);
    files.wordpiece_image = SharedBytes::copy_of(std::move(damaged));
    if (i >= 4 && i < 8)
      CHECK(build_tokenizer_spec(files).compiled == nullptr);
    else
      bktest::expect_bad_input([&] { build_tokenizer_spec(files); }, where, "corrupt compiled tokenizer");
  }
}

TEST_CASE("compiled tokenizer: tables are used where they lie when the image is kept alive and aligned") {
  bertkit::tok::ImageWriter out;
  const std::vector<std::uint32_t> values = {7, 8, 9};
  out.array(values.data(), values.size());
  // The image at an aligned and at an odd address in the same buffer.
  const std::string image = out.take();
  auto buffer = std::make_shared<std::vector<std::uint32_t>>((image.size() + 8) / 4);
  char* aligned = reinterpret_cast<char*>(buffer->data());
  std::memcpy(aligned, image.data(), image.size());

  bertkit::tok::ImageReader kept({aligned, image.size()}, buffer, "image");
  const auto viewed = kept.table<std::uint32_t>(16);
  CHECK(viewed.data() == reinterpret_cast<const std::uint32_t*>(aligned + 4));  // after the count
  const auto copy = viewed;  // a copy of a view views the same bytes
  CHECK(copy.data() == viewed.data());

  bertkit::tok::ImageReader copied({aligned, image.size()}, nullptr, "image");
  const auto owned = copied.table<std::uint32_t>(16);
  CHECK(owned.data() != viewed.data());
  auto owned_copy = owned;  // a copy of an owned table owns its own
  CHECK(owned_copy.data() != owned.data());

  using Table = bertkit::tok::ImageTable<std::uint32_t>;
  const std::vector<std::uint32_t> expected = {7, 8, 9};
  for (const Table* t : {&viewed, &owned, static_cast<const Table*>(&owned_copy)})
    CHECK(std::vector<std::uint32_t>(t->begin(), t->end()) == expected);

  char* odd = aligned + 1;  // the views above now see shifted bytes; they are not used again
  std::memmove(odd, aligned, image.size());
  bertkit::tok::ImageReader unaligned({odd, image.size()}, buffer, "image");
  const auto realigned = unaligned.table<std::uint32_t>(16);
  CHECK(reinterpret_cast<std::uintptr_t>(realigned.data()) % alignof(std::uint32_t) == 0);
  CHECK(std::vector<std::uint32_t>(realigned.begin(), realigned.end()) == expected);
}

TEST_CASE("compiled tokenizer: an image at an odd address tokenizes as one at an aligned address") {
  const std::string vocab = bktest::read_file(bktest::shared("vocab/bert-base-uncased/vocab.txt"));
  TokenizerFiles files = vocab_files(vocab);
  const std::string image = bertkit::tok::write_wordpiece_image(Tokenizer(build_tokenizer_spec(files)));
  auto odd = std::make_shared<std::string>(" " + image);
  files.wordpiece_image = SharedBytes{std::string_view(*odd).substr(1), odd};
  const Tokenizer unaligned(build_tokenizer_spec(files));
  files.wordpiece_image = SharedBytes::copy_of(image);
  const Tokenizer aligned(build_tokenizer_spec(files));
  files.wordpiece_image.reset();
  const Tokenizer built(build_tokenizer_spec(files));
  REQUIRE(unaligned.spec().compiled != nullptr);
  for (const auto& line : bktest::read_lines(bktest::shared("corpora/en_agnews.txt"))) {
    const auto ids = built.encode(line, std::nullopt, {}).ids;
    REQUIRE(unaligned.encode(line, std::nullopt, {}).ids == ids);
    REQUIRE(aligned.encode(line, std::nullopt, {}).ids == ids);
  }
}

TEST_CASE("compiled tokenizer: the built-in vocabulary's tables are compiled into the binary") {
  TokenizerFiles files = bertkit::tok::builtin_tokenizer_files();
  REQUIRE(files.wordpiece_image.has_value());
  const Tokenizer compiled(build_tokenizer_spec(files));
  REQUIRE(compiled.spec().compiled != nullptr);
  files.wordpiece_image.reset();
  const Tokenizer built(build_tokenizer_spec(files));
  REQUIRE(built.spec().compiled == nullptr);
  for (const char* corpus : {"corpora/en_agnews.txt", "corpora/blns.txt"})
    for (const auto& line : bktest::read_lines(bktest::shared(corpus)))
      REQUIRE(compiled.encode(line, std::nullopt, {}).ids == built.encode(line, std::nullopt, {}).ids);
}
