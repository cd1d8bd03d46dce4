#include "cli/list_flags.h"

namespace bertkit::cli {

std::vector<std::string> split_comma_list(std::string_view list, ItemSpaces spaces) {
  std::vector<std::string> out;
  for (;;) {
    const std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    const auto first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    if (first != std::string_view::npos)
      out.emplace_back(spaces == ItemSpaces::Keep ? item : item.substr(first, last - first + 1));
    if (comma == std::string_view::npos) return out;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace bertkit::cli
