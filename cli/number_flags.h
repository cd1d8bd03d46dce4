#pragma once
// Numeric flags are checked on the text as typed, against the range each one allows: CLI11 alone reads
// "-1" into an unsigned flag as 2^64-1, and takes "0x10" or " 5" as numbers.
#include <CLI/CLI.hpp>

#include <cstdint>

namespace bertkit::cli {

// A whole number from min to max, in decimal digits.
CLI::Validator whole_number(std::int64_t min, std::int64_t max);
// A finite decimal number from min to max.
CLI::Validator decimal_number(double min, double max);

// Every option of a numeric type in `app` and its subcommands has one of the above (a logic error
// otherwise: a flag added without its range is caught the first time bertkit runs).
void require_number_ranges(CLI::App& app);

}  // namespace bertkit::cli
