#include "cli/app.h"

#include "cli/default_threads.h"
#include "cli/empty_values.h"
#include "cli/hub_download_cli.h"
#include "cli/number_flags.h"
#include "cli/setting_spellings.h"

#include "records/json_line.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "core/error.h"
#include "core/ops/cpu_features.h"

#include <omp.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cli {

namespace {

void add_global_flags(CLI::App& app, GlobalOptions& global) {
  app.add_option("--threads", global.threads,
                 "Most worker threads (0 = the cores this process may use, within its cgroup's CPU quota)")
      ->check(whole_number(0, 4096))
      ->capture_default_str();
  app.add_flag("-q,--quiet", global.quiet, "No warnings or progress on stderr");
}

// CLI11 reads an argument of a repeatable option written "[a, b]" as the list a, b (and "[]" as
// nothing) -- but only where `allow_extra_args` lets the option take several arguments. Without it, an
// unbounded minimum count keeps the same greediness (a positional takes arguments while it has fewer
// than its minimum, an option up to the next flag or `--`; the policy TakeAll accepts fewer), so
// every text stays as typed: "[MASK]", "[citation needed]" and "a,b" are one argument each.
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

// `bertkit help [COMMAND]` is `bertkit [COMMAND] --help`.
std::vector<std::string> help_as_flag(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args.front() == "help") {
    args.erase(args.begin());
    const bool command = args.empty() || std::any_of(subcommands().begin(), subcommands().end(),
                                                     [&](const Subcommand& entry) {
                                                       return args.front() == entry.name ||
                                                              (entry.alias && args.front() == entry.alias);
                                                     });
    // `help NAME` of no command is reported as NAME is: unknown, with the nearest command.
    if (command) args.insert(args.begin() + (args.empty() ? 0 : 1), "--help");
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  return args;
}

std::size_t command_name_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// What went wrong when no command was recognized: none given, or a name that is not one.
std::string missing_command_message(const CLI::App& app) {
  std::string names;
  for (const Subcommand& entry : subcommands()) names += (names.empty() ? "" : ", ") + std::string(entry.name);
  const std::vector<std::string> rest = app.remaining();
  const auto word = std::find_if(rest.begin(), rest.end(), [](const std::string& a) { return !a.starts_with("-"); });
  if (word == rest.end()) {
    if (!rest.empty()) return fmt::format("unknown option '{}' (the commands are {})", rest.front(), names);
    return fmt::format("give a command: {}", names);
  }
  const Subcommand* nearest = nullptr;
  std::size_t best = SIZE_MAX;
  for (const Subcommand& entry : subcommands()) {
    const std::size_t d = command_name_distance(*word, entry.name);
    if (d < best) best = d, nearest = &entry;
  }
  // A typo is a few edits away; a name of another tool ("serve") is far from every command.
  if (best <= std::max<std::size_t>(2, word->size() / 3))
    return fmt::format("unknown command '{}'; did you mean '{}'?", *word, nearest->name);
  return fmt::format("unknown command '{}' (the commands are {})", *word, names);
}

// An argument CLI11 left unread that is written as a flag (-x, --name; not "-" nor "-1"), if any.
std::string unknown_flag(const CLI::App& app) {
  for (const std::string& arg : app.remaining(true)) {
    const bool flag = arg.size() > 1 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1])) && arg[1] != '.';
    if (flag) return arg;
  }
  return {};
}

// "unknown option", with the command's nearest flag when it looks like a typo (--modle: --model).
std::string unknown_flag_message(const CLI::App& app, const CLI::App& command, const std::string& flag) {
  const std::string name = flag.substr(0, flag.find('='));
  const std::size_t letters = name.find_first_not_of('-');
  const std::string bare = letters == std::string::npos ? name : name.substr(letters);
  std::string nearest;
  std::size_t best = SIZE_MAX;
  for (const CLI::App* owner : {&command, &app})
    for (const CLI::Option* option : owner->get_options())
      for (const std::string& known : option->get_lnames()) {
        const std::size_t d = command_name_distance(bare, known);
        if (d < best) best = d, nearest = "--" + known;
      }
  if (!nearest.empty() && best <= std::max<std::size_t>(2, bare.size() / 3))
    return fmt::format("{}: unknown option '{}'; did you mean '{}'?", command.get_name(), name, nearest);
  return fmt::format("{}: unknown option '{}' (see bertkit {} --help)", command.get_name(), name, command.get_name());
}

// CLI11's errors in the form of every other bertkit error: one "bertkit: error:" line. A flag the
// command does not know is named first: what its absence caused ("--model is required" for a mistyped
// --model) follows from it.
void report_parse_error(const CLI::App& app, const CLI::ParseError& e) {
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->parsed()) command = sub;
  const std::string flag = command ? unknown_flag(app) : std::string();
  std::string message = !command         ? missing_command_message(app)
                        : !flag.empty()  ? unknown_flag_message(app, *command, flag)
                                         : std::string(e.what());
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fflush(stdout);
  std::fprintf(stderr, "bertkit: error: %s\n", message.c_str());
}

std::string& settings_storage() {
  static std::string settings;
  return settings;
}

std::string settings_of(int argc, char** argv) {
  records::JsonLine j;
  j.begin_array();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--resume" || arg == "-q" || arg == "--quiet" || arg.starts_with("--threads=")) continue;
    if (arg == "--threads") {
      ++i;
      continue;
    }
    j.value(arg);
  }
  j.end_array();
  std::string line(j.line());
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

}  // namespace

const std::string& command_settings() { return settings_storage(); }

int run(int argc, char** argv) {
  spell_settings_as_flags();  // before anything can fail with a message naming a setting
  settings_storage() = settings_of(argc, argv);
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
    if (entry.alias) sub->alias(entry.alias);
    actions[sub] = entry.add(*sub, global);
  }
  keep_arguments_literal(app);
  require_number_ranges(app);

  try {
    app.parse(help_as_flag(argc, argv));
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    report_parse_error(app, e);
    return static_cast<int>(ErrorKind::Usage);
  }

  try {
    refuse_empty_values(app);
    records::set_quiet(global.quiet);
    // Before any kernel or oneDNN primitive runs: BERTKIT_CPU may cap what they use.
    const core::CpuSelection& cpu = core::cpu_selection();
    if (!cpu.error.empty()) usage_error("{}", cpu.error);
    if (!cpu.warning.empty()) records::warn("{}", cpu.warning);
    if (global.threads > 0) omp_set_num_threads(global.threads);
    else limit_threads_to_cpu_quota();
    install_model_download();
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
