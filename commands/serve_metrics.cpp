#include "commands/serve_metrics.h"

#include <fmt/format.h>

namespace bertkit::cmd {

template <std::size_t N>
void ServeMetrics::Histogram<N>::add(double x, const std::array<double, N>& bounds) {
  std::size_t i = 0;
  while (i < N && x > bounds[i]) ++i;
  ++counts[i];
  sum += x;
  ++count;
}

void ServeMetrics::request(const std::string& route, int status, double seconds) {
  std::lock_guard lock(mutex_);
  ++requests_[{route, status}];
  latency_[route].add(seconds, kSeconds);
}

void ServeMetrics::batch(const BatchReport& report) {
  std::lock_guard lock(mutex_);
  ++batches_;
  records_ += report.records;
  tokens_ += report.tokens;
  batch_requests_.add(static_cast<double>(report.requests), kSizes);
  batch_records_.add(static_cast<double>(report.records), kSizes);
  batch_seconds_.add(report.seconds, kSeconds);
}

namespace {

template <std::size_t N, typename H>
void write_histogram(std::string& out, const std::string& name, const std::string& labels, const H& h,
                     const std::array<double, N>& bounds) {
  const std::string sep = labels.empty() ? "" : ",";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= N; ++i) {
    cumulative += h.counts[i];
    const std::string le = i < N ? fmt::format("{}", bounds[i]) : "+Inf";
    out += fmt::format("{}_bucket{{{}{}le=\"{}\"}} {}\n", name, labels, sep, le, cumulative);
  }
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  out += fmt::format("{}_sum{} {}\n{}_count{} {}\n", name, braces, h.sum, name, braces, h.count);
}

}  // namespace

std::string ServeMetrics::text(std::size_t queue_depth) const {
  std::lock_guard lock(mutex_);
  std::string out;
  out += "# HELP bertkit_requests_total HTTP requests answered, by route and status.\n"
         "# TYPE bertkit_requests_total counter\n";
  for (const auto& [key, n] : requests_)
    out += fmt::format("bertkit_requests_total{{route=\"{}\",status=\"{}\"}} {}\n", key.first, key.second, n);
  out += "# HELP bertkit_request_duration_seconds Time from a request's arrival to its answer.\n"
         "# TYPE bertkit_request_duration_seconds histogram\n";
  for (const auto& [route, h] : latency_)
    write_histogram(out, "bertkit_request_duration_seconds", fmt::format("route=\"{}\"", route), h, kSeconds);
  out += fmt::format("# HELP bertkit_queue_depth Requests waiting for the model or being computed.\n"
                     "# TYPE bertkit_queue_depth gauge\nbertkit_queue_depth {}\n", queue_depth);
  out += fmt::format("# HELP bertkit_batches_total Batches computed.\n# TYPE bertkit_batches_total counter\n"
                     "bertkit_batches_total {}\n", batches_);
  out += fmt::format("# HELP bertkit_inputs_total Records (texts, pairs, queries with their documents) computed.\n"
                     "# TYPE bertkit_inputs_total counter\nbertkit_inputs_total {}\n", records_);
  out += fmt::format("# HELP bertkit_tokens_total Tokens of the inputs computed.\n# TYPE bertkit_tokens_total counter\n"
                     "bertkit_tokens_total {}\n", tokens_);
  out += "# HELP bertkit_batch_requests Requests merged into one batch.\n# TYPE bertkit_batch_requests histogram\n";
  write_histogram(out, "bertkit_batch_requests", "", batch_requests_, kSizes);
  out += "# HELP bertkit_batch_size Records in one batch.\n# TYPE bertkit_batch_size histogram\n";
  write_histogram(out, "bertkit_batch_size", "", batch_records_, kSizes);
  out += "# HELP bertkit_batch_duration_seconds Time to compute one batch.\n"
         "# TYPE bertkit_batch_duration_seconds histogram\n";
  write_histogram(out, "bertkit_batch_duration_seconds", "", batch_seconds_, kSeconds);
  return out;
}

}  // namespace bertkit::cmd
