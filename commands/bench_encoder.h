#pragma once
// `bertkit bench`'s encoder rows: each thread count × each synthetic workload (batch × length random
// tokens), timed, next to the f32 FMA peak measured with the same threads right after.
#include "core/bench/encoder_timing.h"
#include "core/checkpoint/weights.h"
#include "core/model/config.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

// One batch: `BATCHxLENGTH` (that many sequences of one length) or `L1+L2+...` (a sequence of each length,
// packed together as texts of mixed lengths are).
struct Workload {
  std::string name;
  std::vector<std::int64_t> lengths;
};

// How long each measurement runs: at least `min_runs` batches and `min_seconds`.
struct BenchTimes {
  int min_runs = 3;
  double min_seconds = 3.0;
  bool profile = false;  // time each op too
};

struct EncoderRow {
  int threads = 0;
  Workload workload;
  core::EncoderTiming timing;
  double peak_gflops = 0;  // the f32 FMA peak of `threads` threads
};

// Rows are handed to `emit` as each finishes (a long run shows progress).
void bench_encoder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
                   std::span<const Workload> workloads, std::span<const int> threads, const BenchTimes& times,
                   const std::function<void(const EncoderRow&)>& emit);

}  // namespace bertkit::cmd
