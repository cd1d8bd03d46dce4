#pragma once
// The bertkit command line: global flags, the subcommand table, and the mapping of errors to exit codes.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace bertkit::cli {

struct GlobalOptions {
  int threads = 0;  // 0 = all cores
  bool quiet = false;
};

// Each subcommand registers its flags on `sub` and returns the action to run once parsing succeeded.
// The action returns the process exit code.
using Action = std::function<int()>;
using Registrar = Action (*)(CLI::App& sub, const GlobalOptions& global);

struct Subcommand {
  const char* name;
  const char* summary;
  Registrar add;
  const char* alias = nullptr;  // a second name (transformers' task name)
};

// The table lives in subcommands.cpp: one line per subcommand.
const std::vector<Subcommand>& subcommands();

int run(int argc, char** argv);

// The command line as a resume log records it (records/resume_log.h): the arguments after the program
// name as a JSON array, without --resume, --threads and -q, which change no output byte.
const std::string& command_settings();

}  // namespace bertkit::cli
