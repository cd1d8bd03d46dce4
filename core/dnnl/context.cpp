#include "core/dnnl/context.h"

namespace bertkit::core {

DnnlContext& dnnl_context() {
  static DnnlContext context = [] {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    return DnnlContext{engine, stream};
  }();
  return context;
}

}  // namespace bertkit::core
