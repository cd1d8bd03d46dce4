#include "cli/app.h"

namespace bertkit::cli {

Action add_tokenize(CLI::App& sub, const GlobalOptions& global);
Action add_convert(CLI::App& sub, const GlobalOptions& global);
Action add_info(CLI::App& sub, const GlobalOptions& global);

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"tokenize", "Split text into WordPiece tokens and ids, exactly as Hugging Face does", add_tokenize},
      {"convert", "Convert a checkpoint into one memory-mapped bertkit file (f32, f16, bf16 or int8)", add_convert},
      {"info", "Show what bertkit detects in a model and where each part came from", add_info},
  };
  return table;
}

}  // namespace bertkit::cli
