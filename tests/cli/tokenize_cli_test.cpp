// `bertkit tokenize` end to end: the built binary, its formats, inputs, flags, threads, bad input and a
// closed stdout. Token ids of made-up texts were computed with the reference library (npm tokenizers
// 0.23.2) or come from the golden files, loaded at run time.
#include "cli/piped_child.h"
#include "support.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>

using bktest::run_bertkit;
using nlohmann::json;

namespace {





// English corpus lines (real, messy text) for the bulk tests.
std::vector<std::string> corpus_lines(std::size_t n, bool ascii_only = false) {
  std::vector<std::string> out;
  for (const char* name :
       {"corpora/en_agnews.txt", "corpora/man_en_dev.txt", "corpora/fortunes_en_min.txt", "corpora/en_sst2_dev.txt"}) {
    for (auto& line : bktest::read_lines(bktest::shared(name))) {
      if (ascii_only && !std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) continue;
      out.push_back(line);
      if (out.size() == n) return out;
    }
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

const std::string kTen = "one two three four five six seven eight nine ten";

}  // namespace

TEST_CASE("tokenize: default jsonl record with every field") {
  auto r = run_bertkit({"tokenize", "Hello world"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == 1);
  const json& j = recs[0];
  CHECK(j["text"] == "Hello world");
  CHECK(j["ids"] == json::parse("[101, 7592, 2088, 102]"));
  CHECK(j["tokens"] == json::parse(R"(["[CLS]", "hello", "world", "[SEP]"])"));
  CHECK(j["type_ids"] == json::parse("[0, 0, 0, 0]"));
  CHECK(j["attention_mask"] == json::parse("[1, 1, 1, 1]"));
  CHECK(j["offsets"] == json::parse("[[0, 0], [0, 5], [6, 11], [0, 0]]"));
  CHECK_FALSE(j.contains("overflowing"));
}

TEST_CASE("tokenize: --format tokens, ids, tsv, and several texts in order") {
  auto r = run_bertkit({"tokenize", "--format", "tokens", "Hello world", "unaffable"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "[CLS] hello world [SEP]\n[CLS] una ##ffa ##ble [SEP]\n");
  r = run_bertkit({"tokenize", "--format", "ids", "Hello world"});
  CHECK(r.out == "101 7592 2088 102\n");
  r = run_bertkit({"tokenize", "--format", "tsv", "Hello world"});
  REQUIRE(r.exit_code == 0);
  auto lines = bktest::split_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "text\tids\ttokens\toffsets");
  CHECK(lines[1] == "Hello world\t101 7592 2088 102\t[CLS] hello world [SEP]\t0:0 0:5 6:11 0:0");
  r = run_bertkit({"tokenize", "--format", "xml", "x"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("--format") != std::string::npos);
}

TEST_CASE("tokenize: --offsets chars or bytes") {
  const std::string text = "H\xC3\xA9llo w\xC3\xB6rld \xF0\x9F\x98\x80!";  // Héllo wörld 😀!
  auto chars = bktest::json_lines(run_bertkit({"tokenize", text}).out).at(0);
  CHECK(chars["offsets"] == json::parse("[[0, 0], [0, 5], [6, 11], [12, 13], [13, 14], [0, 0]]"));
  auto bytes = bktest::json_lines(run_bertkit({"tokenize", "--offsets", "bytes", text}).out).at(0);
  CHECK(bytes["offsets"] == json::parse("[[0, 0], [0, 6], [7, 13], [14, 18], [18, 19], [0, 0]]"));
  CHECK(run_bertkit({"tokenize", "--offsets", "words", text}).exit_code == 2);
}

TEST_CASE("tokenize: --pairs from stdin, type ids and offsets into each text") {
  // Reference ids for this pair: npm tokenizers 0.23.2 on bert-base-uncased.
  auto r = run_bertkit({"tokenize", "--pairs"}, "H\xC3\xA9llo w\xC3\xB6rld\t\xC3\x87" "a va? Tr\xC3\xA8s bien.\n");
  REQUIRE(r.exit_code == 0);
  auto j = bktest::json_lines(r.out).at(0);
  CHECK(j["text_pair"] == "\xC3\x87" "a va? Tr\xC3\xA8s bien.");
  CHECK(j["ids"] == json::parse("[101, 7592, 2088, 102, 6187, 12436, 1029, 24403, 29316, 1012, 102]"));
  CHECK(j["type_ids"] == json::parse("[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]"));
  CHECK(j["offsets"] == json::parse("[[0,0],[0,5],[6,11],[0,0],[0,2],[3,5],[5,6],[7,11],[12,16],[16,17],[0,0]]"));
  // A line without a tab is an error naming the line.
  r = run_bertkit({"tokenize", "--pairs"}, "a\tb\nno tab here\n");
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("<stdin>:2") != std::string::npos);
  r = run_bertkit({"tokenize", "--pairs", "--format", "tsv"}, "a\tb\n");
  CHECK(bktest::split_lines(r.out).at(0) == "text\ttext_pair\tids\ttokens\toffsets");
}

TEST_CASE("tokenize: stdin streams, -i takes several files, records stay in order") {
  bktest::TempDir dir;
  bktest::write_file(dir / "a.txt", "one\ntwo\n");
  bktest::write_file(dir / "b.txt", "three\n");
  auto r = run_bertkit({"tokenize", "--format", "tokens", "-i", (dir / "a.txt").string(), "-i", (dir / "b.txt").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "[CLS] one [SEP]\n[CLS] two [SEP]\n[CLS] three [SEP]\n");
  // "-" is stdin, between files.
  r = run_bertkit({"tokenize", "--format", "tokens", "-i", (dir / "b.txt").string(), "-i", "-"}, "four\n");
  CHECK(r.out == "[CLS] three [SEP]\n[CLS] four [SEP]\n");
  // Texts and -i together are refused; -i takes one file, so the text after it is not read as a file.
  for (auto args : {std::vector<std::string>{"tokenize", "-i", (dir / "a.txt").string(), "x"},
                    std::vector<std::string>{"tokenize", "x", "-i", (dir / "a.txt").string()}}) {
    r = run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find("not both") != std::string::npos);
  }
}

TEST_CASE("tokenize: output appears as stdin lines arrive (streaming)") {
  bktest::PipedChild child({"tokenize", "--format", "ids"});
  // Each line's record must come back while stdin is still open; a generous deadline only turns a
  // hang into a failure.
  child.write_input("hello\n");
  CHECK(child.read_line(std::chrono::seconds(60)) == "101 7592 102");
  child.write_input("world\n");
  CHECK(child.read_line(std::chrono::seconds(60)) == "101 2088 102");
  CHECK(child.finish() == 0);
}

TEST_CASE("tokenize: --count") {
  auto r = run_bertkit({"tokenize", "--count", "Hello world", "unaffable"});
  REQUIRE(r.exit_code == 0);
  auto recs = bktest::json_lines(r.out);
  CHECK(recs.at(0)["count"] == 4);
  CHECK(recs.at(1)["count"] == 5);
  CHECK(recs.at(0)["text"] == "Hello world");
  CHECK_FALSE(recs.at(0).contains("ids"));
  r = run_bertkit({"tokenize", "--count", "--format", "ids", "--no-special-tokens", "Hello world"});
  CHECK(r.out == "2\n");
  r = run_bertkit({"tokenize", "--count", "--format", "tokens", "--pairs"}, "a b\tc\n");
  CHECK(r.out == "6\n");
}

TEST_CASE("tokenize: --decode, and ids -> text -> ids round trips on ASCII text") {
  auto r = run_bertkit({"tokenize", "--decode"}, "101 7592 1010 2088 999 102\n");
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::json_lines(r.out).at(0)["text"] == "[CLS] hello, world! [SEP]");
  r = run_bertkit({"tokenize", "--decode", "--skip-special-tokens", "--format", "tokens"}, "[101, 7592, 1010, 2088, 999, 102]\n");
  CHECK(r.out == "hello, world!\n");
  r = run_bertkit({"tokenize", "--decode"}, "101 banana 102\n");
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("<stdin>:1") != std::string::npos);
  r = run_bertkit({"tokenize", "--decode"}, "101 999999 102\n");
  CHECK(r.exit_code == 3);

  // News prose (SST-2's pre-split "do n't" would come back as "don't", as Hugging Face's clean-up does).
  std::string text = join_lines(corpus_lines(500, true));
  auto ids = run_bertkit({"tokenize", "--format", "ids", "--no-special-tokens"}, text);
  REQUIRE(ids.exit_code == 0);
  auto decoded = run_bertkit({"tokenize", "--decode", "--format", "tokens"}, ids.out);
  REQUIRE(decoded.exit_code == 0);
  CHECK(bktest::count_lines(decoded.out) == bktest::count_lines(text));
  auto again = run_bertkit({"tokenize", "--format", "ids", "--no-special-tokens"}, decoded.out);
  REQUIRE(again.exit_code == 0);
  auto want = bktest::split_lines(ids.out), got = bktest::split_lines(again.out);
  REQUIRE(want.size() == got.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i] != got[i]) {
      if (differ++ < 3) MESSAGE("line " << i + 1 << ": " << want[i] << " vs " << got[i]);
    }
  CHECK(differ == 0);
}

