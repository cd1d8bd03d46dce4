#include "cli/empty_values.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::cli {

namespace {

constexpr const char* kMayBeEmpty = "may be empty";

bool allows_empty(CLI::Option& option) {
  try {
    option.get_validator(kMayBeEmpty);
    return true;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}

}  // namespace

CLI::Validator may_be_empty() {
  return CLI::Validator([](const std::string&) { return std::string(); }, "", kMayBeEmpty);
}

void refuse_empty_values(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_positional() || option->get_type_size() == 0 || option->count() == 0 || allows_empty(*option))
      continue;
    // Named by all its spellings ("-o/--output"): the user may have typed either.
    std::string name = option->get_name(false, true);
    std::replace(name.begin(), name.end(), ',', '/');
    for (const std::string& value : option->results())
      if (value.empty()) usage_error("{} is given an empty value: give a value, or leave the flag out", name);
  }
  for (CLI::App* sub : app.get_subcommands()) refuse_empty_values(*sub);
}

}  // namespace bertkit::cli
