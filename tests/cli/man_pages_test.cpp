// Every subcommand has a man page, and every flag its --help lists is documented there.
#include "cli/hub_stand_in.h"
#include "support.h"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <regex>
#include <set>

namespace {

std::set<std::string> long_flags(const std::string& help) {
  std::set<std::string> flags;
  std::regex flag(R"((?:^|[\s,])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(help.begin(), help.end(), flag), end; it != end; ++it) flags.insert((*it)[1]);
  return flags;
}

std::vector<std::string> subcommands(const std::string& help) {
  // CLI11 lists them under "Subcommands:" as "  name   summary", or "  name, alias   summary".
  std::vector<std::string> out;
  auto at = help.find("Subcommands:");
  REQUIRE(at != std::string::npos);
  std::regex row(R"(\n  ([a-z][a-z-]*)[\s,])");
  std::string rest = help.substr(at);
  for (std::sregex_iterator it(rest.begin(), rest.end(), row), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST_CASE("every subcommand's flags are in its man page") {
  auto top = bktest::run_bertkit({"--help"});
  REQUIRE(top.exit_code == 0);
  auto commands = subcommands(top.out);
  REQUIRE(!commands.empty());
  std::string main_page = bktest::read_file(std::string(BERTKIT_SOURCE_DIR) + "/man/bertkit.1");
  for (const std::string& cmd : commands) {
    CAPTURE(cmd);
    std::filesystem::path page = std::string(BERTKIT_SOURCE_DIR) + "/man/bertkit-" + cmd + ".1";
    REQUIRE_MESSAGE(std::filesystem::exists(page), "no man page for " << cmd);
    CHECK_MESSAGE(main_page.find(".B " + cmd) != std::string::npos, "bertkit.1 does not list " << cmd);
    std::string text = bktest::read_file(page);
    // groff writes '-' as '\-' in flag names.
    std::string plain = std::regex_replace(text, std::regex(R"(\\-)"), "-");
    auto help = bktest::run_bertkit({cmd, "--help"});
    REQUIRE(help.exit_code == 0);
    for (const std::string& flag : long_flags(help.out)) {
      if (flag == "--help") continue;
      CHECK_MESSAGE(plain.find(flag) != std::string::npos, "bertkit-" << cmd << ".1 does not document " << flag);
    }
  }
}

namespace {

namespace fs = std::filesystem;

// groff's escapes as a shell reads them: \- is a hyphen, \e a backslash.
std::string unescape(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == '-' || line[i + 1] == 'e')) {
      out += line[++i] == '-' ? '-' : '\\';
      continue;
    }
    out += line[i];
  }
  return out;
}

// The EXAMPLES of a man page as a shell would run them: the lines of every .nf/.fi block, a line
// ending in a backslash or a pipe joined to the next, groff's escapes undone.
std::vector<std::string> examples(const std::string& page) {
  const std::string text = bktest::read_file(fs::path(BERTKIT_SOURCE_DIR) / "man" / page);
  const auto at = text.find("\n.SH EXAMPLES\n");
  REQUIRE(at != std::string::npos);
  const auto end = text.find("\n.SH ", at + 1);
  std::vector<std::string> out;
  std::string pending;
  bool in_block = false;
  for (const auto& raw : bktest::split_lines(text.substr(at, end - at))) {
    if (raw == ".nf" || raw == ".fi") {
      in_block = raw == ".nf";
      continue;
    }
    if (!in_block) continue;
    const std::string line = unescape(raw);
    if (!line.empty() && (line.back() == '\\' || line.back() == '|')) {  // a pipe continues too
      pending += line.back() == '|' ? line : line.substr(0, line.size() - 1);
      continue;
    }
    out.push_back(pending + line);
    pending.clear();
  }
  CHECK(pending.empty());
  return out;
}

// `fixture`: a folder of fixtures/models, or ../models2/NAME for the later families and tasks.
void link_model(const fs::path& at, const std::string& fixture) {
  fs::create_directories(at.parent_path());
  fs::create_directory_symlink(bktest::shared("fixtures/models/" + fixture), at);
}

// A model id in a Hugging Face hub cache, laid out as huggingface_hub downloads it: refs/main names a
// snapshot whose files link to the fixture's (the hub links them to blobs/).
void cache_model(const fs::path& hub, std::string id, const std::string& fixture) {
  for (auto slash = id.find('/'); slash != std::string::npos; slash = id.find('/')) id.replace(slash, 1, "--");
  const fs::path repo = hub / ("models--" + id);
  const std::string commit = "0123456789abcdef0123456789abcdef01234567";
  bktest::write_file(repo / "refs/main", commit);
  fs::create_directories(repo / "snapshots" / commit);
  for (const auto& entry : fs::directory_iterator(bktest::shared("fixtures/models/" + fixture)))
    fs::create_symlink(entry.path(), repo / "snapshots" / commit / entry.path().filename());
}

// A folder holding every file and model the examples name: ./name models, ~/models/... (HOME is the
// folder), hub ids in the hub cache under ~/.cache, and small inputs. Models come from the fixtures
// (random weights: only that the examples run, and the shape of what they print, can be checked).
class ExampleFolder {
 public:
  ExampleFolder() {
    fs::create_directory(dir_ / "bin");
    fs::create_symlink(BERTKIT_BINARY, dir_ / "bin/bertkit");
    for (auto [name, fixture] : {std::pair{"bert-base-cased", "bert-cased-cls"}, {"my-model", "bert-cased-cls"},
                                 {"nli-model", "electra-cls"}, {"all-MiniLM-L6-v2", "minilm-embed"},
                                 {"e5-small", "minilm-embed"}, {"bert-base-uncased", "bert-uncased-mlm"},
                                 {"squad-model", "bert-uncased-qa"}, {"ms-marco-MiniLM-L6-cross", "bert-chinese-cross"},
                                 {"models/all-MiniLM-L6-v2", "minilm-embed"},
                                 {"models/bert-base-uncased", "bert-uncased-mlm"},
                                 {"ner-model", "../models2/bert-cased-ner"},
                                 {"pretraining-model", "../models2/bert-uncased-pretraining"},
                                 {"splade-v3", "../models3/splade-bert"}, {"bge-m3", "../models3/bge-m3-tiny"}})
      link_model(dir_ / name, fixture);
    const fs::path hub = dir_ / ".cache/huggingface/hub";
    for (auto [id, fixture] : {std::pair{"sentence-transformers/all-MiniLM-L6-v2", "minilm-embed"},
                               {"bert-base-uncased", "bert-uncased-mlm"},
                               {"distilbert-base-uncased-finetuned-sst-2-english", "distilbert-uncased-cls"},
                               {"distilbert-base-cased-distilled-squad", "distilbert-uncased-qa"},
                               {"cross-encoder/ms-marco-MiniLM-L-6-v2", "bert-chinese-cross"},
                               {"dslim/bert-base-NER", "../models2/bert-cased-ner"}})
      cache_model(hub, id, fixture);
    write_inputs();
  }

  // Runs `example` with bash in the folder, `bertkit` on the PATH and a masked sentence on stdin (for
  // the prompt, which reads records when stdin is no terminal); true when it exits 0.
  bool run(const std::string& example) const {
    const std::string script = "cd '" + dir_.path().string() + "' && export HOME=\"$PWD\" PATH=\"$PWD/bin:$PATH\" && "
                               "unset HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_HOME XDG_CACHE_HOME TRANSFORMERS_CACHE "
                               "PYTORCH_TRANSFORMERS_CACHE PYTORCH_PRETRAINED_BERT_CACHE && set -o pipefail && {\n" +
                               example + "\n} > out.txt 2> err.txt < stdin.txt";
    std::string quoted = "'";
    for (char c : script) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return std::system(("bash -c " + quoted + "'").c_str()) == 0;
  }
  std::string out() const { return bktest::read_file(dir_ / "out.txt"); }
  std::string err() const { return bktest::read_file(dir_ / "err.txt"); }
  fs::path operator/(const std::string& name) const { return dir_ / name; }

 private:
  void write_inputs() const {
    std::string corpus, words;
    for (const auto& line : bktest::read_lines(bktest::shared("corpora/en_sst2_dev.txt"))) corpus += line + "\n";
    for (int i = 0; i < 600; ++i) words += "word ";
    const std::vector<std::pair<std::string, std::string>> files{
        {"stdin.txt", "Paris is the [MASK] of France.\n"},
        {"corpus.txt", corpus},
        {"big.txt", corpus},
        {"long_texts.txt", "short line\n" + words + "\n" + words + words + "\nanother short line\n"},
        {"sentences.txt", "Paris is the [MASK] of France.\nThe cat sat on the [MASK].\nI drink [MASK] every morning.\n"},
        {"reviews.csv", "id,text\n1,The food was great.\n2,\"Cold, slow and overpriced.\"\n3,I would come back.\n"},
        {"reviews.txt", "The food was great.\nCold, slow and overpriced.\nI would come back.\n"},
        {"pairs.csv", "question1,question2\nHow do I learn Python?,What is the best way to learn Python?\n"
                      "Why is the sky blue?,How tall is Mount Everest?\n"},
        {"pairs.jsonl", "{\"premise\": \"A man is playing a guitar.\", \"hypothesis\": \"A man plays music.\"}\n"
                        "{\"premise\": \"A dog runs in the park.\", \"hypothesis\": \"The cat is asleep.\"}\n"},
        {"faq.txt", "Magnets attract iron because of aligned electron spins.\nWater boils at 100 degrees Celsius.\n"
                    "The moon orbits the earth.\nCompasses point north because of the earth's magnetic field.\n"},
        {"questions.txt", "how do magnets work\nwhen does water boil\n"},
        {"corpus.jsonl", "{\"id\": 1, \"text\": \"The moon's gravity pulls the oceans.\"}\n{\"id\": 2, \"text\": \"Paris is in France.\"}\n"},
        {"docs.jsonl", "{\"id\": 1, \"body\": \"Magnets attract iron.\"}\n{\"id\": 2, \"body\": \"Water boils at 100 degrees.\"}\n"},
        {"manual.txt", "To reset the device, hold the power button for ten seconds. A red light means the battery is "
                       "low; charge it for an hour. A green light means the device is ready.\n"},
        {"questions.jsonl", "{\"question\": \"Who wrote Hamlet?\", \"context\": \"Hamlet is a tragedy written by William "
                            "Shakespeare.\"}\n{\"question\": \"Where is Paris?\", \"context\": \"Paris is in France.\"}\n"},
        {"faq.csv", "question,context\nHow long is the warranty?,The warranty lasts two years from the date of purchase.\n"},
        {"candidates.jsonl", "{\"query\": \"what is bm25\", \"documents\": [\"BM25 is a ranking function.\", "
                             "\"Paris is in France.\", \"BM25 ranks documents by term frequency.\"]}\n"},
        {"candidates.csv", "id,query,document\n1,what is bm25,BM25 is a ranking function.\n2,what is bm25,Paris is in "
                           "France.\n3,where is paris,Paris is in France.\n"},
    };
    for (const auto& [name, text] : files) bktest::write_file(dir_ / name, text);
  }

  bktest::TempDir dir_;
};

// Runs every example of `page` in a fresh ExampleFolder; each must exit 0 and leave the file it
// writes (-o, --save or a redirection) non-empty. `check` looks at what an example printed.
void run_examples(const std::string& page, std::size_t at_least,
                  const std::function<void(const std::string& example, const ExampleFolder&)>& check = {}) {
  ExampleFolder folder;
  const auto all = examples(page);
  CHECK(all.size() >= at_least);
  const std::regex written(R"((?:^|\s)(?:-o|--save|>)\s+([A-Za-z/][^\s|&>']*))");  // a file name, not awk's '$1 > 512'
  for (const auto& example : all) {
    CAPTURE(example);
    REQUIRE_MESSAGE(folder.run(example), folder.err());
    for (std::sregex_iterator it(example.begin(), example.end(), written), end; it != end; ++it) {
      const fs::path file = folder / (*it)[1].str();
      CHECK_MESSAGE((fs::is_directory(file) || (fs::exists(file) && fs::file_size(file) > 0)), file << " is empty");
    }
    if (check) check(example, folder);
  }
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

// Each page's examples run as printed (issue 19, item 7).
TEST_CASE("bertkit(1): every example runs as printed") { run_examples("bertkit.1", 2); }

TEST_CASE("bertkit-tokenize(1): every example runs as printed") {
  run_examples("bertkit-tokenize.1", 7, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--count")) CHECK(folder.out() == "2\n");  // the two lines of 600 and 1,200 words
  });
}

// The slowest page (bench times for seconds by design): about 15 s.
TEST_CASE("bertkit-bench(1): every example runs as printed") {
  run_examples("bertkit-bench.1", 7, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--format jsonl"))
      for (const auto& row : bktest::json_lines(folder.out())) CHECK(row["mode"] == "encoder");
  });
}

TEST_CASE("bertkit-classify(1): every example runs as printed") {
  run_examples("bertkit-classify.1", 4, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "scored.csv"))  // every column kept, three added
      CHECK(bktest::read_lines(folder / "scored.csv").at(0) == "id,text,label,score,truncated");
    if (has(example, "--top-k all") && !has(example, "pretraining-model"))
      for (const char* label : {"negative", "neutral", "positive"}) CHECK(has(folder.out(), label));
    if (has(example, "pretraining-model"))  // the next-sentence head's two labels
      for (const char* label : {"IsNext", "NotNext"}) CHECK(has(folder.out(), label));
  });
}

