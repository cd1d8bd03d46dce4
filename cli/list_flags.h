#pragma once
// Flags that take comma-separated lists (--targets, --ignore-labels).
#include <string_view>
#include <string>
#include <vector>

namespace bertkit::cli {

// The items of "a, b,c": surrounding spaces dropped (a typing habit, not part of the item), and so are
// empty items.
std::vector<std::string> split_comma_list(std::string_view list);

}  // namespace bertkit::cli
