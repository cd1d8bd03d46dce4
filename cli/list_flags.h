#pragma once
// Flags that take comma-separated lists (--targets, --ignore-labels).
#include <string_view>
#include <string>
#include <vector>

namespace bertkit::cli {

// What surrounds an item: a typing habit, or part of the item (fill-mask's targets, where " Paris" is
// another token than "Paris").
enum class ItemSpaces { Drop, Keep };

// The items of "a, b,c": surrounding spaces dropped unless kept; items of nothing but spaces are left
// out either way.
std::vector<std::string> split_comma_list(std::string_view list, ItemSpaces spaces = ItemSpaces::Drop);

}  // namespace bertkit::cli
