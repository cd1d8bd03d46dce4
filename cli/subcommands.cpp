#include "cli/app.h"

namespace bertkit::cli {

Action add_tokenize(CLI::App& sub, const GlobalOptions& global);

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"tokenize", "Split text into WordPiece tokens and ids, exactly as Hugging Face does", add_tokenize},
  };
  return table;
}

}  // namespace bertkit::cli
