// `bertkit ner` on a terminal, driven through a pseudo-terminal: each sentence typed shows its
// entities (the text with the pipeline's `first` entities marked, from the goldens, then one line per
// entity); Ctrl-D leaves with exit 0. --interactive with texts is a usage error.
#include "cli/pty_child.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using nlohmann::json;

namespace {

// The first-strategy record of `case_id` (ASCII text: its offsets are bytes too).
json first_record(const std::string& case_id) {
  const json goldens = bktest::models2_goldens("bert-cased-ner");
  for (const json& p : goldens.at("pipelines_fast"))
    if (p.at("case") == case_id && p.at("call") == json{{"aggregation_strategy", "first"}}) return p;
  FAIL("no record " << case_id);
  return {};
}

}  // namespace

TEST_CASE("ner: the interactive prompt on a terminal shows each sentence's entities") {
  const json record = first_record("ner-01");
  const std::string text = record.at("input");
  std::string marked;
  std::size_t at = 0;
  for (const json& e : record.at("output")) {
    const std::size_t start = e.at("start"), end = e.at("end");
    marked += text.substr(at, start - at) + "[" + e.at("entity_group").get<std::string>() + " " +
              text.substr(start, end - start) + "]";
    at = end;
  }
  marked += text.substr(at);
  REQUIRE(!record.at("output").empty());

  bktest::PtyChild child({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--aggregation", "first"});
  REQUIRE(child.wait_for("ner> "));
  child.type(text + "\r");
  REQUIRE_MESSAGE(child.wait_for(marked), child.seen());
  const json& last = record.at("output").back();
  const std::string last_line = fmt::format("({}-{})", last.at("start").get<std::size_t>(), last.at("end").get<std::size_t>());
  REQUIRE_MESSAGE(child.wait_for(last_line), child.seen());
  child.type("\x04");  // Ctrl-D
  child.wait_for("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", 1);  // drain until the terminal closes
  CHECK(child.exit_code() == 0);
  CHECK(child.seen().find("error") == std::string::npos);
}

TEST_CASE("ner: --interactive takes no texts and no -i") {
  auto r = bktest::run_bertkit({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--interactive", "some text"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("bertkit: error: --interactive"));
}
