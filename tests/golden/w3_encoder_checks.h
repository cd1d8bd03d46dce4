#pragma once
// The checks of the wave-3 goldens (schema bertkit-oracle-goldens-w3/1: fixtures/models3) that every
// encoder family shares: each case's layers and last hidden state alone, and all cases as one packed
// batch against the same bytes and the padded batch's masked sums.
#include "golden/encoder_fixtures.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace bktest {

// The wave-3 fixtures' hidden states are compared within this: what a float32 implementation reaches
// (~1e-6), far below what a wrong rotary theta or bucket moves them by (3e-5 and more with these weights).
inline constexpr double kHiddenTolerance = 1e-5;

// The tokens of a case, and of every case of the goldens in order (the goldens list no token types: a
// pair's are BERT's, 0 through the first [SEP] and 1 after, where `config` has token types).
Tokens case_tokens_of(const nlohmann::json& c, const bertkit::core::ModelConfig& config);
std::vector<Tokens> case_tokens(const nlohmann::json& goldens, const bertkit::core::ModelConfig& config);

// Every case alone, all layers kept: each layer's sum and sum of absolute values within
// tolerance·values, and where the case lists them, every layer's values and the whole last hidden
// state within tolerance.
void check_cases_alone(bertkit::core::Encoder& encoder, const nlohmann::json& goldens, double tolerance);

// All cases as one packed batch: each case's rows byte for byte its rows alone, no NaN, and the padded
// batch's masked sums (goldens.batch, where recorded) within tolerance·values.
void check_batch(bertkit::core::Encoder& encoder, const nlohmann::json& goldens, double tolerance);

// Case `c` alone through the encoder (its last hidden state).
bertkit::core::EncoderOutput encode_case(bertkit::core::Encoder& encoder, const nlohmann::json& c);

// Each named fixture of `set`, from its folder and from its f32 file (written by convert's code and
// loaded back): check_cases_alone and check_batch.
void check_fixture_states(std::initializer_list<const char*> names, const char* set, double tolerance);

// Every case's logits through the fixture's head (a sequence or a token classifier) within kTolerance.
void check_head_logits(const bertkit::core::ModelConfig& config,
                       const std::shared_ptr<const bertkit::core::Weights>& weights, const nlohmann::json& goldens);

// Every case's MLM records (c["mlm"], a position each) through the fixture's MLM head: the top ids
// (m[ids_key]) ranked in that order (ties within 1e-5 either way) with no other row above them, their
// logits (m[logits_key]) and the logsumexp within kTolerance. Returns how many positions it checked.
std::size_t check_mlm_cases(const Fixture& fixture, const char* ids_key, const char* logits_key);

}  // namespace bktest
