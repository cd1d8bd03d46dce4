#pragma once
// A Stanford ColBERT folder (colbert-ir/colbertv2.0's layout, which PyLate also loads): config.json naming
// the HF_ColBERT architecture over a BERT encoder, the encoder's weights with the projection
// `linear.weight` [dim, hidden] (no bias) beside them, and artifact.metadata, its ColBERTConfig. It becomes
// what a PyLate folder gives: the ColBERT settings and one Dense layer, so every ColBERT path serves it.
#include "core/checkpoint/raw_checkpoint.h"
#include "core/loading/model_source.h"

#include <filesystem>
#include <optional>

namespace bertkit::core {

// Takes `linear.weight` out of `raw` (before the encoder's weights are matched to the config), to be
// handed to add_stanford_colbert; nullopt when there is none (bad input for an HF_ColBERT config).
std::optional<RawTensor> take_stanford_projection(RawCheckpoint& raw, const std::filesystem::path& folder);

// The settings from `folder`/artifact.metadata (ColBERTConfig's defaults without it) and the projection as
// Dense layer 0 (dense.0.weight), its width checked against the metadata's dim.
void add_stanford_colbert(const std::filesystem::path& folder, const RawTensor& projection, LoadedModel& m);

}  // namespace bertkit::core
