// `bertkit fill-mask` end to end: texts as arguments and lines, several masks, --targets, CSV output,
// a line without a mask (file and line named), and the interactive prompt driven through a
// pseudo-terminal (line editing, :k, Ctrl-D). Expected predictions are the fixture's pipeline goldens.
#include "cli/pty_child.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cmath>

using bktest::PtyChild;
using bktest::run_bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

BKTEST_NO_DANGLING const json& pipeline_record(const json& goldens, const std::string& case_id, bool with_targets = false) {
  for (const json& p : goldens.at("pipelines"))
    if (p.at("case") == (case_id.empty() ? json(nullptr) : json(case_id)) && p.at("call").contains("targets") == with_targets)
      return p;
  FAIL("no pipeline record " << case_id);
  throw std::logic_error("unreachable");
}

// The one-mask case of bert-uncased-mlm's goldens, which the prompt tests type.
const json& one_mask_case() {
  static const json goldens = bktest::fixture_goldens("bert-uncased-mlm");
  return pipeline_record(goldens, "mlm-01");
}

void check_list(const json& got, const json& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].at("token") == expected[i].at("token"));
    CHECK(got[i].at("token_str") == expected[i].at("token_str"));
    CHECK(got[i].at("sequence") == expected[i].at("sequence"));
    CHECK(std::abs(got[i].at("score").get<double>() - expected[i].at("score").get<double>()) <= kTolerance);
  }
}

}  // namespace

