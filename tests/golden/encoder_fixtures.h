#pragma once
// The model fixtures of ../shared/fixtures/models loaded for the encoder parity tests, and comparison
// helpers that report the worst difference.
#include "core/loading/model_source.h"
#include "core/model/encoder.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bktest {

// Every folder of fixtures/SET (models, or models2 for the later families and tasks), by name.
std::vector<std::string> fixture_model_names(const std::string& set = "models");

struct Fixture {
  std::string name;
  bertkit::core::LoadedModel model;  // its weights moved into `weights`
  std::shared_ptr<const bertkit::core::Weights> weights;
  nlohmann::json goldens;
};
Fixture load_fixture(const std::string& name, const std::string& set = "models");

// Token ids (and type ids where recorded) of a goldens record, owned, viewable as a TokenSequence.
struct Tokens {
  std::vector<std::int32_t> ids, types;
  bertkit::core::TokenSequence sequence() const { return {ids, types}; }
};
Tokens tokens_of(const nlohmann::json& record, const char* ids_key = "input_ids",
                 const char* types_key = "token_type_ids");
std::vector<bertkit::core::TokenSequence> sequences_of(const std::vector<Tokens>& tokens);

// All numbers of a (nested) JSON array, in order.
std::vector<double> flatten(const nlohmann::json& array);

// Largest |got[i] - expected[i]|; CHECKs the sizes agree.
double max_abs_diff(std::span<const float> got, const std::vector<double>& expected);

}  // namespace bktest