TEST_CASE("tokenize: --max-length, --truncation, --stride with overflowing windows in JSONL") {
  auto r = run_bertkit({"tokenize", "--max-length", "6", "--stride", "2", kTen});
  REQUIRE(r.exit_code == 0);
  auto j = bktest::json_lines(r.out).at(0);
  CHECK(j["tokens"] == json::parse(R"(["[CLS]", "one", "two", "three", "four", "[SEP]"])"));
  REQUIRE(j["overflowing"].size() == 3);
  CHECK(j["overflowing"][0]["tokens"] == json::parse(R"(["[CLS]", "three", "four", "five", "six", "[SEP]"])"));
  CHECK(j["overflowing"][2]["offsets"] == json::parse("[[0, 0], [28, 33], [34, 39], [40, 44], [45, 48], [0, 0]]"));
  // only_second with pairs; the windows carry the first text whole.
  r = run_bertkit({"tokenize", "--pairs", "--max-length", "10", "--truncation", "only_second", "--stride", "2",
                   "--format", "tokens"},
                  "red green blue\t" + kTen + "\n");
  CHECK(r.out == "[CLS] red green blue [SEP] one two three four [SEP]\n"
                 "[CLS] red green blue [SEP] three four five six [SEP]\n"
                 "[CLS] red green blue [SEP] five six seven eight [SEP]\n"
                 "[CLS] red green blue [SEP] seven eight nine ten [SEP]\n");
  r = run_bertkit({"tokenize", "--pairs", "--max-length", "10", "--truncation", "only_second", "--stride", "2"},
                  "red green blue\t" + kTen + "\n");
  CHECK(bktest::json_lines(r.out).at(0)["overflowing"].size() == 3);
  // left side
  r = run_bertkit({"tokenize", "--max-length", "6", "--truncation-side", "left", "--format", "tokens", kTen});
  CHECK(r.out == "[CLS] seven eight nine ten [SEP]\n");
  // Errors: a stride without truncation, a strategy that does not exist, a budget too small.
  r = run_bertkit({"tokenize", "--stride", "2", kTen});
  CHECK(r.exit_code == 2);
  CHECK(bktest::count_lines(r.err) == 1);
  r = run_bertkit({"tokenize", "--max-length", "6", "--truncation", "shortest", kTen});
  CHECK(r.exit_code == 2);
  r = run_bertkit({"tokenize", "--max-length", "1", kTen});
  CHECK(r.exit_code == 2);
  r = run_bertkit({"tokenize", "--max-length", "abc", kTen});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
}

