// Every subcommand has a man page, and every flag its --help lists is documented there.
#include "support.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
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
  // CLI11 lists them under "Subcommands:" as "  name   summary".
  std::vector<std::string> out;
  auto at = help.find("Subcommands:");
  REQUIRE(at != std::string::npos);
  std::regex row(R"(\n  ([a-z][a-z-]*)\s)");
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

// The EXAMPLES of a man page as a shell would run them: one command a line, groff's escapes undone.
std::vector<std::string> examples(const std::string& page) {
  const std::string text = bktest::read_file(std::filesystem::path(BERTKIT_SOURCE_DIR) / "man" / page);
  auto at = text.find(".SH EXAMPLES\n.nf\n");
  REQUIRE(at != std::string::npos);
  auto end = text.find("\n.fi", at);
  std::vector<std::string> out;
  for (auto line : bktest::split_lines(text.substr(at + 17, end - at - 17))) {
    for (auto [from, to] : {std::pair<std::string, std::string>{"\\-", "-"}, {"\\et", "\\t"}, {"\\en", "\\n"}}) {
      for (std::size_t p = line.find(from); p != std::string::npos; p = line.find(from, p + to.size()))
        line.replace(p, from.size(), to);
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace

// Each example runs as printed, in a folder holding the files and models it names (made from the
// fixtures), with `bertkit` on the PATH: exit 0, and the --count example counts what it says.
TEST_CASE("bertkit-tokenize(1): every example runs as printed (issue 19, item 7)") {
  bktest::TempDir dir;
  std::filesystem::create_directory_symlink(bktest::shared("fixtures/models/bert-cased-cls"), dir / "bert-base-cased");
  std::string corpus, long_texts;
  for (const auto& line : bktest::read_lines(bktest::shared("corpora/en_sst2_dev.txt"))) corpus += line + "\n";
  std::string words;
  for (int i = 0; i < 600; ++i) words += "word ";
  long_texts = "short line\n" + words + "\n" + words + words + "\nanother short line\n";
  bktest::write_file(dir / "corpus.txt", corpus);
  bktest::write_file(dir / "big.txt", corpus);
  bktest::write_file(dir / "long_texts.txt", long_texts);
  std::filesystem::create_directory(dir / "bin");
  std::filesystem::create_symlink(BERTKIT_BINARY, dir / "bin/bertkit");
  const auto run_examples = examples("bertkit-tokenize.1");
  REQUIRE(run_examples.size() >= 5);
  for (const auto& example : run_examples) {
    CAPTURE(example);
    const std::string script = "cd '" + dir.path().string() + "' && PATH='" + (dir / "bin").string() +
                               "':\"$PATH\" && set -o pipefail && " + example + " > out.txt 2> err.txt";
    std::string quoted = "'";
    for (char c : script) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    const int status = std::system(("bash -c " + quoted + "'").c_str());
    CHECK_MESSAGE(status == 0, bktest::read_file(dir / "err.txt"));
    if (example.find("--count") != std::string::npos)
      CHECK(bktest::read_file(dir / "out.txt") == "2\n");  // the two lines of 600 and 1,200 words
  }
}
