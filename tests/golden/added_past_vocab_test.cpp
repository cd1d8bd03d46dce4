// Added tokens numbered past the model vocabulary (a fine-tuned model's `tokenizer.add_tokens(...)`),
// against Hugging Face's Rust tokenizer: goldens made by make_added_past_vocab_golden.mjs.
#include "support.h"
#include "variant_goldens.h"

#include <doctest/doctest.h>

TEST_CASE("golden: added tokens past the vocabulary, numbered as Hugging Face numbers them (WordPiece, BPE)") {
  for (const char* base : {"bert-base-uncased", "roberta-base"}) {
    INFO(base);
    bktest::check_variant_goldens(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/added_past_vocab_" + base +
                                      ".jsonl.gz",
                                  bktest::shared(std::string("vocab/") + base + "/tokenizer.json").string(), 800);
  }
}
