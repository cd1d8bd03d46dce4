// The "Many machines" recipes of README.md run with GNU parallel (Debian's `parallel`): shards give
// one process's bytes, a killed job rerun by --resume-failed (continuing with bertkit's own --resume)
// completes with the same bytes, and "remote" hosts are simulated by --ssh pointing at a wrapper that
// runs the command locally in a folder of its own (--basefile copies the model there with rsync).
// Without parallel the tests are skipped with a message, except in CI (CI set), where they fail.
#include "shell_helpers.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using bktest::bash_in;
using bktest::shell_quote;

// Whether the tools are here; outside CI a missing one skips the test with a message.
bool tools_present(std::initializer_list<const char*> tools) {
  for (const char* tool : tools) {
    if (bktest::have_command(tool)) continue;
    if (std::getenv("CI")) FAIL(tool << " is missing: tests/setup.sh installs it");
    MESSAGE("skipped: " << tool << " is not installed (tests/setup.sh installs it)");
    return false;
  }
  return true;
}

// A few thousand English lines (an eighth as many in the sanitizer builds, as their sweeps take).
std::string corpus_lines() {
  std::string text;
  std::size_t n = 0;
  for (const char* name : {"corpora/en_agnews.txt", "corpora/en_sst2_dev.txt", "corpora/en_agnews.txt"})
    for (const auto& line : bktest::read_lines(bktest::shared(name)))
      if (n++ % bktest::kSweepStride == 0) text += line + "\n";
  return text;
}

struct Shards {
  bktest::TempDir dir;
  std::string bin = shell_quote(BERTKIT_BINARY);
  std::string model;

  Shards() {
    bktest::write_file(dir / "in.txt", corpus_lines());
    model = bktest::fixture_path("minilm-embed");
  }
  // One process's output of `command` (bertkit's arguments) over in.txt.
  std::string one_process(const std::string& command) {
    REQUIRE(bash_in(dir.path(), fmt::format("{} {} < in.txt > one.out", bin, command)) == 0);
    return bktest::read_file(dir / "one.out");
  }
};

}  // namespace

TEST_CASE("GNU parallel: four jobs give one process's bytes (f32 and int8)") {
  if (!tools_present({"parallel"})) return;
  Shards s;
  for (const char* dtype : {"f32", "int8"}) {
    CAPTURE(dtype);
    const std::string command = fmt::format("embed -m {} --dtype {}", shell_quote(s.model), dtype);
    const std::string expected = s.one_process(command);
    // Blocks of a quarter of the input: four jobs (or five), two at a time, in input order.
    const auto block = fs::file_size(s.dir / "in.txt") / 4 + 1;
    REQUIRE(bash_in(s.dir.path(), fmt::format("parallel --pipe --block {} -k -j2 {} --threads 1 {} < in.txt > many.out "
                                              "2>/dev/null",
                                              block, s.bin, command)) == 0);
    CHECK(bktest::count_lines(expected) > 3000 / bktest::kSweepStride);
    CHECK(bktest::read_file(s.dir / "many.out") == expected);
  }
}

TEST_CASE("GNU parallel: a job killed mid-run, then --resume-failed, completes with the same bytes") {
  if (!tools_present({"parallel"})) return;
  Shards s;
  const std::string command = fmt::format("embed -m {} --dtype int8 --batch-size 16", shell_quote(s.model));
  const std::string expected = s.one_process(command);
  // job.sh: bertkit ARGS, except that the first run of job 2 is killed (SIGKILL) once 64 of its records
  // are finished: it reads its block through a FIFO fed 100 lines only.
  bktest::write_file(s.dir / "job.sh", fmt::format(R"(#!/bin/bash
if [ "$PARALLEL_SEQ" = 2 ] && mkdir killed 2>/dev/null; then
  head -n 100 > part; mkfifo fifo
  {bin} "$@" < fifo 2>/dev/null & pid=$!
  exec 3>fifo; cat part >&3
  for i in $(seq 600); do grep -q '^64 ' out/2.jsonl.resume 2>/dev/null && break; sleep 0.05; done
  kill -9 $pid; wait $pid 2>/dev/null; exit 137
fi
exec {bin} "$@"
)",
                                                   fmt::arg("bin", s.bin)));
  const auto block = fs::file_size(s.dir / "in.txt") / 4 + 1;
  auto run = [&](const char* resume) {
    return bash_in(s.dir.path(), fmt::format("mkdir -p out; parallel --pipe --block {} --joblog jobs.log {} -j2 bash job.sh "
                                             "--threads 1 {} -o out/{{#}}.jsonl --resume < in.txt",
                                             block, resume, command));
  };
  CHECK(run("") != 0);  // job 2 was killed
  REQUIRE(fs::exists(s.dir / "out/2.jsonl.resume"));
  CHECK(fs::file_size(s.dir / "out/2.jsonl") > 0);
  REQUIRE(run("--resume-failed") == 0);
  REQUIRE(bash_in(s.dir.path(), "cat $(ls out/*.jsonl | sort -V) > all.out") == 0);
  CHECK(bktest::read_file(s.dir / "all.out") == expected);
  CHECK_FALSE(fs::exists(s.dir / "out/2.jsonl.resume"));
}

TEST_CASE("GNU parallel: remote hosts (--sshlogin through a local --ssh wrapper), the model by --basefile") {
  if (!tools_present({"parallel", "rsync"})) return;
  Shards s;
  REQUIRE(bash_in(s.dir.path(), fmt::format("{} convert {} model.bk 2>/dev/null", s.bin, shell_quote(s.model))) == 0);
  // The "ssh" runs the command on this machine, in hosts/HOST (as a login's home), with SHELL set as a
  // login sets it: parallel's remote worker starts the job with $SHELL, and CI's environment has none.
  bktest::write_file(s.dir / "fake_ssh", fmt::format(R"(#!/bin/bash
host=$1; shift
[ "$1" = "--" ] && shift
export SHELL=/bin/bash
mkdir -p {root}/hosts/$host && cd {root}/hosts/$host && exec bash -c "$*"
)",
                                                     fmt::arg("root", shell_quote(s.dir.path().string()))));
  fs::permissions(s.dir / "fake_ssh", fs::perms::owner_exec, fs::perm_options::add);
  const std::string command = "embed -m model.bk --dtype int8";
  const std::string expected = s.one_process(command);
  const int status = bash_in(s.dir.path(), fmt::format("parallel --pipe --block {} -k --ssh ./fake_ssh --sshlogin "
                                                       "1/hostA,1/hostB --basefile model.bk {} --threads 1 {} < in.txt "
                                                       "> many.out 2>err.txt",
                                                       fs::file_size(s.dir / "in.txt") / 4 + 1, s.bin, command));
  INFO(bktest::read_file(s.dir / "err.txt"));
  REQUIRE(status == 0);
  CHECK(fs::exists(s.dir / "hosts/hostA/model.bk"));
  CHECK(fs::exists(s.dir / "hosts/hostB/model.bk"));
  CHECK(bktest::read_file(s.dir / "many.out") == expected);
}
