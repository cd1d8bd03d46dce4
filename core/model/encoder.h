#pragma once
// The encoder of every family: embeddings, then every transformer layer as the family's block recipe
// computes it (core/model/blocks/), each given its LayerContext (MPNet's relative position bias,
// tabulated once per batch, where the family has one), over a batch of sequences of any lengths.
// Sequences are packed end to end (no padding): the matmuls run on all tokens of the batch at once,
// attention runs per sequence, and so a sequence's result does not depend on the batch it came in (int8
// included: activations are quantised per token).
#include "core/checkpoint/weights.h"
#include "core/model/adaptive_threads.h"
#include "core/model/config.h"
#include "core/model/blocks/block.h"
#include "core/model/embeddings.h"
#include "core/model/layer_norm_weights.h"
#include "core/model/relative_position_bias.h"
#include "core/model/token_sequence.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::core {

// The hidden states of a batch, rows of all sequences end to end in input order.
struct EncoderOutput {
  std::int64_t hidden_size = 0;
  std::vector<std::int64_t> offsets;  // sequence i is rows offsets[i] .. offsets[i+1]
  // layers.back() is the last hidden state. With all layers kept, layers[0] is the embeddings output
  // and layers[l] the output of layer l (transformers' hidden_states); otherwise only the last.
  std::vector<std::vector<float>> layers;

  std::size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::int64_t length(std::size_t seq) const { return offsets[seq + 1] - offsets[seq]; }
  std::int64_t tokens() const { return offsets.empty() ? 0 : offsets.back(); }
  const std::vector<float>& last() const { return layers.back(); }
  // Row `position` of sequence `seq` in the last hidden state.
  const float* row(std::size_t seq, std::int64_t position) const {
    return last().data() + (offsets[seq] + position) * hidden_size;
  }
};

// The LayerNorm over the last layer's output of a family that has one (ModernBERT's final_norm).
std::optional<NormDecl> declare_final_norm(const ModelConfig& config, TensorDecls& decls);

class Encoder {
 public:
  Encoder(const ModelConfig& config, std::shared_ptr<const Weights> weights);

  // Runs the batch with up to omp_get_max_threads() threads, as many as measured fastest (see
  // AdaptiveThreads); `out` is reused (its buffers keep their capacity from batch to batch). Throws
  // BadInput, before computing anything, for a sequence the model cannot take.
  void forward(std::span<const TokenSequence> batch, EncoderOutput& out, bool all_layers = false);

  const ModelConfig& config() const { return config_; }
  // The thread count the last forward() ran with.
  int last_threads() const { return last_threads_; }

  // Adds every layer's matrices, packed as this machine's oneDNN wants them, to `weights`: a converted
  // file stores them instead of their plain parts, and a later load on a machine that wants the same
  // layouts maps them in place (see Block::add_packed_to).
  void add_packed_to(Weights& weights) const;

 private:
  ModelConfig config_;
  std::shared_ptr<const Weights> weights_;  // the embedding tables are views into it
  Embeddings embeddings_;
  std::vector<std::unique_ptr<Block>> layers_;
  std::optional<RelativePositionBias> relative_bias_;
  std::optional<LayerNormWeights> final_norm_;
  LayerScratch scratch_;
  std::vector<std::int64_t> attended_keys_;  // of the batch, when a sequence limits them (LayerContext)
  AdaptiveThreads threads_;
  int last_threads_ = 0;

  void run_layers(std::span<const TokenSequence> batch, EncoderOutput& out, bool all_layers);
};

}  // namespace bertkit::core
