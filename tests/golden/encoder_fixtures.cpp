#include "golden/encoder_fixtures.h"

#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace bktest {

std::vector<std::string> fixture_model_names(const std::string& set) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(shared("fixtures/" + set)))
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

Fixture load_fixture(const std::string& name, const std::string& set) {
  auto folder = shared("fixtures/" + set + "/" + name);
  Fixture f{name, bertkit::core::load_model(folder.string()), nullptr, read_json(folder / "goldens.json")};
  f.weights = std::make_shared<const bertkit::core::Weights>(std::move(f.model.weights));
  return f;
}

Tokens tokens_of(const nlohmann::json& record, const char* ids_key, const char* types_key) {
  Tokens t;
  t.ids = record.at(ids_key).get<std::vector<std::int32_t>>();
  if (record.contains(types_key)) t.types = record.at(types_key).get<std::vector<std::int32_t>>();
  return t;
}

std::vector<bertkit::core::TokenSequence> sequences_of(const std::vector<Tokens>& tokens) {
  std::vector<bertkit::core::TokenSequence> out;
  for (const auto& t : tokens) out.push_back(t.sequence());
  return out;
}

namespace {
void append(const nlohmann::json& value, std::vector<double>& out) {
  if (value.is_array())
    for (const auto& v : value) append(v, out);
  else
    out.push_back(value.get<double>());
}
}  // namespace

std::vector<double> flatten(const nlohmann::json& array) {
  std::vector<double> out;
  append(array, out);
  return out;
}

double max_abs_diff(std::span<const float> got, const std::vector<double>& expected) {
  CHECK(got.size() == expected.size());
  double worst = 0;
  for (std::size_t i = 0; i < std::min(got.size(), expected.size()); ++i) {
    double d = std::abs(double(got[i]) - expected[i]);
    if (std::isnan(d)) return INFINITY;
    worst = std::max(worst, d);
  }
  return worst;
}

}  // namespace bktest
