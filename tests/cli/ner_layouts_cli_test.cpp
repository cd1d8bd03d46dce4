// `bertkit ner --format conll` and `--format inline` end to end, exact output for the short sentences
// of the NER fixtures. Inline: the text with the pipeline's `first` entities (pipelines_fast) marked.
// CoNLL: each word of the tokenizer with the label of its first token, from the recorded logits of
// ner_windows; each word's entity type is checked against the `first` records with every label kept.
// Words are the tokenizer's: in "Ham\u00adburg" (a soft hyphen) too, where the pipeline sees a piece.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

// The byte where code point `n` of `s` starts (the goldens' offsets are Python's, in code points).
std::size_t byte_at(const std::string& s, std::size_t n) {
  std::size_t i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n-- == 0) break;
  return i;
}

std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string chars(const std::string& s, std::size_t begin, std::size_t end) {
  const std::size_t from = byte_at(s, begin);
  return s.substr(from, byte_at(s, end) - from);
}

// The `first` records of the short sentences (ner-NN), in case order: {case, text, output}.
std::vector<json> first_records(const json& goldens, const json& call) {
  std::vector<json> out;
  for (const json& p : goldens.at("pipelines_fast"))
    if (p.at("call") == call && p.at("case").get<std::string>().starts_with("ner-")) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const json& a, const json& b) { return a.at("case") < b.at("case"); });
  REQUIRE(out.size() >= 10);
  return out;
}

// As inline output writes text: tab, newline, carriage return and backslash escaped, so a text is a line.
std::string one_line(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\\') out += "\\\\";
    else out += c;
  }
  return out;
}

std::string jsonl_texts(const std::vector<json>& records) {
  std::string in;
  for (const json& r : records) in += json{{"text", r.at("input")}}.dump() + "\n";
  return in;
}

std::string run_ok(const std::vector<std::string>& args, const std::string& input) {
  auto r = run_bertkit(args, input);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

const char* const kFixtures[] = {"bert-cased-ner", "distilbert-uncased-ner", "electra-ner"};

}  // namespace

TEST_CASE("ner --format inline: the text with the first-strategy entities marked") {
  for (const char* name : kFixtures) {
    INFO(name);
    const auto records = first_records(bktest::models2_goldens(name), {{"aggregation_strategy", "first"}});
    std::string expected;
    for (const json& r : records) {
      const std::string text = r.at("input");
      std::size_t at = 0;  // code points
      for (const json& e : r.at("output")) {
        const std::size_t start = e.at("start"), end = e.at("end");
        expected += one_line(chars(text, at, start)) + "[" + e.at("entity_group").get<std::string>() + " " +
                    one_line(chars(text, start, end)) + "]";
        at = end;
      }
      expected += one_line(chars(text, at, text.size())) + "\n";
    }
    const std::string in = jsonl_texts(records);
    CHECK(run_ok({"ner", "-m", bktest::models2_path(name), "--jsonl", "--format", "inline", "--aggregation", "first"}, in) ==
          expected);
    // --aggregation none marks words, as first does.
    CHECK(run_ok({"ner", "-m", bktest::models2_path(name), "--jsonl", "--format", "inline"}, in) == expected);
  }
}

TEST_CASE("ner --format conll: a word per line with its label, a blank line after each text") {
  for (const char* name : kFixtures) {
    INFO(name);
    const json goldens = bktest::models2_goldens(name);
    std::vector<std::string> id2label;
    const json config = bktest::read_json(bktest::shared("fixtures/models2/" + std::string(name) + "/config.json"));
    for (std::size_t i = 0; i < config.at("id2label").size(); ++i)
      id2label.push_back(config.at("id2label").at(std::to_string(i)));
    std::map<std::string, json> windows;  // by case: the one window of the short sentences
    for (const json& w : goldens.at("ner_windows"))
      if (w.at("stride").is_null()) windows[w.at("case")] = w.at("windows").at(0);

    const auto records = first_records(goldens, {{"aggregation_strategy", "first"}, {"ignore_labels", json::array()}});
    std::string expected, expected_all;
    for (const json& r : records) {
      const std::string text = r.at("input");
      const json& w = windows.at(r.at("case"));
      const json& tokens = w.at("tokens");
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (w.at("special_tokens_mask")[i] == 1) continue;
        // WordPiece: a word is its first token and the "##" tokens after it.
        std::size_t end = i + 1;
        while (end < tokens.size() && w.at("special_tokens_mask")[end] == 0 &&
               tokens[end].get<std::string>().starts_with("##"))
          ++end;
        const std::vector<float> logits = w.at("logits")[i];
        const std::string label = id2label[static_cast<std::size_t>(std::max_element(logits.begin(), logits.end()) - logits.begin())];
        const std::size_t start = w.at("offsets")[i][0];
        const std::string word = chars(text, start, w.at("offsets")[end - 1][1]);
        // The word's type is that of the pipeline's entity holding it, where the pipeline sees the word
        // too: it takes a token whose text is shorter than its span (a soft hyphen removed by the
        // normaliser) for a piece of the previous word.
        const std::size_t span = w.at("offsets")[i][1].get<std::size_t>() - start;
        const bool pipeline_word = code_points(tokens[i].get<std::string>()) == span;
        for (const json& e : r.at("output"))
          if (pipeline_word && e.at("start") <= start && start < e.at("end")) {
            const std::size_t dash = label.rfind('-');
            CHECK(e.at("entity_group") == (dash == std::string::npos ? label : label.substr(dash + 1)));
          }
        expected += word + "\t" + label + "\n";
        expected_all += word + "\t" + label + "\n";
        i = end - 1;
      }
      expected += "\n";
      expected_all += "\n";
    }
    const std::string in = jsonl_texts(records);
    CHECK(run_ok({"ner", "-m", bktest::models2_path(name), "--jsonl", "--format", "conll"}, in) == expected);
    CHECK(run_ok({"ner", "-m", bktest::models2_path(name), "--jsonl", "--format", "conll", "--aggregation", "first",
                  "--ignore-labels", ""}, in) == expected_all);
  }
}

TEST_CASE("ner --format conll: ignored labels are written O, -o FILE.conll picks the layout") {
  const std::string text = "Angela Merkel met Emmanuel Macron in Paris on Tuesday.";
  const std::string all = run_ok({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "conll", "--ignore-labels", "", text}, "");
  std::string without_per;
  for (const std::string& line : bktest::split_lines(all)) {
    const auto tab = line.find('\t');
    const bool per = tab != std::string::npos && line.substr(tab + 1).ends_with("-PER");
    without_per += (per ? line.substr(0, tab) + "\tO" : line) + "\n";
  }
  CHECK(run_ok({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "conll", "--ignore-labels", "B-PER,I-PER", text},
               "") == without_per);
  bktest::TempDir dir;
  const std::string file = (dir.path() / "out.conll").string();
  run_ok({"ner", "-m", bktest::models2_path("bert-cased-ner"), "-o", file, "--ignore-labels", "", text}, "");
  CHECK(bktest::read_file(file) == all);
  // --dry-run says which layout, and that none labels words as first does.
  const std::string dry = run_ok({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "inline", "--dry-run", text}, "");
  CHECK(dry.find("inline (the entities of first marked in the text)") != std::string::npos);
}
