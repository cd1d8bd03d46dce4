#pragma once
// How fill-mask predictions are shown: as transformers' pipeline returns them (JSON), or as a table for
// the interactive prompt.
#include "records/json_line.h"
#include "commands/fill_mask.h"

#include <string>

namespace bertkit::cmd {

// One mask: a list of {score, token, token_str, sequence}; several masks: one such list per mask.
void write_predictions(records::JsonLine& j, const MaskPredictions& predictions);

// A table per mask, columns rank, score, token and the filled-in sequence.
std::string prediction_table(const MaskPredictions& predictions);

}  // namespace bertkit::cmd
