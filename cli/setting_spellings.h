#pragma once
// The flag that sets each core::Setting: how messages below the CLI name it.
#include "core/setting.h"

namespace bertkit::cli {

std::string_view flag_of(Setting setting);

// Installs flag_of as the speller of every message (core/setting.h).
void spell_settings_as_flags();

}  // namespace bertkit::cli