TEST_CASE("fill-mask: arguments, lines, several masks and --targets give the pipeline's predictions") {
  const std::string model = bktest::fixture_path("bert-uncased-mlm");
  json g = bktest::fixture_goldens("bert-uncased-mlm");
  const json& one = pipeline_record(g, "mlm-01");
  const json& two = pipeline_record(g, "mlm-02");  // two masks: a list per mask

  auto r = run_bertkit({"fill-mask", "-m", model, one.at("input").get<std::string>()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json rec = json::parse(r.out);
  CHECK(rec.at("text") == one.at("input"));
  check_list(rec.at("predictions"), one.at("output"));

  auto lines = run_bertkit({"fill-mask", "-m", model},
                           one.at("input").get<std::string>() + "\n" + two.at("input").get<std::string>() + "\n");
  REQUIRE_MESSAGE(lines.exit_code == 0, lines.err);
  auto recs = bktest::json_lines(lines.out);
  REQUIRE(recs.size() == 2);
  check_list(recs[0].at("predictions"), one.at("output"));
  REQUIRE(recs[1].at("predictions").size() == two.at("output").size());
  for (std::size_t m = 0; m < two.at("output").size(); ++m) check_list(recs[1].at("predictions")[m], two.at("output")[m]);

  const json& targeted = pipeline_record(g, "", true);
  std::string targets;
  for (const auto& t : targeted.at("call").at("targets")) targets += (targets.empty() ? "" : ",") + t.get<std::string>();
  auto t = run_bertkit({"fill-mask", "-m", model, "--top-k", std::to_string(targeted.at("call").at("top_k").get<int>()),
                        "--targets", targets, targeted.at("input").get<std::string>()});
  REQUIRE_MESSAGE(t.exit_code == 0, t.err);
  check_list(json::parse(t.out).at("predictions"), targeted.at("output"));
}

TEST_CASE("fill-mask: CSV output, a line without a mask, usage errors") {
  const std::string model = bktest::fixture_path("distilbert-uncased-mlm");
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", "a [MASK] b\nno mask at all\nc [MASK] d\n");
  auto fail = run_bertkit({"fill-mask", "-m", model, "-i", (dir / "in.txt").string(), "--batch-size", "1", "-o",
                           (dir / "out.jsonl").string()});
  CHECK(fail.exit_code == 3);
  CHECK(fail.err.find("in.txt:2") != std::string::npos);
  CHECK(fail.err.find("[MASK]") != std::string::npos);
  CHECK(bktest::json_lines(bktest::read_file(dir / "out.jsonl")).size() == 1);

  auto skip = run_bertkit({"fill-mask", "-m", model, "-i", (dir / "in.txt").string(), "--on-error", "skip", "--format",
                           "csv", "--top-k", "2"});
  REQUIRE_MESSAGE(skip.exit_code == 0, skip.err);
  auto rows = bktest::split_lines(skip.out);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == "text,predictions,truncated,error");
  CHECK(rows[2].starts_with("no mask at all,,,"));
  CHECK(rows[1].rfind("a [MASK] b,\"[{\"\"score\"\":", 0) == 0);

  CHECK(run_bertkit({"fill-mask", "-m", model, "--top-k", "0", "[MASK]"}).exit_code == 2);
  CHECK(run_bertkit({"fill-mask", "-m", model, "--targets", ",", "[MASK]"}).exit_code == 2);
  CHECK(run_bertkit({"fill-mask", "-m", model, "--interactive", "[MASK]"}).exit_code == 2);
  auto cls = run_bertkit({"fill-mask", "-m", bktest::fixture_path("bert-cased-cls"), "[MASK]"});
  CHECK(cls.exit_code == 2);
  CHECK(cls.err.find("masked-language") != std::string::npos);
}

TEST_CASE("fill-mask: the interactive prompt on a terminal") {
  const json& one = one_mask_case();
  const json& expected = one.at("output");
  PtyChild child({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm")});
  const std::string prompt = "fill-mask> ";
  REQUIRE(child.wait_for(prompt));
  // Line editing: type the sentence with a typo, erase it (backspace), finish it. (libedit redraws
  // the prompt while editing, so the test waits for what each line prints, not for prompts.)
  auto sequence = [&](std::size_t i) { return expected[i].at("sequence").get<std::string>(); };
  child.type(one.at("input").get<std::string>() + "x\x7f\r");
  REQUIRE_MESSAGE(child.wait_for(sequence(expected.size() - 1)), child.seen());
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(child.seen().find(sequence(i)) != std::string::npos);

  child.type(":k 2\r");
  REQUIRE(child.wait_for("top-k is now 2"));
  // History: two steps up is the sentence again; now with two predictions.
  child.type("\x1b[A\x1b[A\r");
  REQUIRE_MESSAGE(child.wait_for(sequence(1), 2), child.seen());
  child.type("no mask here\r");
  REQUIRE_MESSAGE(child.wait_for("error: no mask token"), child.seen());
  const std::string after_k = child.seen().substr(child.seen().find("top-k is now 2"));
  CHECK(after_k.find(sequence(0)) != std::string::npos);
  CHECK(after_k.find(sequence(2)) == std::string::npos);

  child.type("\x04");  // Ctrl-D
  child.wait_for("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", 1);  // drain until the terminal closes
  CHECK(child.exit_code() == 0);
}

TEST_CASE("fill-mask: Ctrl-C at the prompt drops the line being typed, as shells do, Ctrl-D leaves") {
  const json& one = one_mask_case();
  const json& expected = one.at("output");
  PtyChild child({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm")});
  // The help line's newline comes before the first prompt; the dropped line's before the next one.
  const std::string fresh_prompt = "\r\nfill-mask> ";
  REQUIRE(child.wait_for(fresh_prompt));
  child.type("words to drop");
  REQUIRE(child.wait_for("words to drop"));
  child.type("\x03");  // Ctrl-C
  REQUIRE_MESSAGE(child.wait_for(fresh_prompt, 2), child.seen());
  // Had the dropped words stayed, they would begin every predicted sequence.
  child.type(one.at("input").get<std::string>() + "\r");
  for (const json& prediction : expected)
    REQUIRE_MESSAGE(child.wait_for(prediction.at("sequence").get<std::string>()), child.seen());
  CHECK(child.seen().find("error") == std::string::npos);
  child.type("\x04");  // Ctrl-D on the empty line
  child.wait_for("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", 1);  // drain until the terminal closes
  CHECK(child.exit_code() == 0);
  CHECK(child.seen().find("interrupted") == std::string::npos);
}

TEST_CASE("fill-mask: a mask past the model's token limit is reported as such, with where it is (issue 19, item 17)") {
  const auto model = bktest::shared("fixtures/models/bert-uncased-mlm").string();
  std::string text;
  for (int i = 0; i < 300; ++i) text += "word ";
  const std::size_t byte = text.size();
  text += "[MASK] end.";
  auto r = bktest::run_bertkit({"fill-mask", "-m", model, text});
  CHECK(r.exit_code == 3);
  CHECK(r.out.empty());
  auto info = nlohmann::json::parse(bktest::run_bertkit({"info", "--json", model}).out);
  const auto limit = info["tokenizer.model_max_length"].get<int>();
  // 300 words of one token each, then the mask; [CLS] and [SEP] take two of the limit's tokens.
  CHECK(r.err == "bertkit: error: <argument>:1: the mask token [MASK] is past the model's limit of " +
                     std::to_string(limit) + " tokens, which leaves room for the text's first " +
                     std::to_string(limit - 2) + " (the special tokens take 2): it is the text's token 301 (byte " +
                     std::to_string(byte) + " of the text)\n");
  // Just past the limit: the mask would be the last token, where [SEP] goes.
  auto edge = bktest::run_bertkit({"fill-mask", "-m", model, "--max-length", "3", "a [MASK]"});
  CHECK(edge.exit_code == 3);
  CHECK(edge.err == "bertkit: error: <argument>:1: the mask token [MASK] is past the model's limit of 3 tokens, which "
                    "leaves room for the text's first 1 (the special tokens take 2): it is the text's token 2 (byte 2 "
                    "of the text)\n");
  auto none = bktest::run_bertkit({"fill-mask", "-m", model, "no mask here"});
  CHECK(none.err == "bertkit: error: <argument>:1: no mask token [MASK] in the text\n");
}
