// `bertkit info` end to end: the model as an argument or with -m, as every other command takes it.
#include "cli/task_cli_helpers.h"

TEST_CASE("info: -m MODEL is the same as MODEL, one of the two is required") {
  const std::string model = bktest::fixture_path("bert-cased-cls");
  auto positional = bktest::run_bertkit({"info", model});
  REQUIRE(positional.exit_code == 0);
  auto flag = bktest::run_bertkit({"info", "-m", model});
  CHECK(flag.exit_code == 0);
  CHECK(flag.out == positional.out);
  CHECK(bktest::run_bertkit({"info", "--json", "--model", model}).exit_code == 0);
  CHECK(bktest::run_bertkit({"info"}).exit_code == 2);
  CHECK(bktest::run_bertkit({"info", "-m", model, model}).exit_code == 2);
}
