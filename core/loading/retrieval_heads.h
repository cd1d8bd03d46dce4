#pragma once
// The parts of retrieval model folders beyond a sentence-transformers encoder: a SparseEncoder's
// SpladePooling config and BGE-M3's sparse_linear.pt and colbert_linear.pt heads (FlagEmbedding's layout).
#include "core/loading/model_source.h"

#include <filesystem>

namespace bertkit::core {

// 1_SpladePooling/config.json: pooling_strategy max|sum, activation_function relu|log1p_relu.
SpladePooling read_splade_pooling(const std::filesystem::path& config_path);

// sparse_linear.pt (a Linear(hidden, 1)) and colbert_linear.pt (a Linear(hidden, colbert_dim)) in
// `folder`, each when there: torch zips of a state dict, read by the restricted unpickler (never
// executed), their tensors added to m.weights as sparse_linear.weight/.bias and colbert_linear.weight/.bias.
void read_flag_embedding_heads(const std::filesystem::path& folder, LoadedModel& m);

}  // namespace bertkit::core
