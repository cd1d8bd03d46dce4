#pragma once
// A flag given an empty value (--question "", --column "") is a usage error naming it: many flags switch
// a mode by their presence or fall back to a default when empty, and a value the user gave must never be
// read as no value. A flag whose empty value means something (embed's --prefix "": no prefix, not the
// checkpoint's default prompt) says so with may_be_empty().
#include <CLI/CLI.hpp>

namespace bertkit::cli {

CLI::Validator may_be_empty();

// Checks every option given to `app` and to the subcommands it parsed (positional texts are records,
// whose emptiness the commands judge, and are not checked).
void refuse_empty_values(CLI::App& app);

}  // namespace bertkit::cli
