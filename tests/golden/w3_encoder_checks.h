#pragma once
// The checks of the wave-3 goldens (schema bertkit-oracle-goldens-w3/1: fixtures/models3) that every
// encoder family shares: each case's layers and last hidden state alone, and all cases as one packed
// batch against the same bytes and the padded batch's masked sums.
#include "golden/encoder_fixtures.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bktest {

// The tokens of a case, and of every case of the goldens in order (the goldens list no token types: a
// pair's are BERT's, 0 through the first [SEP] and 1 after, where `config` has token types).
Tokens case_tokens_of(const nlohmann::json& c, const bertkit::core::ModelConfig& config);
std::vector<Tokens> case_tokens(const nlohmann::json& goldens, const bertkit::core::ModelConfig& config);

// Every case alone, all layers kept: each layer's sum and sum of absolute values within
// tolerance·values, the whole last hidden state within tolerance.
void check_cases_alone(bertkit::core::Encoder& encoder, const nlohmann::json& goldens, double tolerance);

// All cases as one packed batch: each case's rows byte for byte its rows alone, no NaN, and the padded
// batch's masked sums (goldens.batch) within tolerance·values.
void check_batch(bertkit::core::Encoder& encoder, const nlohmann::json& goldens, double tolerance);

// Both checks above on fixtures/models3/NAME's folder (`converted`: its f32 file, written by convert's
// code and loaded back), against the folder's goldens.
void check_hidden_states(const std::string& name, double tolerance, bool converted = false);

}  // namespace bktest
