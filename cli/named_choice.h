#pragma once
// A flag whose value is one of a few names, each standing for a value of the layers' enums: the name
// given picks it; any other is a usage error naming the flag and listing the names.
#include "core/error.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cli {

template <typename Value>
struct NamedChoice {
  std::string_view name;
  Value value;
};

// "a, b or c".
std::string or_list(const std::vector<std::string_view>& names);

// pick_choice<Aggregation>("--aggregation", name, {{"none", Aggregation::None}, ...}); "unknown
// --aggregation 'x' (expected none, ...)" for a name that is none of them.
template <typename Value>
Value pick_choice(std::string_view flag, std::string_view name, std::initializer_list<NamedChoice<Value>> choices) {
  std::vector<std::string_view> names;
  for (const NamedChoice<Value>& choice : choices) {
    if (choice.name == name) return choice.value;
    names.push_back(choice.name);
  }
  usage_error("unknown {} '{}' (expected {})", flag, name, or_list(names));
}

}  // namespace bertkit::cli
