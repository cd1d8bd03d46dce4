// An input is never overwritten, whichever file the command reads (records/output_guard.h): the model's
// own files, --calibration, --context-file, --corpus, --queries, the tokenizer's files, and the source
// of convert; a converted file never replaces a device or FIFO; -o "" and a missing folder are usage
// errors naming the file as given. Each refusal: exit 2, one line naming the output and the input, the
// input byte-identical afterwards.
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <string>
#include <vector>

using bktest::run_bertkit;
namespace fs = std::filesystem;

namespace {


// A writable copy of a fixture folder (never written in ../shared).
fs::path copy_fixture(const bktest::TempDir& dir, const std::string& name) {
  const fs::path to = dir / name;
  fs::copy(bktest::shared("fixtures/models/" + name), to, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(to))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  return to;
}

// `args` is refused before `victim` is touched; the message names every one of `names`.
void check_refused(const std::vector<std::string>& args, const fs::path& victim, const std::vector<std::string>& names) {
  const std::string before = bktest::read_file(victim);
  auto r = run_bertkit(args);
  std::string line;
  for (const auto& a : args) line += a + " ";
  INFO(line, "\n", r.err);
  CHECK(r.exit_code == 2);
  CHECK(bktest::split_lines(r.err).size() == 1);
  for (const std::string& name : names) CHECK(r.err.find(name) != std::string::npos);
  CHECK(fs::is_regular_file(victim));
  CHECK(bktest::read_file(victim) == before);
}

}  // namespace

TEST_CASE("-o one of the model's own files is refused before anything is opened (finding 1)") {
  bktest::TempDir dir;
  const std::string in = (dir / "in.txt").string();
  bktest::write_file(in, "hello world\n");
  const std::string bk = (dir / "m.bk").string();
  REQUIRE(run_bertkit({"convert", bktest::minilm(), bk}).exit_code == 0);
  check_refused({"embed", "-m", bk, "-i", in, "--format", "npy", "-o", bk}, bk, {"-o " + bk, "the model's file"});
  fs::create_symlink(bk, dir / "link.bk");
  check_refused({"embed", "-m", bk, "hello", "--format", "jsonl", "-o", (dir / "link.bk").string()}, bk,
                {(dir / "link.bk").string(), "the model's file " + bk});

  const fs::path f = copy_fixture(dir, "minilm-embed");
  for (const char* file : {"model.safetensors", "config.json", "tokenizer.json", "vocab.txt", "modules.json",
                           "1_Pooling/config.json", "sentence_bert_config.json"}) {
    const std::string out = (f / file).string();
    check_refused({"embed", "-m", f.string(), "-i", in, "--format", "jsonl", "-o", out}, f / file,
                  {"-o " + out, "the model's file"});
  }
  const fs::path cls = copy_fixture(dir, "distilbert-uncased-cls");
  check_refused({"classify", "-m", cls.string(), "hello", "--format", "csv", "-o", (cls / "special_tokens_map.json").string()},
                cls / "special_tokens_map.json", {"special_tokens_map.json", "the model's file"});
  // tokenize reads the tokenizer's files only.
  check_refused({"tokenize", "-m", cls.string(), "hello", "--format", "jsonl", "-o", (cls / "tokenizer.json").string()}, cls / "tokenizer.json",
                {"the tokenizer's file"});
  check_refused({"tokenize", "-m", (cls / "vocab.txt").string(), "hello", "--format", "jsonl", "-o", (cls / "vocab.txt").string()},
                cls / "vocab.txt", {"the tokenizer's file"});
  // Without a tokenizer.json, tokenize reads config.json to know the tokenizer's family.
  const fs::path vocab_only = copy_fixture(dir, "bert-uncased-qa");
  fs::remove(vocab_only / "tokenizer.json");
  check_refused({"tokenize", "-m", vocab_only.string(), "hello", "--format", "jsonl", "-o", (vocab_only / "config.json").string()},
                vocab_only / "config.json", {"the tokenizer's file " + (vocab_only / "config.json").string()});
  // A file of the folder that is not read is an output like any other.
  const std::string goldens = (cls / "goldens.json").string();
  auto r = run_bertkit({"classify", "-m", cls.string(), "hello", "-o", goldens, "--format", "jsonl"});
  CHECK(r.exit_code == 0);
}

TEST_CASE("convert never replaces a device, FIFO or folder with a regular file (finding 2)") {
  bktest::TempDir dir;
  const fs::path fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
  auto r = run_bertkit({"convert", bktest::minilm(), fifo.string()});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(bktest::split_lines(r.err).size() == 1);
  CHECK(r.err.find(fifo.string() + " is a FIFO") != std::string::npos);
  CHECK(fs::is_fifo(fifo));
  // A character device like /dev/null (made here: only root may).
  const fs::path dev = dir / "dev";
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    r = run_bertkit({"convert", bktest::minilm(), dev.string()});
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(dev.string() + " is a device") != std::string::npos);
    CHECK(fs::is_character_file(dev));
  }
}

