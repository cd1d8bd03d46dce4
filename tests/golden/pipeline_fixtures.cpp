#include "golden/pipeline_fixtures.h"

#include "cli/tokenizer_flags.h"
#include "core/error.h"
#include "core/model/family_spec.h"
#include "support.h"
#include "tokenizer/loader.h"

namespace bktest {

std::ostream& operator<<(std::ostream& out, const FixtureRef& ref) { return out << ref.set << "/" << ref.name; }

std::vector<FixtureRef> fixtures_with_pipelines(const std::string& task, bool models2) {
  std::vector<FixtureRef> out;
  for (const char* set : {"models", "models2"}) {
    if (std::string_view(set) == "models2" && !models2) break;
    for (const std::string& name : fixture_model_names(set)) {
      nlohmann::json g = read_json(shared(std::string("fixtures/") + set + "/" + name + "/goldens.json"));
      bool has = false;
      for (const auto& p : g.value("pipelines", nlohmann::json::array()))
        has = has || (p.contains("init") && p.at("init").value("task", "") == task);
      if (!has) continue;
      if (std::string_view(set) == "models2") {
        auto config = read_json(shared(std::string("fixtures/") + set + "/" + name + "/config.json"));
        if (!bertkit::core::find_family(config.at("model_type").get<std::string>()) || !builds_tokenizer(name, set)) continue;
      }
      out.push_back({name, set});
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

std::size_t fixture_max_length(const Fixture& fixture, const bertkit::tok::Tokenizer& tokenizer) {
  return tokenizer.spec().model_max_length.value_or(fixture.model.config.usable_positions());
}

std::unique_ptr<bertkit::tok::Tokenizer> fixture_tokenizer(const Fixture& fixture, const char* compat) {
  bertkit::cli::TokenizerFlags flags;
  flags.compat = compat;
  return bertkit::cli::build_tokenizer(flags, &fixture.model);
}

}  // namespace bktest
