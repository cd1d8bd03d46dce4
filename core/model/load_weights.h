#pragma once
// From a checkpoint as stored (any names, f32/f16/bf16) to the Weights the encoder reads: canonical
// names, every tensor the config needs with the right shape, f32.
#include "core/checkpoint/raw_checkpoint.h"
#include "core/checkpoint/weights.h"
#include "core/model/config.h"

#include <string>
#include <vector>

namespace bertkit::core {

struct LoadedWeights {
  Weights weights;
  // Checkpoint names that the model does not use (e.g. cls.seq_relationship.*): one warning for the CLI.
  std::vector<std::string> unexpected;
};

// f32 tensors stay views into the checkpoint's memory (zero copy) unless misaligned; f16 and bf16 are
// converted into owned f32 buffers. The tied MLM decoder is the word embedding matrix when the file has
// none. A head none of whose tensors the file holds is dropped from `config` (drop_absent_head). A
// missing or mis-shaped tensor throws BadInput naming it (and both shapes); `source` names the
// checkpoint in messages.
LoadedWeights load_weights(RawCheckpoint raw, ModelConfig& config, std::string_view source);

}  // namespace bertkit::core
