// Encoder throughput on random-weight models of real shapes: sequences/s, tokens/s and GFLOP/s per
// workload and thread count, next to the f32 FMA peak measured with the same threads, and the share
// of the cores the process actually got ("cpu": below ~95%, other processes were running and the
// figures understate the encoder). Not a test: it prints figures; quote medians of several runs.
//
//   build/tests/bertkit_encoder_bench [--shapes bert-base,minilm-l6] [--workloads 1x128,8x128,32x128,1x384]
//                                     [--threads 1,2] [--min-time 3] [--runs 3] [--dtype f32|bf16|int8]
#include "core/bench/encoder_timing.h"
#include "core/bench/fma_peak.h"
#include "core/bench/model_shapes.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/error.h"

#include <fmt/format.h>
#include <omp.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

struct Workload {
  std::int64_t batch, length;
};

Workload parse_workload(const std::string& text) {
  auto x = text.find('x');
  if (x == std::string::npos) bertkit::usage_error("workload \"{}\" is not BATCHxLENGTH", text);
  return {std::stoll(text.substr(0, x)), std::stoll(text.substr(x + 1))};
}

}  // namespace

int main(int argc, char** argv) try {
  std::string shapes = "bert-base,minilm-l6", workloads = "1x128,8x128,32x128,1x384", threads = "1,2", dtype = "f32";
  double min_time = 3.0;
  int runs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--shapes")) shapes = argv[i + 1];
    else if (!std::strcmp(argv[i], "--workloads")) workloads = argv[i + 1];
    else if (!std::strcmp(argv[i], "--threads")) threads = argv[i + 1];
    else if (!std::strcmp(argv[i], "--min-time")) min_time = std::stod(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs")) runs = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--dtype")) dtype = argv[i + 1];
    else bertkit::usage_error("unknown option {}", argv[i]);
  }

  fmt::print("dtype {}\n", dtype);
  fmt::print("{:<10} {:>7} {:>9} {:>5} {:>9} {:>10} {:>9} {:>9} {:>7} {:>5}\n", "shape", "threads", "workload", "runs",
             "seq/s", "tokens/s", "GFLOP/s", "peak", "of peak", "cpu");
  for (const auto& name : split(shapes)) {
    const auto& shape = bertkit::core::find_model_shape(name);
    auto config = bertkit::core::config_of(shape);
    auto weights = std::make_shared<const bertkit::core::Weights>(bertkit::core::with_store_type(
        bertkit::core::random_weights(config, 1), bertkit::core::parse_store_type(dtype)));
    for (const auto& t : split(threads)) {
      const int n = std::stoi(t);
      omp_set_num_threads(n);
      bertkit::core::Encoder encoder(config, weights);
      for (const auto& w : split(workloads)) {
        auto workload = parse_workload(w);
        auto timing = bertkit::core::time_encoder(encoder, workload.batch, workload.length, runs, min_time, n);
        // Measured right after the workload, with the same threads: the machine's state is shared.
        double peak = bertkit::core::measure_f32_fma_peak(n);
        fmt::print("{:<10} {:>7} {:>9} {:>5} {:>9.2f} {:>10.0f} {:>9.1f} {:>9.1f} {:>6.1f}% {:>4.0f}%\n", name, n, w,
                   timing.runs, timing.sequences_per_second, timing.tokens_per_second, timing.gflops, peak,
                   100.0 * timing.gflops / peak, 100.0 * timing.cpu_share);
        std::fflush(stdout);
      }
    }
  }
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "bertkit_encoder_bench: {}\n", e.what());
  return 1;
}
