// Build-time tool: compiles the built-in vocabulary's WordPiece tables (write_wordpiece_image) so that
// `bertkit tokenize` uses them in place instead of building them at every start.
// Usage: bertkit_compile_vocab VOCAB_TXT OUTPUT
#include "core/error.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/wordpiece_image.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s VOCAB_TXT OUTPUT\n", argv[0]);
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    bertkit::tok::TokenizerFiles files;
    files.vocab_txt = std::string(std::istreambuf_iterator<char>(in), {});
    files.origin = argv[1];
    const std::string image = bertkit::tok::write_wordpiece_image(bertkit::tok::Tokenizer(bertkit::tok::build_tokenizer_spec(files)));
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    if (!out.write(image.data(), static_cast<std::streamsize>(image.size())) || !out.flush())
      throw std::runtime_error(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bertkit_compile_vocab: %s\n", e.what());
    std::remove(argv[2]);
    return 1;
  }
  return 0;
}