TEST_CASE("bertkit-convert(1): every example runs as printed") { run_examples("bertkit-convert.1", 5); }

// The Hub is a local stand-in (HF_ENDPOINT) serving the fixtures under the ids the examples name.
TEST_CASE("bertkit-download(1): every example runs as printed") {
  bktest::HubStandIn hub({"sentence-transformers/all-MiniLM-L6-v2=" + bktest::shared("fixtures/models/minilm-embed").string(),
                          "bert-base-uncased=" + bktest::shared("fixtures/models/bert-uncased-mlm").string()});
  bktest::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint());
  bktest::ScopedEnv offline("HF_HUB_OFFLINE", "");
  run_examples("bertkit-download.1", 4, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--exclude")) CHECK(has(folder.out(), "/snapshots/"));
    if (has(example, "ls ")) CHECK(has(folder.out(), "modules.json"));
  });
  CHECK(hub.stats()["body_bytes"].get<std::uint64_t>() > 0);
}

TEST_CASE("bertkit-embed(1): every example runs as printed") {
  run_examples("bertkit-embed.1", 8, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--format npy")) CHECK(bktest::read_file(folder / "vectors.npy").substr(0, 6) == "\x93NUMPY");
  });
}

TEST_CASE("bertkit-fill-mask(1): every example runs as printed") {
  run_examples("bertkit-fill-mask.1", 4, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--top-k 3")) CHECK(bktest::json_lines(folder.out()).at(0)["predictions"].size() == 3);
    // Without a terminal, the prompt's example reads records from stdin: the one masked line given.
    if (example.ends_with("bert-base-uncased")) CHECK(bktest::count_lines(folder.out()) == 1);
  });
}

