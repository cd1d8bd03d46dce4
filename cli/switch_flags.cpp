#include "cli/switch_flags.h"

namespace bertkit::cli {

void add_switch_flags(CLI::App& sub, const std::string& on, const std::string& off, std::optional<bool>& value,
                      const std::string& on_help, const std::string& off_help) {
  CLI::Option* on_flag = sub.add_flag_callback(on, [&value] { value = true; }, on_help);
  CLI::Option* off_flag = sub.add_flag_callback(off, [&value] { value = false; }, off_help);
  on_flag->excludes(off_flag);
  off_flag->excludes(on_flag);
}

}  // namespace bertkit::cli
