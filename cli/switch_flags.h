#pragma once
// A setting with an on and an off flag (--normalize / --no-normalize): unset unless one is given, and
// both together are a usage error rather than whichever came last.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace bertkit::cli {

void add_switch_flags(CLI::App& sub, const std::string& on, const std::string& off, std::optional<bool>& value,
                      const std::string& on_help, const std::string& off_help);

}  // namespace bertkit::cli
