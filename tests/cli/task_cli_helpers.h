#pragma once
// What the task end-to-end tests share: files in, JSON lines out, fixture paths and altered copies.
#include "support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace bktest {

inline std::string fixture_path(const std::string& name) { return shared("fixtures/models/" + name).string(); }
// MiniLM-L6 as a sentence-transformers folder: the model most command tests run.
inline std::string minilm() { return fixture_path("minilm-embed"); }

inline nlohmann::json fixture_goldens(const std::string& name) {
  return read_json(shared("fixtures/models/" + name + "/goldens.json"));
}

// The same for the later families and tasks (fixtures/models2).
inline std::string models2_path(const std::string& name) { return shared("fixtures/models2/" + name).string(); }

inline nlohmann::json models2_goldens(const std::string& name) {
  return read_json(shared("fixtures/models2/" + name + "/goldens.json"));
}

// And the wave-3 families and outputs (fixtures/models3).
inline std::string models3_path(const std::string& name) { return shared("fixtures/models3/" + name).string(); }

inline nlohmann::json models3_goldens(const std::string& name) {
  return read_json(shared("fixtures/models3/" + name + "/goldens.json"));
}

// The goldens' transformers pipeline records of `task` ("fill-mask", "token-classification", ...); a
// record names its task at the top or in the pipeline's init arguments.
inline std::vector<nlohmann::json> pipeline_records(const nlohmann::json& goldens, const std::string& task) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& p : goldens.at("pipelines"))
    if ((p.contains("task") ? p.at("task") : p.at("init").at("task")) == task) out.push_back(p);
  return out;
}

// A pipeline's score against bertkit's, within the goldens' tolerance.
inline bool near_score(const nlohmann::json& got, const nlohmann::json& want) {
  return std::abs(got.get<double>() - want.get<double>()) <= kTolerance;
}

// A token-classification pipeline's entities against bertkit's: labels, words and positions exact where
// the pipeline has them (the slow tokenizers' start/end are null), scores close.
inline void check_entities(const nlohmann::json& got, const nlohmann::json& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("entity " << k << " " << want[k].dump());
    for (const char* key : {"entity", "entity_group", "word", "index", "start", "end"})
      if (want[k].contains(key) && !want[k].at(key).is_null()) CHECK(got[k].at(key) == want[k].at(key));
    CHECK(near_score(got[k].at("score"), want[k].at("score")));
  }
}

// A fill-mask pipeline's list for one mask against bertkit's: tokens, their text and the filled
// sequence exact, scores close.
inline void check_predictions(const nlohmann::json& got, const nlohmann::json& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("prediction " << k << " " << want[k].dump());
    CHECK(got[k].at("token") == want[k].at("token"));
    CHECK(got[k].at("token_str") == want[k].at("token_str"));
    CHECK(got[k].at("sequence") == want[k].at("sequence"));
    CHECK(near_score(got[k].at("score"), want[k].at("score")));
  }
}

// Runs bertkit, requires success, and returns its JSON lines.
inline std::vector<nlohmann::json> run_jsonl(const std::vector<std::string>& args, const std::string& input = "") {
  auto r = run_bertkit(args, input);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json_lines(r.out);
}

// `args` followed by `more`: a command line built from parts.
inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// `model` converted to an f32 file in `dir` (named `name`.bk).
inline std::string converted_f32(const TempDir& dir, const std::string& model, const std::string& name) {
  const auto file = (dir / (name + ".bk")).string();
  const auto r = run_bertkit({"-q", "convert", model, file});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return file;
}

// `convert --verify --dtype dtype model`: the converted model loads, keeps the embeddings' direction
// (cosine at least 0.999) and the classifier's top-1 on all 16 of its texts.
inline void check_convert_verify(const std::string& model, const std::string& dtype) {
  INFO(model << " " << dtype);
  const auto r = run_bertkit({"convert", "--verify", "--dtype", dtype, model});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  double mean = 0, min = 0;
  const auto at = r.out.find("embedding cosine similarity: ");
  REQUIRE(at != std::string::npos);
  REQUIRE(std::sscanf(r.out.c_str() + at, "embedding cosine similarity: mean %lf, min %lf", &mean, &min) == 2);
  CHECK(min >= 0.999);
  CHECK(r.out.find("classification top-1 agreement: 16/16") != std::string::npos);
}

// A copy of a fixture folder whose `file` (a JSON object) gets `key` = `value`.
inline std::string fixture_with(const TempDir& dir, const std::string& fixture, const std::string& file,
                                const std::string& key, const nlohmann::json& value) {
  const auto to = dir / fixture;
  std::filesystem::copy(shared("fixtures/models/" + fixture), to, std::filesystem::copy_options::recursive);
  auto j = read_json(to / file);
  j[key] = value;
  std::filesystem::permissions(to / file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  write_file(to / file, j.dump());
  return to.string();
}

}  // namespace bktest
