#pragma once
// The random-weight models `bertkit bench --shape` times, and the Hugging Face folder `--save` makes of
// one, so that anyone can convert, load and time the very same model.
#include "core/bench/model_shapes.h"
#include "core/checkpoint/weights.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bertkit::cmd {

// The weights of a shape, always the same for the same shape (a fixed seed).
core::Weights random_model_weights(const core::ModelShape& shape);

// config.json, model.safetensors and the built-in vocab.txt (bert-base-uncased's) in `folder`, created
// if needed; existing files of those names are replaced. MPNet's shape gets its own tokenizer: that
// vocabulary as all-mpnet-base-v2 lays it out, in vocab.txt and tokenizer.json. Returns the names written.
std::vector<std::string> save_model_folder(const core::ModelShape& shape, const core::Weights& weights,
                                           const std::filesystem::path& folder);

}  // namespace bertkit::cmd
