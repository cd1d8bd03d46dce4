#pragma once
// The process's one oneDNN CPU engine and stream; every primitive of bertkit runs on them.
// The encoder runs its primitives from one thread at a time (oneDNN threads inside them itself).
#include <oneapi/dnnl/dnnl.hpp>

namespace bertkit::core {

struct DnnlContext {
  dnnl::engine engine;
  dnnl::stream stream;
};

DnnlContext& dnnl_context();

}  // namespace bertkit::core
