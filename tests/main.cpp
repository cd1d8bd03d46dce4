#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "cli/setting_spellings.h"
#include "core/ops/cpu_features.h"

#include <cstdio>

int main(int argc, char** argv) {
  // BERTKIT_CPU picks the kernels the tests check (tests/run.sh runs the goldens on the portable path
  // too), as it does for bertkit: a value bertkit refuses must not quietly test the default path.
  const auto& cpu = bertkit::core::cpu_selection();
  if (!cpu.error.empty()) {
    std::fprintf(stderr, "bertkit_tests: %s\n", cpu.error.c_str());
    return 2;
  }
  if (!cpu.warning.empty()) std::fprintf(stderr, "bertkit_tests: warning: %s\n", cpu.warning.c_str());
  // Messages from the layers below the CLI name settings as bertkit does, so tests read the same text.
  bertkit::cli::spell_settings_as_flags();
  return doctest::Context(argc, argv).run();
}
