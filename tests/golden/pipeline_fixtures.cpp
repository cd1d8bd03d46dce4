#include "golden/pipeline_fixtures.h"

#include "cli/tokenizer_flags.h"
#include "core/error.h"
#include "support.h"
#include "tokenizer/loader.h"

namespace bktest {

std::vector<std::string> fixtures_with_pipelines(const std::string& task) {
  std::vector<std::string> out;
  for (const std::string& name : fixture_model_names()) {
    nlohmann::json g = read_json(shared("fixtures/models/" + name + "/goldens.json"));
    for (const auto& p : g.value("pipelines", nlohmann::json::array()))
      if (p.at("init").at("task") == task) {
        out.push_back(name);
        break;
      }
  }
  return out;
}

bool builds_tokenizer(const std::string& name, const std::string& set) {
  try {
    const bertkit::tok::Tokenizer tokenizer(bertkit::tok::build_tokenizer_spec(
        bertkit::tok::read_tokenizer_files(shared("fixtures/" + set + "/" + name).string())));
    return true;
  } catch (const bertkit::Error& e) {
    if (std::string_view(e.what()).find("not supported yet") == std::string_view::npos) throw;
    return false;
  }
}

std::unique_ptr<bertkit::tok::Tokenizer> fixture_tokenizer(const Fixture& fixture, const char* compat) {
  bertkit::cli::TokenizerFlags flags;
  flags.compat = compat;
  return bertkit::cli::build_tokenizer(flags, &fixture.model);
}

}  // namespace bktest