TEST_CASE("bertkit-info(1): every example runs as printed") { run_examples("bertkit-info.1", 2); }

TEST_CASE("bertkit-ner(1): every example runs as printed") {
  run_examples("bertkit-ner.1", 4, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "entities.csv"))  // every column kept, two added
      CHECK(bktest::read_lines(folder / "entities.csv").at(0) == "id,text,entities,truncated");
    if (has(example, "tagged.conll")) {  // a blank line after each of the three reviews
      const auto lines = bktest::read_lines(folder / "tagged.conll");
      CHECK(std::count(lines.begin(), lines.end(), "") == 3);
    }
    if (has(example, "--format inline")) CHECK(bktest::count_lines(folder.out()) == 1);
    if (has(example, "--stride"))  // every line of long_texts.txt read whole
      for (const auto& record : bktest::json_lines(folder.out())) CHECK_FALSE(record.contains("truncated"));
  });
}

TEST_CASE("bertkit-qa(1): every example runs as printed") {
  run_examples("bertkit-qa.1", 4, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--top-k 3")) {
      const auto records = bktest::json_lines(folder.out());  // one per question, with three answers
      CHECK(records.size() == 2);
      for (const auto& record : records) CHECK(record["answers"].size() == 3);
    }
  });
}

// The page's first example starts the server: the test starts it as printed, in the background, on a
// free port where the page says 8080, and stops it with SIGTERM after the others, its clients, ran.
TEST_CASE("bertkit-serve(1): every example runs as printed") {
  ExampleFolder folder;
  const auto all = examples("bertkit-serve.1");
  REQUIRE(all.size() >= 6);
  REQUIRE(has(all[0], "bertkit serve"));
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  ::close(listener);
  const std::string port = std::to_string(ntohs(address.sin_port));
  auto on_port = [&](const std::string& example) { return std::regex_replace(example, std::regex("8080"), port); };
  REQUIRE_MESSAGE(folder.run(on_port(all[0]) + " > server.out 2> server.err & echo $! > server.pid\n"
                             "for i in $(seq 300); do curl -sf localhost:" + port + "/health && exit 0; sleep 0.1; done; exit 1"),
                  bktest::read_file(folder / "server.err"));
  for (std::size_t i = 1; i < all.size(); ++i) {
    CAPTURE(all[i]);
    CHECK_MESSAGE(folder.run(on_port(all[i])), folder.err());
    CHECK(!folder.out().empty());
    if (has(all[i], "/v1/embeddings")) CHECK(bktest::json_lines(folder.out()).at(0)["data"].size() == 2);
    if (has(all[i], "top_n")) CHECK(bktest::json_lines(folder.out()).at(0)["results"].size() == 1);
    if (has(all[i], "/metrics")) CHECK(has(folder.out(), "bertkit_batches_total "));
  }
  CHECK(folder.run("kill -TERM $(cat server.pid); for i in $(seq 300); do kill -0 $(cat server.pid) 2> /dev/null || exit 0; "
                   "sleep 0.1; done; exit 1"));
  CHECK(has(bktest::read_file(folder / "server.err"), "bertkit serve: stopped"));
}

TEST_CASE("bertkit-rerank(1): every example runs as printed") {
  run_examples("bertkit-rerank.1", 3, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--top-k 2")) CHECK(bktest::json_lines(folder.out()).at(0)["results"].size() == 2);
    if (has(example, "ranked.csv")) {  // every row kept, sorted within each query
      const auto lines = bktest::read_lines(folder / "ranked.csv");
      CHECK(lines.at(0) == "id,query,document,rank,score,truncated");
      CHECK(lines.size() == 4);
    }
    if (has(example, "--query")) CHECK(bktest::count_lines(folder.out()) == 4);  // the four lines of faq.txt, sorted
  });
}

TEST_CASE("bertkit-similarity(1): every example runs as printed") {
  run_examples("bertkit-similarity.1", 6, [](const std::string& example, const ExampleFolder& folder) {
    if (has(example, "--pairs")) CHECK(bktest::count_lines(folder.out()) == 2);
    if (has(example, "--top-k 3")) CHECK(bktest::json_lines(folder.out()).at(0)["results"].size() == 3);
  });
}
