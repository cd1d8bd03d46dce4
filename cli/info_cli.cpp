// `bertkit info MODEL`: what bertkit detected, as "key: value" lines or one JSON object.
#include "cli/app.h"
#include "records/log.h"
#include "commands/info.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace bertkit::cli {

namespace {

struct InfoOptions {
  std::string model, model_flag;
  bool json = false;
};

std::vector<cmd::InfoField> model_fields(const InfoOptions& o) {
  const std::filesystem::path location = core::resolve_model_location(o.model);
  std::error_code ec;
  if (std::filesystem::is_directory(location, ec) && core::static_layout(location))
    return cmd::static_model_info(core::load_static_model(location, o.model));
  core::LoadedModel model = core::load_model(o.model);
  if (!model.unexpected_tensors.empty())
    records::warn("{} tensors of {} are not used by the model: {}", model.unexpected_tensors.size(), o.model,
         fmt::join(model.unexpected_tensors, ", "));
  return cmd::model_info(model);
}

int run_info(const InfoOptions& o) {
  const auto fields = model_fields(o);
  if (o.json)
    fmt::print("{}\n", cmd::info_json(fields).dump());
  else
    for (const auto& f : fields) fmt::print("{}: {}\n", f.key, f.text);
  return 0;
}

}  // namespace

Action add_info(CLI::App& sub, const GlobalOptions& global) {
  auto o = std::make_shared<InfoOptions>();
  // Not "model": CLI11 2.4 (Debian 13) refuses a positional of the same name as the --model flag.
  sub.add_option("MODEL", o->model, "Model folder, converted file or Hugging Face model id (or -m)");
  sub.add_option("-m,--model", o->model_flag, "The model, spelled as every other command takes it");
  sub.add_flag("--json", o->json, "Print one JSON object instead of key: value lines");
  return [o, &global] {
    if (!o->model.empty() && !o->model_flag.empty()) usage_error("give the model with -m or as an argument, not both");
    if (o->model.empty()) o->model = o->model_flag;
    if (o->model.empty()) usage_error("info needs a model: -m MODEL (or MODEL as an argument)");
    records::set_quiet(global.quiet);
    return run_info(*o);
  };
}

}  // namespace bertkit::cli
