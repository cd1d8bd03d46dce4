// README's Slurm recipe ("Many machines"), run as printed on a real one-node Slurm cluster (munged,
// slurmctld and slurmd started by the test, see slurm_cluster.h): its job array embeds a shard of the
// input per task, a task killed mid-run by `scontrol requeue` runs again and completes its output with
// --resume, and the merged output is one process's bytes. The block is read from README.md itself, so
// the recipe cannot drift from what is tested. Without root or the packages the test fails, saying so.
#include "shell_helpers.h"
#include "slurm_cluster.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bktest::bash_in;
using bktest::shell_quote;

// The one ```sh block of README.md that submits with sbatch, as printed.
std::string readme_sbatch_block() {
  std::vector<std::string> blocks;
  std::string block;
  bool inside = false;
  for (const std::string& line : bktest::read_lines(fs::path(BERTKIT_SOURCE_DIR) / "README.md")) {
    if (!inside && line == "```sh") {
      inside = true;
      block.clear();
    } else if (inside && line == "```") {
      inside = false;
      if (block.find("sbatch ") != std::string::npos) blocks.push_back(block);
    } else if (inside) {
      block += line + "\n";
    }
  }
  REQUIRE_MESSAGE(blocks.size() == 1, "README.md has " << blocks.size() << " ```sh blocks running sbatch, not one");
  return blocks.front();
}

// The batch script the block writes: its lines between `<<'EOF'` and `EOF`.
std::vector<std::string> batch_script(const std::string& block) {
  std::vector<std::string> lines;
  bool inside = false;
  for (const std::string& line : bktest::split_lines(block)) {
    if (line == "EOF") break;
    if (inside) lines.push_back(line);
    inside = inside || line.find("<<'EOF'") != std::string::npos;
  }
  return lines;
}

// Whether bash's `condition` holds within `seconds`, tried every 0.1 s in `dir`.
bool within(const fs::path& dir, int seconds, const std::string& condition) {
  return bash_in(dir, fmt::format("for i in $(seq {}); do {} && exit 0; sleep 0.1; done; exit 1", seconds * 10,
                                  condition)) == 0;
}

}  // namespace

TEST_CASE("Slurm: README's job array gives one process's bytes, a task requeued mid-run resuming its file") {
  bktest::TempDir dir;
  const fs::path work = dir / "work";
  fs::create_directories(work);
  bktest::SlurmCluster cluster(dir / "slurm");
  // The files the recipe names: in.txt (40 English lines, 4 shards of about 10) and minilm.bk.
  std::string text;
  for (const std::string& line : bktest::read_lines(bktest::shared("corpora/en_sst2_dev.txt")))
    if (bktest::count_lines(text) < 40) text += line + "\n";
  bktest::write_file(work / "in.txt", text);
  const std::string model = (work / "minilm.bk").string();
  REQUIRE(bktest::run_bertkit({"-q", "convert", bktest::fixture_path("minilm-embed"), model}).exit_code == 0);
  const bktest::RunResult one = bktest::run_bertkit({"embed", "-m", model}, text);
  REQUIRE(one.exit_code == 0);
  REQUIRE(bktest::count_lines(one.out) == 40);
  // `bertkit` on the jobs' PATH: the binary, logging each run. The first run of task 2 reads a FIFO
  // instead of its shard: a writer the test starts, outside Slurm, gives it the shard's first 3 lines
  // and holds it open, as if the rest were slow to come, until Slurm has killed the task. (A producer
  // inside the task would die with it and hand bertkit the end of its input: README's reason for the
  // shard file.)
  REQUIRE(bash_in(work, "mkfifo slow.fifo && { split -n l/2/4 in.txt | head -n 3; exec sleep 120; } "
                        "> slow.fifo 2>/dev/null & echo $! > writer.pid") == 0);
  bktest::write_file(work / "bin/bertkit", fmt::format(R"(#!/bin/bash
echo "$SLURM_ARRAY_TASK_ID ${{SLURM_RESTART_COUNT:-0}}" >> {work}/runs.log
if [ "$SLURM_ARRAY_TASK_ID" = 2 ] && [ -z "$SLURM_RESTART_COUNT" ]; then
  exec {bin} "$@" < {work}/slow.fifo
fi
exec {bin} "$@"
)",
                                                       fmt::arg("work", shell_quote(work.string())),
                                                       fmt::arg("bin", shell_quote(BERTKIT_BINARY))));
  fs::permissions(work / "bin/bertkit", fs::perms::owner_exec, fs::perm_options::add);
  bktest::write_file(work / "recipe.sh", readme_sbatch_block());
  REQUIRE(bash_in(work, "(PATH=$PWD/bin:$PATH bash recipe.sh > recipe.log 2>&1; echo $? > recipe.status) &") == 0);

  // Task 2 has finished records (its resume log has a checkpoint past 0): Slurm kills and requeues it.
  // On a failure: what each task wrote on stderr (Slurm's slurm-JOB_TASK.out), then the daemons' logs.
  INFO(bktest::output_of("cd " + shell_quote(work.string()) + " && tail -n 5 slurm-*.out 2>&1"));
  INFO(cluster.logs());
  REQUIRE(within(work, 60, "grep -q '^[1-9]' out/2.jsonl.resume 2>/dev/null"));
  REQUIRE(bash_in(work, "task=$(squeue -h -t RUNNING -o %i | grep '_2$') && scontrol requeue $task") == 0);
  // Once its second run has started the first is gone: the writer may end.
  const bool rerun = within(work, 60, "grep -q '^2 1$' runs.log");
  bash_in(work, "kill $(cat writer.pid)");
  REQUIRE(rerun);
  // It runs again, the array completes, and the recipe merges the shards (120 s at most).
  const bool done = within(work, 120, "test -s recipe.status");
  INFO(bktest::read_file(work / "recipe.log"));
  REQUIRE(done);
  CHECK(bktest::read_file(work / "recipe.status") == "0\n");
  CHECK(bktest::read_file(work / "out.jsonl") == one.out);
  // Every task ran once, task 2 twice (its second run Slurm's restart 1), and --resume completed it.
  const std::string runs = bktest::read_file(work / "runs.log");
  CAPTURE(runs);
  for (const char* run : {"1 0\n", "2 0\n", "2 1\n", "3 0\n", "4 0\n"}) CHECK(runs.find(run) != std::string::npos);
  CHECK(bktest::count_lines(runs) == 5);
  CHECK_FALSE(fs::exists(work / "out/2.jsonl.resume"));
  // Its second run continued its file after the 3 records the first had finished (said on stderr,
  // which Slurm writes to slurm-JOB_2.out), rather than starting it again.
  CHECK(bash_in(work, "grep -q 'resuming out/2.jsonl after 3 finished records' slurm-*_2.out") == 0);
}

TEST_CASE("Slurm: bertkit(1)'s batch script is README's") {
  const std::vector<std::string> script = batch_script(readme_sbatch_block());
  REQUIRE(script.size() >= 4);
  // groff writes '-' as '\-'.
  const std::string page = std::regex_replace(bktest::read_file(fs::path(BERTKIT_SOURCE_DIR) / "man/bertkit.1"),
                                              std::regex(R"(\\-)"), "-");
  for (const std::string& line : script) CHECK_MESSAGE(page.find("\n" + line + "\n") != std::string::npos, line);
}
