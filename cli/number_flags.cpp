#include "cli/number_flags.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace bertkit::cli {

namespace {

constexpr const char* kRangeValidator = "number range";

// from_chars takes no '+', no spaces and (for integers) no hex prefix: only what a user means as a number.
template <typename T>
bool parse_flag_number(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && stop == end;
}

}  // namespace

CLI::Validator whole_number(std::int64_t min, std::int64_t max) {
  const std::string range = fmt::format("{} to {}", min, max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        std::int64_t value = 0;
        if (parse_flag_number(text, value) && value >= min && value <= max) return {};
        return fmt::format("'{}' is not a whole number from {}", text, range);
      },
      range, kRangeValidator);
}

CLI::Validator decimal_number(double min, double max) {
  const std::string range = fmt::format("{} to {}", min, max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        double value = 0;
        if (parse_flag_number(text, value) && std::isfinite(value) && value >= min && value <= max) return {};
        return fmt::format("'{}' is not a number from {}", text, range);
      },
      range, kRangeValidator);
}

void require_number_ranges(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const bool numeric = type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT");
    if (!numeric) continue;
    try {
      option->get_validator(kRangeValidator);
    } catch (const CLI::OptionNotFound&) {
      throw std::logic_error("bertkit: numeric flag " + option->get_name() + " has no range (cli/number_flags.h)");
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) require_number_ranges(*sub);
}

}  // namespace bertkit::cli
