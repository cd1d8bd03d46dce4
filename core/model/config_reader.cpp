#include "core/model/config_reader.h"

#include <array>
#include <utility>

namespace bertkit::core {

Activation parse_activation(const ConfigReader& r, const char* key) {
  std::string name = r.text(key).value_or("gelu");
  // gelu_fast is the same tanh formula as gelu_new, written differently in transformers.
  static const std::array<std::pair<std::string_view, Activation>, 7> known = {{
      {"gelu", Activation::Gelu},
      {"gelu_python", Activation::Gelu},
      {"gelu_new", Activation::GeluTanh},
      {"gelu_pytorch_tanh", Activation::GeluTanh},
      {"gelu_fast", Activation::GeluTanh},
      {"relu", Activation::Relu},
      {"silu", Activation::Silu},
  }};
  for (const auto& [n, act] : known)
    if (n == name) return act;
  if (name == "swish") return Activation::Silu;
  r.refuse(fmt::format("unsupported activation \"{}\" = \"{}\" (supported: gelu, gelu_new, "
                       "gelu_pytorch_tanh, gelu_fast, relu, silu)",
                       key, name));
}

}  // namespace bertkit::core
