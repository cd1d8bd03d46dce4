#include "records/resume_log.h"

#include "core/error.h"

#include <doctest/doctest.h>

using bertkit::records::find_resume_point;
using bertkit::records::resume_settings_line;

TEST_CASE("resume log: the last checkpoint the output holds") {
  const std::string settings = resume_settings_line(R"(["embed","-o","x"])");
  const std::string log = settings + "0 10\n8 100\n16 190\n24 2";  // the last line cut while written
  auto at = [&](std::uint64_t size) { return find_resume_point(log, settings, size, "x.resume"); };
  CHECK(at(1000).records == 16);
  CHECK(at(1000).bytes == 190);
  CHECK(at(1000).header_bytes == 10);
  CHECK(at(1000).log_bytes == settings.size() + 18);
  CHECK(at(189).records == 8);
  CHECK(at(100).bytes == 100);
  CHECK(at(10).records == 0);
  CHECK(at(10).bytes == 10);
  CHECK(at(9).log_bytes == 0);  // not even the header: start over
  CHECK(find_resume_point(settings, settings, 5, "x.resume").log_bytes == 0);
  CHECK(find_resume_point("bertkit-resume 1 [", settings, 5, "x.resume").log_bytes == 0);
}

TEST_CASE("resume log: another command line or a damaged log is refused") {
  const std::string settings = resume_settings_line(R"(["embed","-o","x"])");
  const std::string other = resume_settings_line(R"(["embed","--dtype","int8","-o","x"])");
  try {
    find_resume_point(other + "0 0\n", settings, 5, "x.resume");
    FAIL("accepted");
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::Usage);
    CHECK(std::string(e.what()).find(R"(the earlier run was ["embed","--dtype","int8","-o","x"])") != std::string::npos);
  }
  CHECK_THROWS_AS(find_resume_point(settings + "0 x\n", settings, 5, "x.resume"), bertkit::Error);
  CHECK_THROWS_AS(find_resume_point("hello\n", settings, 5, "x.resume"), bertkit::Error);
}
