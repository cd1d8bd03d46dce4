#include "commands/bench_encoder.h"

#include "core/bench/fma_peak.h"
#include "core/model/encoder.h"

#include <omp.h>

#include <string>

namespace bertkit::cmd {

void bench_encoder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
                   std::span<const Workload> workloads, std::span<const int> threads, const BenchTimes& times,
                   const std::function<void(const EncoderRow&)>& emit) {
  for (int n : threads) {
    omp_set_num_threads(n);
    core::Encoder encoder(config, weights);  // packed and primitives made for this thread count
    for (const Workload& w : workloads) {
      EncoderRow row;
      row.threads = n;
      row.workload = w;
      row.timing = core::time_encoder(encoder, w.lengths, times.min_runs, times.min_seconds, n, times.profile);
      // Measured right after the workload, with the same threads: the machine's state is shared.
      row.peak_gflops = core::measure_f32_fma_peak(n);
      emit(row);
    }
  }
}

}  // namespace bertkit::cmd
