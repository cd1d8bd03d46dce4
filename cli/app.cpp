#include "cli/app.h"

#include "cli/number_flags.h"

#include "records/log.h"
#include "records/record_writer.h"
#include "core/error.h"
#include "core/ops/cpu_features.h"

#include <omp.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <map>
#include <stdexcept>

namespace bertkit::cli {

namespace {

void add_global_flags(CLI::App& app, GlobalOptions& global) {
  app.add_option("--threads", global.threads, "Worker threads (0 = all cores)")
      ->check(whole_number(0, 4096))
      ->capture_default_str();
  app.add_flag("-q,--quiet", global.quiet, "No warnings or progress on stderr");
}

// CLI11 reads an argument of a repeatable option written "[a, b]" as the list a, b (and "[]" as
// nothing) -- but only where it lets an option take several arguments by `allow_extra_args`. The same
// greediness comes from an unbounded count of expected arguments without it, so every text stays as
// typed: "[MASK]", "[citation needed]" and "a,b" are one argument each.
void keep_arguments_literal(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (!option->get_allow_extra_args()) continue;
    if (option->get_expected_max() != CLI::detail::expected_max_vector_size)
      throw std::logic_error("bertkit: " + option->get_name() + " takes a bounded list: declare its items one by one");
    option->expected(CLI::detail::expected_max_vector_size, CLI::detail::expected_max_vector_size)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  for (CLI::App* sub : app.get_subcommands({})) keep_arguments_literal(*sub);
}

}  // namespace

int run(int argc, char** argv) {
  // A closed stdout pipe (`bertkit ... | head -1`) is reported by write() as EPIPE and ends the
  // program quietly, as coreutils do.
  std::signal(SIGPIPE, SIG_IGN);

  CLI::App app{"bertkit: Hugging Face BERT-family models on the CPU, exactly and fast", "bertkit"};
  app.option_defaults()->always_capture_default();
  app.set_version_flag("-V,--version", std::string("bertkit ") + BERTKIT_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // global flags may follow the subcommand
  GlobalOptions global;
  add_global_flags(app, global);

  std::map<CLI::App*, Action> actions;
  for (const Subcommand& entry : subcommands()) {
    CLI::App* sub = app.add_subcommand(entry.name, entry.summary);
    sub->fallthrough();
    actions[sub] = entry.add(*sub, global);
  }
  keep_arguments_literal(app);
  require_number_ranges(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ErrorKind::Usage);
  }

  try {
    records::set_quiet(global.quiet);
    // Before any kernel or oneDNN primitive runs: BERTKIT_CPU may cap what they use.
    const core::CpuSelection& cpu = core::cpu_selection();
    if (!cpu.error.empty()) usage_error("{}", cpu.error);
    if (!cpu.warning.empty()) records::warn("{}", cpu.warning);
    if (global.threads > 0) omp_set_num_threads(global.threads);
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
    return static_cast<int>(ErrorKind::Usage);
  } catch (const records::StdoutClosed&) {
    return 0;
  } catch (const Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "bertkit: error: %s\n", e.what());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bertkit: error: out of memory\n");
    return static_cast<int>(ErrorKind::Runtime);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bertkit: error: %s\n", e.what());
    return static_cast<int>(ErrorKind::Runtime);
  }
}

}  // namespace bertkit::cli
