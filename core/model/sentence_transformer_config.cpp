#include "core/model/sentence_transformer_config.h"

namespace bertkit::core {

std::string pooling_modes_name(const Pooling& p) {
  std::string out;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!out.empty()) out += '+';
    out += name;
  };
  add(p.cls, "cls");
  add(p.max, "max");
  add(p.mean, "mean");
  add(p.mean_sqrt_len, "mean_sqrt_len");
  add(p.weighted_mean, "weighted_mean");
  add(p.last_token, "last_token");
  return out;
}

}  // namespace bertkit::core
