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

std::string minilm() { return bktest::fixture_path("minilm-embed"); }

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

TEST_CASE("-o \"\" is a usage error naming -o (finding 5)") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"embed", "-m", minilm(), "hello", "-o", ""}, {"tokenize", "hello", "-o", ""},
        {"similarity", "-m", minilm(), "--query", "a", "--corpus", "-", "-o", ""}}) {
    auto r = run_bertkit(args, "b\n");
    INFO(args[0], " ", r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("-o \"\"") != std::string::npos);
  }
}

TEST_CASE("-o in a missing folder names the file given and the missing folder (finding 6)") {
  bktest::TempDir dir;
  const std::string out = (dir / "miss/sub/x.jsonl").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"embed", "-m", minilm(), "hello", "-o", out}, {"tokenize", "hello", "-o", out}}) {
    auto r = run_bertkit(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "bertkit: error: -o " + out + ": cannot write it: the folder " + (dir / "miss/sub").string() +
                       " does not exist\n");
  }
  CHECK_FALSE(fs::exists(dir / "miss"));
}
