// `bertkit convert SRC DST [--dtype ...]` and `bertkit convert --check FILE`.
#include "cli/app.h"
#include "cli/log.h"
#include "commands/convert.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bertkit::cli {

namespace {

struct ConvertOptions {
  std::vector<std::string> paths;
  std::string dtype = "f32";
  bool check = false;
};

int run_convert(const ConvertOptions& o) {
  if (o.check) {
    if (o.paths.size() != 1) usage_error("convert --check takes one file");
    auto result = core::check_converted_file(o.paths[0]);
    fmt::print("{}: ok ({} tensors, {}, {} bytes, checksum {:016x})\n", o.paths[0], result.tensors, result.dtype,
               result.bytes, result.checksum);
    return 0;
  }
  if (o.paths.size() != 2) usage_error("convert takes a source model and a destination file");
  auto summary = cmd::convert_model(o.paths[0], o.paths[1], core::parse_store_type(o.dtype));
  if (!summary.unused_tensors.empty())
    warn("{} tensors of {} are not used by the model and were left out: {}", summary.unused_tensors.size(), o.paths[0],
         fmt::join(summary.unused_tensors, ", "));
  if (!quiet())
    fmt::print(stderr, "bertkit: wrote {} ({} tensors, {}, {} bytes)\n", o.paths[1], summary.tensors, o.dtype,
               summary.bytes);
  return 0;
}

}  // namespace

Action add_convert(CLI::App& sub, const GlobalOptions& global) {
  auto o = std::make_shared<ConvertOptions>();
  sub.add_option("paths", o->paths, "SRC DST: the model (folder, converted file or Hugging Face id) and the file to write")
      ->required()
      ->expected(1, 2);
  sub.add_option("--dtype", o->dtype, "Type of the Linear weights in the file: f32, f16, bf16 or int8")
      ->check(CLI::IsMember({"f32", "f16", "bf16", "int8"}));
  sub.add_flag("--check", o->check, "Verify the structure and checksum of a converted FILE instead");
  return [o, &global] {
    set_quiet(global.quiet);
    return run_convert(*o);
  };
}

}  // namespace bertkit::cli