TEST_CASE("-o one of the files other flags read is refused (finding 3)") {
  bktest::TempDir dir;
  const std::string in = (dir / "in.txt").string();
  bktest::write_file(in, "a good film\nthe weather\n");
  const std::string cal = (dir / "cal.npy").string();
  REQUIRE(run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "-o", cal}).exit_code == 0);
  check_refused({"embed", "-m", bktest::minilm(), "--precision", "int8", "--calibration", cal, "-i", in, "-o", cal}, cal,
                {"-o " + cal, "the --calibration file " + cal});
  // A name whose extension is not npy's: -o out.npy with --format jsonl is refused for the contradiction.
  const std::string cal_bin = (dir / "cal.bin").string();
  fs::copy_file(cal, cal_bin);
  check_refused({"similarity", "-m", bktest::minilm(), "--precision", "int8", "--calibration", cal_bin, "--query", "film",
                 "--corpus", in, "--format", "jsonl", "-o", cal_bin},
                cal_bin, {"the --calibration file " + cal_bin});

  const std::string doc = (dir / "doc.jsonl").string();
  bktest::write_file(doc, "{\"text\": \"bob is here\"}\n");
  check_refused({"qa", "-m", bktest::fixture_path("bert-uncased-qa"), "--question", "who is here", "--context-file", doc,
                 "-o", doc},
                doc, {"-o " + doc, "the --context-file " + doc});

  const std::string queries = (dir / "queries.txt").string();
  bktest::write_file(queries, "film\n");
  check_refused({"similarity", "-m", bktest::minilm(), "--queries", queries, "--corpus", in, "--format", "jsonl", "-o", queries},
                queries, {"the input " + queries});
  check_refused({"similarity", "-m", bktest::minilm(), "--queries", queries, "--corpus", in, "--format", "jsonl", "-o", in}, in,
                {"the input " + in});

  // convert's destination is the --verify corpus.
  check_refused({"convert", "--verify", "--dtype", "int8", "--corpus", in, bktest::minilm(), in}, fs::path(in),
                {"convert: destination " + in, "the --corpus file " + in});
}

TEST_CASE("convert refuses a destination that is any file the conversion reads (finding 4)") {
  bktest::TempDir dir;
  const fs::path s = copy_fixture(dir, "distilbert-uncased-cls");
  for (const char* file : {"model.safetensors", "config.json", "tokenizer.json", "vocab.txt", "tokenizer_config.json"}) {
    const std::string out = (s / file).string();
    check_refused({"convert", s.string(), out}, s / file, {"convert: destination " + out, "the model's file"});
  }
  // A sentence-transformers folder: its modules' files too.
  const fs::path st = copy_fixture(dir, "minilm-embed");
  check_refused({"convert", st.string(), (st / "1_Pooling/config.json").string()}, st / "1_Pooling/config.json",
                {"the model's file"});
  // A pytorch_model.bin.
  const fs::path bin = copy_fixture(dir, "bert-uncased-qa");
  check_refused({"convert", bin.string(), (bin / "pytorch_model.bin").string()}, bin / "pytorch_model.bin",
                {"the model's file " + (bin / "pytorch_model.bin").string()});
  // The hard link of a weights file.
  fs::create_hard_link(s / "model.safetensors", dir / "hard.safetensors");
  check_refused({"convert", s.string(), (dir / "hard.safetensors").string()}, s / "model.safetensors",
                {"hard.safetensors", "the model's file"});
  // Elsewhere in the folder, the file is written.
  auto r = run_bertkit({"convert", s.string(), (s / "model.bk").string()});
  CHECK(r.exit_code == 0);
}

TEST_CASE("-o \"\" is a usage error naming -o (finding 5)") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"embed", "-m", bktest::minilm(), "hello", "-o", ""}, {"tokenize", "hello", "-o", ""},
        {"similarity", "-m", bktest::minilm(), "--query", "a", "--corpus", "-", "-o", ""}}) {
    auto r = run_bertkit(args, "b\n");
    INFO(args[0], " ", r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "bertkit: error: -o/--output is given an empty value: give a value, or leave the flag out\n");
  }
}

TEST_CASE("-o in a missing folder names the file given and the missing folder (finding 6)") {
  bktest::TempDir dir;
  const std::string out = (dir / "miss/sub/x.jsonl").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"embed", "-m", bktest::minilm(), "hello", "-o", out}, {"tokenize", "hello", "-o", out}}) {
    auto r = run_bertkit(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "bertkit: error: -o " + out + ": cannot write it: the folder " + (dir / "miss/sub").string() +
                       " does not exist\n");
  }
  CHECK_FALSE(fs::exists(dir / "miss"));
}
