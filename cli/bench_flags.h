#pragma once
// bench's list flags (--workloads, --threads, --attention): their text as the lists bench_encoder and
// the attention benchmark take.
#include "commands/bench_encoder.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace bertkit::cli {

// "1x128,8x128,16+2048" (usage error naming the bad item, or a length over `max_length`, the model's limit);
// lists of thread counts "1,2" likewise.
std::vector<cmd::Workload> parse_workloads(std::string_view list, std::int64_t max_length = 1 << 20);
std::vector<int> parse_thread_counts(std::string_view list);
// The sequence lengths of --attention, "2048,8192" (usage error naming the bad item).
std::vector<std::int64_t> parse_lengths(std::string_view list);

}  // namespace bertkit::cli
