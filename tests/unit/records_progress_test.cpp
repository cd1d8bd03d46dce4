#include "records/progress.h"
#include "records/log.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

using namespace bertkit::records;

namespace {
std::string drain(int fd) {
  std::string out;
  char buf[4096];
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, 200) > 0) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}
}  // namespace

TEST_CASE("render_progress shows percent, sizes, records, rate and ETA within the width") {
  std::string line = render_progress(250'000'000, 1'000'000'000, 5000, 10.0, 100);
  CHECK(line.find(" 25% [==========>") == 0);
  CHECK(line.find("250.0 MB/1.0 GB  5000 records  500 rec/s  ETA 0:30") != std::string::npos);
  CHECK(line.size() < 100);
  // Too early for a rate; narrow terminals drop the bar and cut the line.
  CHECK(render_progress(0, 100, 0, 0.1, 80) == "  0% [>                                       ] 0 B/100 B  0 records");
  CHECK(render_progress(50, 100, 7, 0.1, 30) == " 50% 50 B/100 B  7 records");
  CHECK(render_progress(50'000, 100'000, 7, 1, 30) == " 50% 50.0 kB/100.0 kB  7 reco");  // cut to width - 1
  CHECK(render_progress(50, 100, 7, 0.1, 30).find('[') == std::string::npos);
  CHECK(render_progress(100, 100, 7, 4000.0, 80).find("100% [========================================]") == 0);
  CHECK(render_progress(10, 100, 7, 400.0, 120).find("ETA 1:00:00") != std::string::npos);
}

TEST_CASE("progress draws only on a terminal, with a known size, when not quiet") {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  {
    Progress on_pipe(1000, pipe_fds[1]);
    CHECK_FALSE(on_pipe.active());
    on_pipe.update(10, 1);
  }
  ::close(pipe_fds[1]);
  CHECK(drain(pipe_fds[0]).empty());
  ::close(pipe_fds[0]);

  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(::grantpt(master) == 0);
  REQUIRE(::unlockpt(master) == 0);
  int tty = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  REQUIRE(tty >= 0);
  CHECK_FALSE(Progress(std::nullopt, tty).active());  // size unknown (a pipe on stdin)
  bertkit::records::set_quiet(true);
  CHECK_FALSE(Progress(1000, tty).active());
  bertkit::records::set_quiet(false);
  {
    Progress progress(1000, tty);
    CHECK(progress.active());
    progress.update(500, 42);
    progress.update(600, 43);  // within 100 ms of the first: skipped
  }
  std::string shown = drain(master);
  CHECK(shown.find(" 50% [") != std::string::npos);
  CHECK(shown.find("42 records") != std::string::npos);
  CHECK(shown.find("43 records") == std::string::npos);
  CHECK(shown.size() >= 4);
  CHECK(shown.substr(shown.size() - 4) == "\r\x1b[K");  // cleared at the end
  ::close(tty);
  ::close(master);
}
