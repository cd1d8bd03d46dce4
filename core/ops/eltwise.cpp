#include "core/ops/eltwise.h"

namespace bertkit::core {

Eltwise eltwise_for(Activation activation) {
  switch (activation) {
    case Activation::Gelu: return Eltwise::Gelu;
    case Activation::GeluTanh: return Eltwise::GeluTanh;
    case Activation::Relu: return Eltwise::Relu;
    case Activation::Silu: return Eltwise::Silu;
  }
  return Eltwise::Identity;
}

}  // namespace bertkit::core
