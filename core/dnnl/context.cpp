#include "core/dnnl/context.h"

#include "core/ops/cpu_features.h"

#include <cstdlib>

namespace bertkit::core {

DnnlContext& dnnl_context() {
  static DnnlContext context = [] {
    cpu_selection();  // caps oneDNN's instruction set (BERTKIT_CPU) before its first primitive
    // oneDNN announces every JIT kernel to VTune by default: it searches the library path for
    // libJitPI.so at the first kernel and writes a record per kernel. Off unless the user asks for it.
    if (!std::getenv("ONEDNN_JIT_PROFILE") && !std::getenv("DNNL_JIT_PROFILE")) dnnl::set_jit_profiling_flags(0);
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    return DnnlContext{engine, stream};
  }();
  return context;
}

dnnl::stream& thread_stream() {
  thread_local dnnl::stream stream(dnnl_context().engine);
  return stream;
}

}  // namespace bertkit::core