// Unpadded ids, tokens and jsonl are encoded by the task itself, not the pipeline: a record the tokenizer
// refuses still stops the output right after the records before it in its batch, naming its line, with
// the status of its error (bad input 3, usage 2), in every format.
TEST_CASE("tokenize: a record the tokenizer refuses ends the output after the records before it") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.tsv", "red\tgreen\none two three four five six\tseven\nblue\tgray\n");
  const std::string in = (dir / "in.tsv").string();
  for (const char* format : {"ids", "tokens", "jsonl", "tsv"}) {
    CAPTURE(format);
    // The second pair's text_pair is too short for only_second to cut it to the length.
    auto r = run_bertkit({"--threads", "2", "tokenize", "--pairs", "--input-format", "lines", "--format", format,
                          "--max-length", "5", "--truncation", "only_second", "-i", in});
    CHECK(r.exit_code == 3);
    CHECK(r.err == "bertkit: error: " + in + ":2: the second text is too short to truncate: 5 tokens must go but it has 1\n");
    const std::size_t header = std::string(format) == "tsv" ? 1 : 0;
    CHECK(bktest::count_lines(r.out) == header + 1);
    CHECK(r.out.find(std::string(format) == "ids" ? "2417" : "red") != std::string::npos);  // the first pair
    // A usage error of the second record (a stride its window has no room for) is status 2.
    r = run_bertkit({"tokenize", "--format", format, "--max-length", "5", "--stride", "4", "-i", in, "--pairs",
                     "--input-format", "lines"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(in + ":2: the stride (4) must be smaller") != std::string::npos);
    CHECK(bktest::count_lines(r.out) == header + 1);
  }
  // In a batch of more than 64 records, rendered by threads ahead of writing, the same: every record
  // before the refused one, then the error.
  std::string many;
  for (int i = 0; i < 99; ++i) many += i == 79 ? "one two three four five six\tseven\n" : "red\tgreen\n";
  bktest::write_file(dir / "many.tsv", many);
  const std::string many_in = (dir / "many.tsv").string();
  for (const char* threads : {"1", "2"})
    for (const char* format : {"ids", "tokens", "jsonl"}) {
      CAPTURE(threads);
      CAPTURE(format);
      auto r = run_bertkit({"--threads", threads, "tokenize", "--pairs", "--input-format", "lines", "--format", format,
                            "--max-length", "5", "--truncation", "only_second", "-i", many_in});
      CHECK(r.exit_code == 3);
      CHECK(r.err.find(many_in + ":80: the second text is too short") != std::string::npos);
      CHECK(bktest::count_lines(r.out) == 79);
    }
}

