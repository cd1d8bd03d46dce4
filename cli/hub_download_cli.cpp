#include "cli/hub_download_cli.h"

#include "core/loading/model_source.h"
#include "core/loading/static_folder.h"
#include "core/model/config.h"
#include "records/log.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>

namespace bertkit::cli {

namespace {

std::string megabytes(std::uint64_t bytes) { return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6); }

}  // namespace

DownloadReport::DownloadReport(bool force_bar) : bar_(!records::quiet() && (force_bar || ::isatty(2) == 1)) {}

void DownloadReport::note(const std::string& line) {
  if (records::quiet()) return;
  std::fflush(stdout);
  fmt::print(stderr, "bertkit: {}\n", line);
}

void DownloadReport::file_started(const std::string& path, std::uint64_t size, std::uint64_t resumed_from) {
  path_ = path;
  size_ = size;
  resumed_from_ = done_ = resumed_from;
  start_ = last_draw_ = std::chrono::steady_clock::now();
  draw(false);
}

void DownloadReport::file_progress(std::uint64_t bytes_done) {
  done_ = bytes_done;
  if (std::chrono::steady_clock::now() - last_draw_ >= std::chrono::milliseconds(100)) draw(false);
}

void DownloadReport::file_finished() { draw(true); }

void DownloadReport::draw(bool last) {
  if (!bar_) return;
  last_draw_ = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(last_draw_ - start_).count();
  const double rate = seconds > 0.05 ? static_cast<double>(done_ - resumed_from_) / seconds : 0;
  const int percent = size_ ? static_cast<int>(100 * done_ / size_) : 100;
  std::string line = fmt::format("{}  {:3d}%  {:.1f}/{}", path_, percent, static_cast<double>(done_) / 1e6, megabytes(size_));
  if (resumed_from_) line += fmt::format("  (resumed at {})", megabytes(resumed_from_));
  if (rate > 0) line += fmt::format("  {:.1f} MB/s", rate / 1e6);
  if (!last && rate > 0 && done_ < size_) {
    const auto eta = static_cast<long>(static_cast<double>(size_ - done_) / rate);
    line += fmt::format("  ETA {}:{:02d}", eta / 60, eta % 60);
  }
  fmt::print(stderr, "\r\033[K{}{}", line, last ? "\n" : "");
  std::fflush(stderr);
}

void check_model_config(const std::string& config_json, const std::string& where) {
  if (core::names_model2vec(config_json)) return;  // a static embedding model: no transformer to check
  core::parse_model_config(config_json, where);
}

void install_model_download() {
  core::set_model_fetcher([](const core::ModelId& id, const core::CacheMiss& miss) {
    DownloadReport report(false);
    core::DownloadOptions options;
    options.observer = &report;
    options.need = miss.need;
    options.check_config = check_model_config;
    const std::string from = fmt::format("from {} into {}", core::hub_endpoint(), core::hf_download_cache_dir().string());
    if (!core::hub_offline()) {
      if (miss.cut_off)
        report.note(fmt::format("{} is in the Hugging Face cache only in part (a download stopped): downloading its "
                                "config, tokenizer and weights {}",
                                id.text(), from));
      else if (miss.incomplete)
        report.note(fmt::format("{} is in the Hugging Face cache, but {}: fetching what is missing {}", id.text(),
                                *miss.incomplete, from));
      else
        report.note(fmt::format("{} is not in the Hugging Face cache: downloading its config, tokenizer and weights {}",
                                id.text(), from));
    }
    return core::download_model(id, options).snapshot;
  });
}

}  // namespace bertkit::cli
