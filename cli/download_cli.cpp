// `bertkit download ORG/NAME[@REVISION]`: fetches what bertkit needs to run a Hub model into the
// Hugging Face cache and prints the snapshot folder.
#include "cli/app.h"
#include "cli/hub_download_cli.h"
#include "core/error.h"
#include "records/log.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bertkit::cli {

namespace {

struct DownloadFlags {
  std::string model;
  std::vector<std::string> includes, excludes;
  bool offline = false;
  bool progress = false;
};

int run_download(const DownloadFlags& flags) {
  const std::optional<core::ModelId> id = core::parse_model_id(flags.model);
  if (!id) bad_input("'{}' is not a Hugging Face model id (ORG/NAME or ORG/NAME@REVISION)", flags.model);
  DownloadReport report(flags.progress);
  core::DownloadOptions options;
  options.filters.includes = flags.includes;
  options.filters.excludes = flags.excludes;
  options.offline = flags.offline;
  options.observer = &report;
  options.check_config = check_model_config;
  const core::DownloadResult result = core::download_model(*id, options);
  // The files asked for are kept; the exit status says the model cannot run from them.
  if (result.lacking && !result.excluded.empty())
    usage_error("model {}: --exclude left out {}, and the snapshot ({}) lacks {}: no model command but tokenize runs "
                "from it (a model command run online fetches what is missing)",
                id->text(), fmt::join(result.excluded, ", "), result.snapshot.string(), *result.lacking);
  if (result.lacking)
    bad_input("model {}: the repository lacks {}: bertkit cannot run it (its other files are in {})", id->text(),
              *result.lacking, result.snapshot.string());
  if (!result.offline)
    report.note(result.files_fetched ? fmt::format("{}: {} files fetched ({:.1f} MB) at commit {}", id->text(), result.files_fetched,
                                                   static_cast<double>(result.bytes_fetched) / 1e6, result.commit)
                                     : fmt::format("{}: up to date at commit {}", id->text(), result.commit));
  fmt::print("{}\n", result.snapshot.string());
  return 0;
}

}  // namespace

Action add_download(CLI::App& sub, const GlobalOptions& global) {
  auto f = std::make_shared<DownloadFlags>();
  sub.add_option("model", f->model, "Hugging Face model id: ORG/NAME, or ORG/NAME@REVISION (a branch, tag or commit)")
      ->required();
  sub.add_option("--include", f->includes, "Also fetch the repository's files matching this glob (repeatable)");
  sub.add_option("--exclude", f->excludes, "Never fetch the files matching this glob, even those bertkit reads (repeatable)");
  sub.add_flag("--offline", f->offline, "Never touch the network: print the cached snapshot or fail (as HF_HUB_OFFLINE=1)");
  sub.add_flag("--progress", f->progress, "Draw the progress bars on stderr even when it is not a terminal");
  return [f, &global] {
    records::set_quiet(global.quiet);
    return run_download(*f);
  };
}

}  // namespace bertkit::cli
