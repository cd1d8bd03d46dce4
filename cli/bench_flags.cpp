#include "cli/bench_flags.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

namespace bertkit::cli {

namespace {

std::vector<std::string_view> split_list(std::string_view list, char separator = ',') {
  std::vector<std::string_view> items;
  while (!list.empty()) {
    auto at = list.find(separator);
    items.push_back(list.substr(0, at));
    list = at == std::string_view::npos ? std::string_view() : list.substr(at + 1);
  }
  return items;
}

// A whole positive number (no sign, no trailing text) up to `max`, else nullopt.
std::optional<std::int64_t> positive(std::string_view text, std::int64_t max) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0 || v > max) return std::nullopt;
  return v;
}

}  // namespace

std::vector<cmd::Workload> parse_workloads(std::string_view list, std::int64_t max_length) {
  std::vector<cmd::Workload> out;
  for (auto item : split_list(list)) {
    cmd::Workload w{std::string(item), {}};
    if (auto x = item.find('x'); x != std::string_view::npos) {
      auto batch = positive(item.substr(0, x), 1 << 20), length = positive(item.substr(x + 1), 1 << 20);
      if (batch && length) w.lengths.assign(static_cast<std::size_t>(*batch), *length);
    } else if (item.find('+') != std::string_view::npos) {
      for (auto part : split_list(item, '+')) {
        auto length = positive(part, 1 << 20);
        if (!length) break;
        w.lengths.push_back(*length);
      }
      if (w.lengths.size() != split_list(item, '+').size()) w.lengths.clear();
    }
    if (w.lengths.empty())
      usage_error("--workloads: \"{}\" is not BATCHxLENGTH (e.g. 8x128) or LENGTH+LENGTH+...", item);
    if (*std::max_element(w.lengths.begin(), w.lengths.end()) > max_length)
      usage_error("--workloads: {} is longer than the model takes ({} tokens, max_position_embeddings)", item,
                  max_length);
    out.push_back(std::move(w));
  }
  if (out.empty()) usage_error("--workloads: no workload given");
  return out;
}

std::vector<int> parse_thread_counts(std::string_view list) {
  std::vector<int> out;
  for (auto item : split_list(list)) {
    auto n = positive(item, 4096);
    if (!n) usage_error("--threads: \"{}\" is not a thread count from 1 to 4096", item);
    out.push_back(static_cast<int>(*n));
  }
  if (out.empty()) usage_error("--threads: no thread count given");
  return out;
}

std::vector<std::int64_t> parse_lengths(std::string_view list) {
  std::vector<std::int64_t> out;
  for (auto item : split_list(list)) {
    auto n = positive(item, 1 << 20);
    if (!n) usage_error("--attention: \"{}\" is not a sequence length from 1 to 1048576", item);
    out.push_back(*n);
  }
  if (out.empty()) usage_error("--attention: no length given");
  return out;
}

}  // namespace bertkit::cli
