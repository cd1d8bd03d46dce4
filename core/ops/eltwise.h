#pragma once
// The element-wise functions a linear layer can apply to its output (fused into the matmul).

namespace bertkit::core {

enum class Eltwise {
  Identity,
  Gelu,      // x·Φ(x) with the exact erf: transformers' "gelu"
  GeluTanh,  // tanh approximation: "gelu_new", "gelu_pytorch_tanh"
  Relu,
  Silu,      // x·sigmoid(x), also "swish"
  Tanh,
};

}  // namespace bertkit::core
