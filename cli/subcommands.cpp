#include "cli/app.h"

namespace bertkit::cli {

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
  };
  return table;
}

}  // namespace bertkit::cli
