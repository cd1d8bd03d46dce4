#pragma once
// The pipeline's pieces as tokenizer.json describes them ("normalizer", "pre_tokenizer", "model",
// "post_processor", "decoder", with "Sequence" flattened) read into a TokenizerSpec. A piece of a kind
// bertkit does not have yet is refused in one line naming its type and the file.
#include "tokenizer/tokenizer.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::tok {

// The model's kind and options, not its vocabulary (the loader reads that, from the file or vocab.txt).
ModelSpec read_model_spec(const nlohmann::json& model, const std::string& where);
// A Unigram model's "vocab" list of [piece, score] (TokenizerJson::scored_vocab): the pieces, with their
// scores into `spec`.
std::shared_ptr<Vocab> read_unigram_vocab(std::optional<std::vector<std::pair<std::string, double>>> vocab,
                                          UnigramSpec& spec, const std::string& where);
// Everything but the model, after it: templates name special tokens through the vocabulary.
void read_pipeline_pieces(const nlohmann::json& file, TokenizerSpec& spec, const std::string& where);

}  // namespace bertkit::tok