// Every window a model would see is in every format: JSONL nests them under "overflowing", the line
// formats give each its own line (row), right after the input's first window.
TEST_CASE("tokenize: --stride windows are lines of their own in ids, tokens and tsv") {
  const std::vector<std::string> stride{"tokenize", "--max-length", "6", "--stride", "2"};
  const std::string input = kTen + "\nshort one\n";
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = stride;
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_bertkit(args, input);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    return r.out;
  };
  CHECK(with({"--format", "tokens"}) ==
        "[CLS] one two three four [SEP]\n"
        "[CLS] three four five six [SEP]\n"
        "[CLS] five six seven eight [SEP]\n"
        "[CLS] seven eight nine ten [SEP]\n"
        "[CLS] short one [SEP]\n");
  CHECK(with({"--format", "tsv"}) ==
        "text\tids\ttokens\toffsets\n" +
            kTen + "\t101 2028 2048 2093 2176 102\t[CLS] one two three four [SEP]\t0:0 0:3 4:7 8:13 14:18 0:0\n" +
            kTen + "\t101 2093 2176 2274 2416 102\t[CLS] three four five six [SEP]\t0:0 8:13 14:18 19:23 24:27 0:0\n" +
            kTen + "\t101 2274 2416 2698 2809 102\t[CLS] five six seven eight [SEP]\t0:0 19:23 24:27 28:33 34:39 0:0\n" +
            kTen + "\t101 2698 2809 3157 2702 102\t[CLS] seven eight nine ten [SEP]\t0:0 28:33 34:39 40:44 45:48 0:0\n" +
            "short one\t101 2460 2028 102\t[CLS] short one [SEP]\t0:0 0:5 6:9 0:0\n");
  // The ids lines are the windows JSONL holds, in the same order.
  std::string want;
  auto add = [&](const json& window) {
    std::string line;
    for (const auto& id : window["ids"]) line += (line.empty() ? "" : " ") + std::to_string(id.get<int>());
    want += line + "\n";
  };
  for (const json& record : bktest::json_lines(with({}))) {
    add(record);
    for (const json& window : record.value("overflowing", json::array())) add(window);
  }
  CHECK(bktest::count_lines(want) == 5);
  CHECK(with({"--format", "ids"}) == want);
}

TEST_CASE("tokenize: --padding longest (within a batch) and max_length, right or left") {
  auto r = run_bertkit({"tokenize", "--padding", "max_length", "--max-length", "6", "--format", "ids", "hello"});
  CHECK(r.out == "101 7592 102 0 0 0\n");
  auto j = bktest::json_lines(run_bertkit({"tokenize", "--padding", "max_length", "--max-length", "6", "--padding-side", "left", "hello"}).out).at(0);
  CHECK(j["ids"] == json::parse("[0, 0, 0, 101, 7592, 102]"));
  CHECK(j["attention_mask"] == json::parse("[0, 0, 0, 1, 1, 1]"));
  CHECK(j["offsets"] == json::parse("[[0,0],[0,0],[0,0],[0,0],[0,5],[0,0]]"));
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", "hello\none two three\n");
  r = run_bertkit({"tokenize", "--padding", "longest", "--format", "ids", "-i", (dir / "in.txt").string()});
  CHECK(r.out == "101 7592 102 0 0\n101 2028 2048 2093 102\n");
  CHECK(run_bertkit({"tokenize", "--padding", "max_length", "hello"}).exit_code == 2);
  CHECK(run_bertkit({"tokenize", "--padding", "sideways", "hello"}).exit_code == 2);
}

TEST_CASE("tokenize: --no-special-tokens") {
  auto r = run_bertkit({"tokenize", "--no-special-tokens", "--format", "tokens", "Hello world"});
  CHECK(r.out == "hello world\n");
  r = run_bertkit({"tokenize", "--no-special-tokens", "--pairs"}, "a\tb\n");
  auto j = bktest::json_lines(r.out).at(0);
  CHECK(j["type_ids"] == json::parse("[0, 1]"));
}

TEST_CASE("tokenize: -m with a fixture folder, a tokenizer.json or a vocab.txt, and case overrides") {
  const std::string cased_dir = bktest::shared("fixtures/models/bert-cased-cls").string();
  const std::string cased_json = bktest::shared("vocab/bert-base-cased/tokenizer.json").string();
  const std::string cased_vocab = bktest::shared("vocab/bert-base-cased/vocab.txt").string();
  const std::string uncased_dir = bktest::shared("fixtures/models/bert-uncased-mlm").string();
  auto tokens = [](std::vector<std::string> args) {
    args.insert(args.begin(), {"tokenize", "--format", "tokens"});
    auto r = run_bertkit(args);
    CHECK(r.exit_code == 0);
    return r.out;
  };
  CHECK(tokens({"-m", cased_dir, "Hello World"}) == "[CLS] Hello World [SEP]\n");
  CHECK(tokens({"-m", cased_json, "Hello World"}) == "[CLS] Hello World [SEP]\n");
  // A bare vocab.txt gets BertTokenizer's defaults: lower-casing on.
  CHECK(tokens({"-m", cased_vocab, "Hello World"}) == "[CLS] hello world [SEP]\n");
  CHECK(tokens({"-m", cased_vocab, "--no-lowercase", "Hello World"}) == "[CLS] Hello World [SEP]\n");
  CHECK(tokens({"-m", cased_json, "--lowercase", "Hello World"}) == "[CLS] hello world [SEP]\n");
  CHECK(tokens({"-m", uncased_dir, "--no-lowercase", "Hello"}) == "[CLS] [UNK] [SEP]\n");
  // Accents follow lower-casing unless overridden.
  CHECK(tokens({"-m", cased_json, "--lowercase", "--no-strip-accents", "caf\xC3\xA9"}) == tokens({"-m", cased_json, "caf\xC3\xA9"}));
  CHECK(tokens({"-m", uncased_dir, "\xE4\xB8\xAD\xE6\x96\x87"}) == "[CLS] \xE4\xB8\xAD \xE6\x96\x87 [SEP]\n");
}

