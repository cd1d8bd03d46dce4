// A compiled tokenizer image (read_wordpiece_image) on arbitrary bytes. Beyond not crashing: an image
// that reads walks its tries and probes its token table for any text without leaving them, and every
// id they give is inside the vocabulary size the image states.
#include "core/error.h"
#include "tokenizer/wordpiece_image.h"

#include <cstdlib>
#include <memory>
#include <string_view>

using namespace bertkit::tok;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    // The input outlives the tables: viewed in place (a no-op owner), as a model file's map is.
    auto tables = read_wordpiece_image(bytes, std::shared_ptr<const void>(data, [](const void*) {}), "fuzz/wordpiece.bin");
    if (!tables) return 0;
    const auto ids = static_cast<std::int32_t>(tables->vocab_size);
    for (std::string_view text : {"hello", "##ing", "a", "unaffable", "\xC3\xA9t\xC3\xA9", "[UNK]", "", "zzzzzzzzzzzzzz"}) {
      for (const PrefixTrie* trie : {&tables->initial, &tables->continuations}) {
        PrefixTrie::Match m = trie->longest_prefix(text);
        if (m.length > text.size() || (m.length > 0 && (m.id < 0 || m.id >= ids))) std::abort();
      }
      if (auto id = tables->index.find(text); id && (*id < 0 || *id >= ids)) std::abort();
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
