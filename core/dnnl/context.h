#pragma once
// The process's one oneDNN CPU engine and stream; every primitive of bertkit runs on them.
// The encoder runs its primitives from one thread at a time (oneDNN threads inside them itself), but
// for blocks of a layer run in parallel, each on a stream of its thread's.
#include <oneapi/dnnl/dnnl.hpp>

namespace bertkit::core {

struct DnnlContext {
  dnnl::engine engine;
  dnnl::stream stream;
};

DnnlContext& dnnl_context();

// This thread's own stream on the engine, for primitives run from several threads at once, each on one
// thread (a stream is not shared between threads): row blocks and tiles (core/ops/linear_row_blocks.h,
// core/ops/int8_row_tiles.h).
dnnl::stream& thread_stream();

}  // namespace bertkit::core
