#include "core/model/tensor_decls.h"

namespace bertkit::core {

TensorDecl TensorDecls::tensor(std::string name, Shape shape, bool optional) {
  list_.push_back({std::move(name), std::move(shape), optional});
  return list_.back();
}

LinearDecl TensorDecls::linear(std::string module, std::int64_t out, std::int64_t in, bool optional,
                               bool has_bias) {
  LinearDecl d{std::move(module), out, in, has_bias};
  tensor(d.weight(), {out, in}, optional);
  if (has_bias) tensor(d.bias(), {out}, optional);
  return d;
}

NormDecl TensorDecls::layer_norm(std::string module, std::int64_t width, bool has_bias) {
  NormDecl d{std::move(module), width, has_bias};
  tensor(d.module + ".weight", {width});
  if (has_bias) tensor(d.module + ".bias", {width});
  return d;
}

}  // namespace bertkit::core