TEST_CASE("tokenize: --compat python against a recorded difference of the slow tokenizer") {
  // The first golden line of bert-base-cased where the slow tokenizer's ids differ (loaded, not pasted).
  std::optional<json> rec;
  for (const auto& entry : std::filesystem::directory_iterator(bktest::shared("corpora/golden/bert-base-cased"))) {
    for (const auto& line : bktest::read_lines(entry.path())) {
      json j = json::parse(line);
      if (!j.contains("text") || !j.contains("python") || !j["python"].contains("ids")) continue;
      std::string t = j["text"].get<std::string>();
      if (t.find_first_of(std::string("\n\r\0", 3)) != std::string::npos || t.find('\t') != std::string::npos) continue;
      rec = j;
      break;
    }
    if (rec) break;
  }
  REQUIRE(rec);
  const std::string model = bktest::shared("vocab/bert-base-cased/tokenizer.json").string();
  const std::string text = (*rec)["text"].get<std::string>();
  auto fast = bktest::json_lines(run_bertkit({"tokenize", "-m", model, "--", text}).out).at(0);
  auto slow = bktest::json_lines(run_bertkit({"tokenize", "-m", model, "--compat", "python", "--", text}).out).at(0);
  CHECK(fast["ids"] == (*rec)["ids"]);
  CHECK(slow["ids"] == (*rec)["python"]["ids"]);
  CHECK(run_bertkit({"tokenize", "--compat", "java", "x"}).exit_code == 2);
}

TEST_CASE("tokenize: a character newer than Unicode 15.0 is tokenized the same with every utf8proc") {
  // U+2EBF0 (CJK Extension I, Unicode 15.1, in Debian 13's utf8proc) is unassigned to the slow
  // tokenizer's Python 3.11 (Unicode 14.0), whose clean-up deletes it, as bertkit does on Debian 12.
  const std::string model = bktest::shared("vocab/bert-base-uncased/tokenizer.json").string();
  auto slow = [&](const std::string& text) {
    return run_bertkit({"tokenize", "-m", model, "--compat", "python", "--format", "ids", "--", text}).out;
  };
  CHECK(slow("an \xF0\xAE\xAF\xB0" "apple") == slow("an apple"));
  CHECK(slow("an \xF0\xAE\xAF\xB0" "apple") != slow("an \xE4\xB8\x80" "apple"));  // U+4E00, assigned: kept
}

TEST_CASE("tokenize: --threads N before or after the subcommand gives the same output as 1 thread" * doctest::test_suite("threads")) {
  bktest::TempDir dir;
  auto lines = corpus_lines(4000);
  REQUIRE(lines.size() >= 3000);
  bktest::write_file(dir / "in.txt", join_lines(lines));
  const std::string in = (dir / "in.txt").string();
  auto one = run_bertkit({"--threads", "1", "tokenize", "-i", in});
  REQUIRE(one.exit_code == 0);
  CHECK(bktest::count_lines(one.out) == lines.size());
  auto before = run_bertkit({"--threads", "3", "tokenize", "-i", in});
  auto after = run_bertkit({"tokenize", "-i", in, "--threads", "2"});
  CHECK(before.exit_code == 0);
  CHECK(after.exit_code == 0);
  CHECK(before.out == one.out);
  CHECK(after.out == one.out);
  auto pairs_one = run_bertkit({"--threads", "1", "tokenize", "--format", "tsv", "--pairs", "-i", "-"}, [&] {
    std::string s;
    for (std::size_t i = 0; i + 1 < lines.size(); i += 2) s += lines[i] + "\t" + lines[i + 1] + "\n";
    return s;
  }());
  CHECK(pairs_one.exit_code == 0);
}

