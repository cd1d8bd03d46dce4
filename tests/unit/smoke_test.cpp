#include "support.h"

#include <doctest/doctest.h>

TEST_CASE("the binary prints its version") {
  auto r = bktest::run_bertkit({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("bertkit 0.1.0") != std::string::npos);
}
