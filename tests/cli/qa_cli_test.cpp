// `bertkit qa` end to end: --question/--context, --context-file with a long document and several
// windows, JSONL and CSV records, question<TAB>context lines, --top-k lists, --compat python, and
// the errors. Expected answers are the QA fixture's pipeline goldens, loaded at run time.
#include "cli/measured_run.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cmath>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

const std::string kFixture = "bert-uncased-qa";

BKTEST_NO_DANGLING const json& fast_record(const json& g, const std::string& tag, std::size_t nth = 0) {
  for (const json& p : g.at("pipelines_fast"))
    if (p.at("tag") == tag && nth-- == 0) return p;
  FAIL("no pipelines_fast record " << tag);
  throw std::logic_error("unreachable");
}

void check_answer(const json& got, const json& expected) {
  CHECK(got.at("answer") == expected.at("answer"));
  CHECK(got.at("start") == expected.at("start"));
  CHECK(got.at("end") == expected.at("end"));
  CHECK(std::abs(got.at("score").get<double>() - expected.at("score").get<double>()) <= kTolerance);
}

// The flags that reproduce a pipelines_fast call.
std::vector<std::string> call_flags(const json& call) {
  std::vector<std::string> f{"--top-k",          std::to_string(call.at("top_k").get<int>()),
                             "--doc-stride",     std::to_string(call.at("doc_stride").get<int>()),
                             "--max-seq-length", std::to_string(call.at("max_seq_len").get<int>()),
                             "--max-answer-length", std::to_string(call.at("max_answer_len").get<int>())};
  if (call.at("handle_impossible_answer").get<bool>()) f.push_back("--handle-impossible");
  if (!call.at("align_to_words").get<bool>()) f.push_back("--no-align-to-words");
  return f;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("qa: --question and --context give the pipeline's answer, defaults are the pipeline's") {
  json g = bktest::fixture_goldens(kFixture);
  const json& p = fast_record(g, "existing", 2);
  auto r = run_bertkit({"qa", "-m", bktest::fixture_path(kFixture), "--question", p.at("input").at("question").get<std::string>(),
                        "--context", p.at("input").at("context").get<std::string>()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json rec = json::parse(r.out);
  CHECK(rec.at("question") == p.at("input").at("question"));
  CHECK(rec.at("context") == p.at("input").at("context"));
  check_answer(rec, p.at("output")[0]);
  CHECK(!rec.contains("answers"));
}

TEST_CASE("qa: a long document in --context-file, several windows, --top-k list, every pipelines_fast call") {
  json g = bktest::fixture_goldens(kFixture);
  bktest::TempDir dir;
  std::size_t checked = 0;
  for (const json& p : g.at("pipelines_fast")) {
    INFO(p.at("tag").get<std::string>() << " " << p.at("call").dump());
    bktest::write_file(dir / "context.txt", p.at("input").at("context").get<std::string>());
    auto r = run_bertkit(concat({"qa", "-m", bktest::fixture_path(kFixture), "--context-file", (dir / "context.txt").string(),
                                 p.at("input").at("question").get<std::string>()},
                                call_flags(p.at("call"))));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    json rec = json::parse(r.out);
    CHECK(!rec.contains("context"));
    const json& expected = p.at("output");
    check_answer(rec, expected[0]);
    if (p.at("call").at("top_k").get<int>() > 1) {
      REQUIRE(rec.at("answers").size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) check_answer(rec.at("answers")[i], expected[i]);
    }
    ++checked;
  }
  CHECK(checked == g.at("pipelines_fast").size());
}

TEST_CASE("qa: JSONL records, CSV records and question<TAB>context lines") {
  json g = bktest::fixture_goldens(kFixture);
  std::vector<const json*> plain;  // default-call records whose texts fit on a line
  for (const json& p : g.at("pipelines_fast")) {
    const json& c = p.at("call");
    if (c.at("top_k") != 1 || c.at("max_seq_len") != 256 || c.at("doc_stride") != 128 || !c.at("align_to_words") ||
        c.at("handle_impossible_answer") || c.at("max_answer_len") != 15)
      continue;
    plain.push_back(&p);
  }
  REQUIRE(plain.size() >= 3);
  bktest::TempDir dir;
  std::string jsonl, csv = "id,question,context\n", lines;
  std::vector<std::size_t> on_lines;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const json& in = plain[i]->at("input");
    jsonl += json{{"id", i}, {"question", in.at("question")}, {"context", in.at("context")}}.dump() + "\n";
    csv += std::to_string(i) + "," + bktest::csv_quote(in.at("question")) + "," + bktest::csv_quote(in.at("context")) + "\n";
    std::string q = in.at("question"), c = in.at("context");
    if ((q + c).find_first_of("\t\n\r") == std::string::npos) {
      lines += q + "\t" + c + "\n";
      on_lines.push_back(i);
    }
  }
  bktest::write_file(dir / "q.jsonl", jsonl);
  bktest::write_file(dir / "q.csv", csv);
  const std::string model = bktest::fixture_path(kFixture);

  auto r = run_bertkit({"qa", "-m", model, "-i", (dir / "q.jsonl").string(), "--batch-size", "2"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    CHECK(recs[i].at("id") == i);
    check_answer(recs[i], plain[i]->at("output")[0]);
  }

  auto c = run_bertkit({"qa", "-m", model, "-i", (dir / "q.csv").string(), "--format", "csv"});
  REQUIRE_MESSAGE(c.exit_code == 0, c.err);
  CHECK(c.out.rfind("id,question,context,answer,score,start,end,truncated\n", 0) == 0);
  // Every input row comes back byte for byte at the start of its output row.
  std::size_t at = 0;
  for (const auto& row : bktest::split_lines(csv)) {
    at = c.out.find(row, at);
    REQUIRE(at != std::string::npos);
  }

  REQUIRE(!on_lines.empty());
  auto l = run_bertkit({"qa", "-m", model}, lines);
  REQUIRE_MESSAGE(l.exit_code == 0, l.err);
  auto lrecs = bktest::json_lines(l.out);
  REQUIRE(lrecs.size() == on_lines.size());
  for (std::size_t k = 0; k < on_lines.size(); ++k) check_answer(lrecs[k], plain[on_lines[k]]->at("output")[0]);
}

TEST_CASE("qa: --compat python is the pipeline's slow path") {
  json g = bktest::fixture_goldens(kFixture);
  std::size_t checked = 0;
  for (const json& p : g.at("pipelines")) {
    const json& call = p.at("call");
    if (!call.contains("max_seq_len") || call.contains("handle_impossible_answer")) continue;
    auto r = run_bertkit({"qa", "-m", bktest::fixture_path(kFixture), "--compat", "python", "--question",
                          p.at("input").at("question").get<std::string>(), "--context", p.at("input").at("context").get<std::string>(), "--max-seq-length",
                          std::to_string(call.at("max_seq_len").get<int>()), "--doc-stride",
                          std::to_string(call.at("doc_stride").get<int>()), "--max-question-length",
                          std::to_string(call.at("max_question_len").get<int>()), "--top-k",
                          std::to_string(call.at("top_k").get<int>())});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    json rec = json::parse(r.out);
    const json expected = p.at("output").is_array() ? p.at("output") : json::array({p.at("output")});
    check_answer(rec, expected[0]);
    if (expected.size() > 1)
      for (std::size_t i = 0; i < expected.size(); ++i) check_answer(rec.at("answers")[i], expected[i]);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("qa: errors") {
  const std::string model = bktest::fixture_path(kFixture);
  // A question without a context.
  CHECK(run_bertkit({"qa", "-m", model, "--question", "why?"}).exit_code == 2);
  CHECK(run_bertkit({"qa", "-m", model, "--question", "why?", "--context", "a", "--context-file", "x"}).exit_code == 2);
  // A line without its context names the line.
  auto line = run_bertkit({"qa", "-m", model}, "who?\tAlice went home.\nno context here\n");
  CHECK(line.exit_code == 3);
  CHECK(line.err.find("<stdin>:2") != std::string::npos);
  CHECK(bktest::json_lines(line.out).size() == 1);
  // A question that leaves no room for the context in a window.
  std::string question;
  for (int i = 0; i < 40; ++i) question += "why ";
  auto room = run_bertkit({"qa", "-m", model, "--max-seq-length", "32", "--question", question, "--context", "Alice went home."});
  CHECK(room.exit_code == 3);
  CHECK(room.err.find("no room") != std::string::npos);
  CHECK(run_bertkit({"qa", "-m", model, "--doc-stride", "300", "--question", "q", "--context", "c"}).exit_code == 2);
  CHECK(run_bertkit({"qa", "-m", model, "--context-file", "/nonexistent/file", "q"}).exit_code == 3);
  auto mlm = run_bertkit({"qa", "-m", bktest::fixture_path("bert-uncased-mlm"), "--question", "q", "--context", "c"});
  CHECK(mlm.exit_code == 2);
  auto dry = run_bertkit({"qa", "-m", model, "--dry-run", "--context", "c"});
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("doc stride") != std::string::npos);
}

TEST_CASE("qa --context-file: a folder, an empty file, standard input and invalid UTF-8 are named as given") {
  const std::string model = bktest::fixture_path(kFixture);
  bktest::TempDir dir;
  const auto ask = [&](const std::string& file, const std::string& input = "") {
    return run_bertkit({"qa", "-m", model, "--question", "Who went home?", "--context-file", file}, input);
  };
  auto folder = ask(dir.path().string());
  CHECK(folder.exit_code == 3);
  CHECK(folder.err == "bertkit: error: " + dir.path().string() + ": is a folder, not a file\n");
  const auto empty = (dir / "empty.txt").string();
  bktest::write_file(empty, "");
  CHECK(ask(empty).err == "bertkit: error: " + empty + ": the context is empty\n");
  // "-" is standard input, the document; then the questions cannot come from it too.
  const auto doc = (dir / "doc.txt").string();
  bktest::write_file(doc, "Alice went home.");
  auto stdin_context = ask("-", "Alice went home.");
  CHECK(stdin_context.exit_code == 0);
  CHECK(stdin_context.out == ask(doc).out);
  CHECK(bktest::json_lines(stdin_context.out).size() == 1);
  auto both = run_bertkit({"qa", "-m", model, "--context-file", "-"}, "Who?\n");
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--context-file - reads the context from standard input") != std::string::npos);
  const auto bad = (dir / "bad.txt").string();
  bktest::write_file(bad, "Alice went \xff home.");
  auto replaced = ask(bad);
  CHECK(replaced.exit_code == 0);
  CHECK(replaced.err == "bertkit: warning: " + bad + ": invalid UTF-8 replaced by U+FFFD (--strict refuses it)\n");
  auto strict = run_bertkit({"qa", "-m", model, "--strict", "--question", "Who?", "--context-file", bad});
  CHECK(strict.exit_code == 3);
  CHECK(strict.err == "bertkit: error: " + bad + ": invalid UTF-8\n");
}

TEST_CASE("qa --dry-run: says that contexts are read in windows, not cut (issue 19, item 16)") {
  auto r = bktest::run_bertkit({"qa", "-m", bktest::shared("fixtures/models/bert-uncased-qa").string(), "--dry-run"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("truncation:          none (a context longer than max seq length is read in windows overlapping "
                   "by doc stride)\n") != std::string::npos);
  CHECK(r.out.find("right (longer inputs are cut") == std::string::npos);
}

TEST_CASE("qa: many questions about one long document hold a batch of windows, not every question's (issue 30)") {
  // 42 KB of news, read in ~800 windows of 32 tokens per question: before, a batch of 24 questions held
  // all their windows at once (~19,000); now a batch stops taking questions at 16 windows per question
  // of --batch-size (1,024), and the document is tokenized once for all of them.
  bktest::TempDir dir;
  std::string context;
  for (const std::string& line : bktest::read_lines(bktest::shared("corpora/en_agnews.txt"))) {
    if (context.size() > 42000) break;
    context += line + " ";
  }
  bktest::write_file(dir / "context.txt", context);
  std::string questions;
  for (int i = 0; i < 24; ++i) questions += "What happened in week " + std::to_string(i) + "?\n";
  bktest::write_file(dir / "questions.txt", questions);
  const std::vector<std::string> args{"qa", "-m", bktest::fixture_path(kFixture), "--context-file",
                                      (dir / "context.txt").string(), "--max-seq-length", "32", "--doc-stride", "8"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = args;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  auto one = bktest::run_measured(with({"--question", "What happened in week 0?"}), dir);
  auto many = bktest::run_measured(with({"-i", (dir / "questions.txt").string()}), dir);
  INFO(one.err, many.err);
  REQUIRE(one.exit_code == 0);
  REQUIRE(many.exit_code == 0);
  const auto lines = bktest::split_lines(many.out);
  REQUIRE(lines.size() == 24);
  CHECK(lines[0] + "\n" == one.out);
  MESSAGE("qa, 42 KB context: 1 question " << one.peak_rss_kb / 1024 << " MB, 24 questions " << many.peak_rss_kb / 1024
                                           << " MB");
  if (bktest::kMeasured) CHECK(many.peak_rss_kb < one.peak_rss_kb + 12 * 1024);
}
