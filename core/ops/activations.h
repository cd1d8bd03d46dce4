#pragma once
// The element-wise activations computed by bertkit's own loops (int8's epilogue, core/ops/int8_epilogue.h),
// where oneDNN's post-ops compute them for the f32 and bf16 matmuls. Built on one exp whose vector form
// needs no library call: the exact (erf) GELU by Abramowitz and Stegun's 7.1.26 (|error| of erf below
// 1.5e-7, the approximation oneDNN's own kernels use), written so that 1 + erf keeps its relative
// accuracy for negative inputs; tanh's GELU and SiLU as x times a sigmoid; tanh from exp.
#include "core/ops/eltwise.h"

#include <cstdint>

namespace bertkit::core {

// x[0, n) = f(x) in place.
void activate_in_place(float* x, std::int64_t n, Eltwise f);

}  // namespace bertkit::core