TEST_CASE("tokenize: invalid UTF-8 is replaced with one warning, or refused with --strict") {
  const std::string input = "fine\nbad \xFF here\nok\nalso \xC3 bad\n";
  auto r = run_bertkit({"tokenize", "--format", "tokens"}, input);
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::count_lines(r.out) == 4);
  CHECK(bktest::split_lines(r.out).at(1) == "[CLS] bad here [SEP]");  // U+FFFD is dropped by clean_text
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("<stdin>:2") != std::string::npos);
  CHECK(r.err.find("2 lines") != std::string::npos);
  auto j = bktest::json_lines(run_bertkit({"tokenize"}, input).out).at(1);
  CHECK(j["text"] == "bad \xEF\xBF\xBD here");
  // --quiet silences the warning.
  CHECK(run_bertkit({"--quiet", "tokenize"}, input).err.empty());
  r = run_bertkit({"tokenize", "--strict"}, input);
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("<stdin>:2") != std::string::npos);
  CHECK(r.err.find("UTF-8") != std::string::npos);
  // Arguments too.
  r = run_bertkit({"tokenize", "--strict", "ok", "bad \xFF"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("<argument>:2") != std::string::npos);
  r = run_bertkit({"tokenize", "--format", "tokens", "ok", "bad \xFF"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("<argument>:2") != std::string::npos);
}

TEST_CASE("tokenize: NUL bytes, empty lines, CRLF and a UTF-8 BOM") {
  auto r = run_bertkit({"tokenize", "--format", "tokens"}, std::string("a\0b c\n", 6));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "[CLS] ab c [SEP]\n");
  auto j = bktest::json_lines(run_bertkit({"tokenize"}, std::string("a\0b\n", 4)).out).at(0);
  CHECK(j["text"] == std::string("a\0b", 3));
  CHECK(j["offsets"] == json::parse("[[0, 0], [0, 3], [0, 0]]"));
  // Every line is a record, empty ones too; a last line without '\n' counts.
  r = run_bertkit({"tokenize", "--format", "tokens"}, "one\n\ntwo\n\nthree");
  CHECK(r.out == "[CLS] one [SEP]\n[CLS] [SEP]\n[CLS] two [SEP]\n[CLS] [SEP]\n[CLS] three [SEP]\n");
  // CRLF: the CR is not part of the text.
  auto recs = bktest::json_lines(run_bertkit({"tokenize"}, "hello\r\nworld\r\n").out);
  REQUIRE(recs.size() == 2);
  CHECK(recs[0]["text"] == "hello");
  CHECK(recs[1]["offsets"] == json::parse("[[0, 0], [0, 5], [0, 0]]"));
  // A BOM at the start of the input is not text.
  recs = bktest::json_lines(run_bertkit({"tokenize"}, "\xEF\xBB\xBFhello\n").out);
  CHECK(recs.at(0)["text"] == "hello");
  CHECK(recs.at(0)["offsets"] == json::parse("[[0, 0], [0, 5], [0, 0]]"));
}

