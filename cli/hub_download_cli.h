#pragma once
// What the user sees of a Hub download (notes on stderr, a bar per file), and the install of the
// download as the way every command's -m ORG/NAME gets a model the cache lacks.
#include "cli/app.h"
#include "core/hub/hub_download.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace bertkit::cli {

// Notes as "bertkit: ..." lines unless --quiet; a bar per file (bytes, rate, ETA, left as one line when
// the file is done) when stderr is a terminal or `force_bar`, and not --quiet.
class DownloadReport : public core::DownloadObserver {
 public:
  explicit DownloadReport(bool force_bar);
  void note(const std::string& line) override;
  void file_started(const std::string& path, std::uint64_t size, std::uint64_t resumed_from) override;
  void file_progress(std::uint64_t bytes_done) override;
  void file_finished() override;

 private:
  void draw(bool last);

  bool bar_ = false;
  std::string path_;
  std::uint64_t size_ = 0, resumed_from_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// What every download from the CLI checks of config.json before the weights come: a model bertkit
// runs (the model config's parser; the downloader knows no model configs).
void check_model_config(const std::string& config_json, const std::string& where);

// From now on a model id missing from the cache is downloaded, and a cached snapshot lacking files
// completed (with a note saying so), unless offline.
void install_model_download();

}  // namespace bertkit::cli
