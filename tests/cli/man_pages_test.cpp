// Every subcommand has a man page, and every flag its --help lists is documented there.
#include "support.h"

#include <doctest/doctest.h>

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