TEST_CASE("tokenize: a line of tens of MB") {
  std::string line;
  line.reserve(30u << 20);
  while (line.size() < (30u << 20)) line += "hello world, ";
  const std::size_t words = line.size() / 13 * 3;  // "hello", "world", ","
  bktest::TempDir dir;
  bktest::write_file(dir / "long.txt", "short\n" + line + "\nend\n");
  auto r = run_bertkit({"tokenize", "--count", "--format", "ids", "-i", (dir / "long.txt").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == fmt::format("3\n{}\n3\n", words + 2));
  CHECK(r.err.empty());
}

TEST_CASE("tokenize: a missing file, a bad flag value and a malformed vocabulary give one clear line") {
  bktest::TempDir dir;
  auto r = run_bertkit({"tokenize", "-i", (dir / "missing.txt").string()});
  CHECK(r.exit_code != 0);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("missing.txt") != std::string::npos);
  CHECK(r.out.empty());

  r = run_bertkit({"tokenize", "--batch-size", "0", "x"});
  CHECK(r.exit_code == 2);
  r = run_bertkit({"tokenize", "--no-such-flag", "x"});
  CHECK(r.exit_code == 2);

  bktest::write_file(dir / "empty.txt", "");
  r = run_bertkit({"tokenize", "-m", (dir / "empty.txt").string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("empty") != std::string::npos);
  bktest::write_file(dir / "dup.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\nhello\n");
  r = run_bertkit({"tokenize", "-m", (dir / "dup.txt").string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("dup.txt:6: duplicate token 'hello'") != std::string::npos);
  bktest::write_file(dir / "nounk.txt", "[PAD]\n[CLS]\n[SEP]\nhello\n");
  r = run_bertkit({"tokenize", "-m", (dir / "nounk.txt").string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("[UNK]") != std::string::npos);
  bktest::write_file(dir / "tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "byte_fallback": true}})");
  r = run_bertkit({"tokenize", "-m", (dir / "tokenizer.json").string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("BPE model's byte_fallback") != std::string::npos);
  r = run_bertkit({"tokenize", "-m", (dir / "nowhere").string(), "x"});
  CHECK(r.exit_code != 0);
  CHECK(bktest::count_lines(r.err) == 1);
}

TEST_CASE("tokenize: a reader that closes stdout early ends the program quietly") {
  bktest::TempDir dir;
  std::string input;
  for (int i = 0; i < 50000; ++i) input += "the quick brown fox jumps over the lazy dog\n";
  bktest::write_file(dir / "in.txt", input);
  auto r = bktest::run_bertkit_reading_one_line("tokenize -i '" + (dir / "in.txt").string() + "'", dir.path());
  CHECK(r.first_line.rfind("{\"text\":\"the quick brown fox", 0) == 0);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("tokenize: a full disk ends with one error line, status 1, and -o holds only whole records") {
  bktest::TempDir dir;
  std::string input;
  const int lines = 20000;
  for (int i = 0; i < lines; ++i) input += fmt::format("line {} of a text that fills the disk\n", i);
  bktest::write_file(dir / "in.txt", input);
  const auto out = dir / "out.jsonl";
  const std::uint64_t limit = 1000000;  // a few batches of 1024 records
  auto r = bktest::run_bertkit_with_file_limit(limit, {"tokenize", "-i", (dir / "in.txt").string(), "-o", out.string()});
  CHECK(r.exit_code == 1);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("cannot write " + out.string()) != std::string::npos);
  const std::string bytes = bktest::read_file(out);
  REQUIRE(!bytes.empty());
  CHECK(bytes.size() <= limit);
  CHECK(bytes.back() == '\n');
  auto records = bktest::json_lines(bytes);
  CHECK(records.size() < static_cast<std::size_t>(lines));
  for (std::size_t i = 0; i < records.size(); ++i)
    CHECK(records[i]["text"] == fmt::format("line {} of a text that fills the disk", i));
}

TEST_CASE("tokenize: an input file that cannot be opened is bad input (status 3), named in one line") {
  bktest::TempDir dir;
  const auto missing = (dir / "no-such.txt").string();
  for (const std::string& path : {missing, dir.path().string()}) {
    CAPTURE(path);
    auto r = bktest::run_bertkit({"tokenize", "-i", path});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find(path + ": cannot ") != std::string::npos);
  }
}

TEST_CASE("tokenize: --csv/--tsv/--jsonl as every command spells them, --input-format as their older spelling") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", "id,text\n1,Hello world\n");
  const std::string in = (dir / "in.txt").string();
  auto csv = bktest::run_bertkit({"tokenize", "--format", "tokens", "--csv", "--column", "text", "-i", in});
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out == "[CLS] hello world [SEP]\n");
  auto alias = bktest::run_bertkit({"tokenize", "--format", "tokens", "--input-format", "csv", "--column", "text", "-i", in});
  CHECK(alias.exit_code == 0);
  CHECK(alias.out == csv.out);
  // Without a format a .txt file is lines: the header is a text too.
  CHECK(bktest::count_lines(bktest::run_bertkit({"tokenize", "-i", in}).out) == 2);
  CHECK(bktest::run_bertkit({"tokenize", "--csv", "--input-format", "tsv", "-i", in}).exit_code == 2);
  CHECK(bktest::run_bertkit({"tokenize", "--csv", "--tsv", "-i", in}).exit_code == 2);
}

TEST_CASE("tokenize: a .gz input reads as its text, a Parquet or .npy file is refused by name, exit 3") {
  bktest::TempDir dir;
  std::string text = "Hello, world!\nParis is the [MASK] of France.\n";
  bktest::write_file(dir / "plain.txt", text);
  auto plain = run_bertkit({"tokenize", "-i", (dir / "plain.txt").string()});
  REQUIRE(plain.exit_code == 0);
  // gzip(1)'s own file of the same text.
  REQUIRE(std::system(fmt::format("gzip -c '{}' > '{}'", (dir / "plain.txt").string(), (dir / "in.gz").string()).c_str()) == 0);
  auto gz = run_bertkit({"tokenize", "-i", (dir / "in.gz").string()});
  CHECK(gz.exit_code == 0);
  CHECK(gz.out == plain.out);
  std::ifstream gz_file(dir / "in.gz", std::ios::binary);
  std::string gz_bytes((std::istreambuf_iterator<char>(gz_file)), std::istreambuf_iterator<char>());
  auto piped = run_bertkit({"tokenize"}, gz_bytes);
  CHECK(piped.out == plain.out);

  bktest::write_file(dir / "v.npy", std::string("\x93NUMPY\x01\x00v\x00", 10));
  auto npy = run_bertkit({"tokenize", "-i", (dir / "v.npy").string()});
  CHECK(npy.exit_code == 3);
  CHECK(npy.out.empty());
  CHECK(npy.err == fmt::format("bertkit: error: {}: this is a NumPy array (.npy), not text: bertkit reads text, not arrays\n",
                               (dir / "v.npy").string()));
}

TEST_CASE("tokenize: a folder's tokenizer is what it declares, another family with only vocab.txt is refused (issue 19, item 14)") {
  bktest::TempDir dir;
  const auto mpnet = bktest::shared("fixtures/models2/mpnet-embed");
  std::filesystem::create_directory(dir / "m");
  std::filesystem::copy_file(mpnet / "config.json", dir / "m/config.json");
  std::filesystem::copy_file(mpnet / "vocab.txt", dir / "m/vocab.txt");
  auto r = run_bertkit({"tokenize", "-m", (dir / "m").string(), "hello world"});
  CHECK(r.exit_code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("bertkit: error: " + (dir / "m/config.json").string() +
                   ": a mpnet model puts <s> ... </s> around a text, and without a tokenizer.json") == 0);
  // The model commands alike: the encoder is MPNet's, its tokenizer is not vocab.txt read as BERT's.
  std::filesystem::copy_file(mpnet / "model.safetensors", dir / "m/model.safetensors");
  r = run_bertkit({"embed", "-m", (dir / "m").string(), "hello world"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("a mpnet model puts <s> ... </s> around a text") != std::string::npos);
  std::filesystem::remove(dir / "m/model.safetensors");
  // With its tokenizer.json, the folder says what its tokenizer is: <s> ... </s>.
  std::filesystem::copy_file(mpnet / "tokenizer.json", dir / "m/tokenizer.json");
  r = run_bertkit({"tokenize", "-m", (dir / "m").string(), "--format", "tokens", "hello world"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "<s> hello world </s>\n");
  // The vocabulary alone is read as BERT's, as asked.
  r = run_bertkit({"tokenize", "-m", (dir / "m/vocab.txt").string(), "--format", "tokens", "hello world"});
  CHECK(r.out == "[CLS] hello world [SEP]\n");
}

TEST_CASE("tokenize --padding longest: batches pad alike from a file, a pipe and arguments (issue 19, item 5)") {
  bktest::TempDir dir;
  const std::string text = "a\nb c d e\nf g\n";
  bktest::write_file(dir / "in.txt", text);
  for (const char* size : {"2", "1024"}) {
    CAPTURE(size);
    auto file = run_bertkit({"tokenize", "--padding", "longest", "--batch-size", size, "--format", "ids", "-i",
                             (dir / "in.txt").string()});
    auto pipe = run_bertkit({"tokenize", "--padding", "longest", "--batch-size", size, "--format", "ids"}, text);
    REQUIRE(file.exit_code == 0);
    CHECK(pipe.out == file.out);
  }
  // One batch of 1024: every line padded to the longest ([CLS] b c d e [SEP]: 6 ids).
  auto lines = bktest::split_lines(run_bertkit({"tokenize", "--padding", "longest", "--format", "ids"}, text).out);
  REQUIRE(lines.size() == 3);
  for (const auto& line : lines) CHECK(std::count(line.begin(), line.end(), ' ') == 5);
  auto args = run_bertkit({"tokenize", "--padding", "longest", "--format", "ids", "a", "b c d e", "f g"});
  CHECK(bktest::split_lines(args.out) == lines);
}

TEST_CASE("tokenize: jsonl keeps every input field, as the model commands do, a field named like an output is refused") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.csv", "id,text,label\n7,\"Hello world\",pos\n8,Bye now,neg\n");
  const std::string csv = (dir / "in.csv").string();
  auto r = run_bertkit({"tokenize", "-i", csv, "--column", "text"});
  REQUIRE(r.exit_code == 0);
  auto lines = bktest::json_lines(r.out);
  REQUIRE(lines.size() == 2);
  // The order is checked on the text (nlohmann's json sorts keys).
  CHECK(r.out.rfind("{\"id\":\"7\",\"text\":\"Hello world\",\"label\":\"pos\",\"ids\":[101,", 0) == 0);
  CHECK(lines[1]["id"] == "8");
  CHECK(lines[1]["label"] == "neg");
  CHECK(lines[1]["tokens"] == json::array({"[CLS]", "bye", "now", "[SEP]"}));
  r = run_bertkit({"tokenize", "-i", csv, "--column", "text", "--count"});
  CHECK(r.out == "{\"id\":\"7\",\"text\":\"Hello world\",\"label\":\"pos\",\"count\":4}\n"
                 "{\"id\":\"8\",\"text\":\"Bye now\",\"label\":\"neg\",\"count\":4}\n");

  // A JSONL record's members, nested ones too, in their order, then tokenize's fields.
  const std::string record = R"({"id":7,"meta":{"b":[1,2],"a":null},"text":"Hello world"})";
  r = run_bertkit({"tokenize", "--jsonl", "--max-length", "4", "--stride", "1"}, record + "\n");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind(record.substr(0, record.size() - 1) + ",\"ids\":[101,7592,2088,102],", 0) == 0);

  // An input field named like one of tokenize's is refused by name (it would be doubled), unless
  // --output-prefix renames tokenize's; the nested windows keep their names.
  r = run_bertkit({"tokenize", "--jsonl"}, "{\"text\":\"a b c\"}\n{\"text\":\"a\",\"offsets\":[]}\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "bertkit: error: <stdin>:2: the input field 'offsets' is also an output field: rename the outputs "
                 "with --output-prefix PREFIX (e.g. --output-prefix pred_) so the input's is kept\n");
  CHECK(bktest::count_lines(r.out) == 1);
  r = run_bertkit({"tokenize", "--jsonl", "--output-prefix", "tok_", "--max-length", "4", "--stride", "1"},
                  "{\"text\":\"hello big world again\",\"ids\":[1]}\n");
  REQUIRE(r.exit_code == 0);
  auto windows = bktest::json_lines(r.out).at(0);
  CHECK(windows["ids"] == json::array({1}));
  CHECK(windows["tok_ids"] == json::array({101, 7592, 2502, 102}));
  CHECK(windows["tok_overflowing"].size() == 2);
  CHECK(windows["tok_overflowing"][1]["tokens"] == json::array({"[CLS]", "world", "again", "[SEP]"}));
  bktest::write_file(dir / "ids.csv", "ids,text\n1,hello\n");
  for (const char* format : {"jsonl", "tsv"}) {
    CAPTURE(format);
    r = run_bertkit({"tokenize", "--format", format, "-i", (dir / "ids.csv").string(), "--column", "text"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("the input field 'ids' is also an output field") != std::string::npos);
    CHECK(r.out.empty());
  }
  r = run_bertkit({"tokenize", "--format", "tsv", "--output-prefix", "tok_", "-i", (dir / "ids.csv").string(),
                   "--column", "text"});
  CHECK(r.out == "ids\ttext\ttext\ttok_ids\ttok_tokens\ttok_offsets\n1\thello\thello\t101 7592 102\t[CLS] hello [SEP]\t0:0 0:5 0:0\n");
}
