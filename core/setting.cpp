#include "core/setting.h"

#include <atomic>

namespace bertkit {

namespace {

// Atomic: set once at start, read by messages from any thread.
std::atomic<SettingSpeller> installed{nullptr};

}  // namespace

void spell_settings_with(SettingSpeller speller) { installed.store(speller, std::memory_order_release); }

std::string_view spelling(Setting setting) {
  const SettingSpeller speller = installed.load(std::memory_order_acquire);
  return speller ? speller(setting) : "a setting";
}

}  // namespace bertkit
