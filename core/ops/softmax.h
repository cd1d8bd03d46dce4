#pragma once
// Softmax along rows, in place: exp(x − max) / Σ exp(x − max).
#include <cstdint>

namespace bertkit::core {

// One row of n values, on the calling thread.
void softmax_row(float* x, std::int64_t n);

// x: [rows, n], rows spread over the OpenMP threads.
void softmax_rows(float* x, std::int64_t rows, std::int64_t n);

}  // namespace bertkit::core
