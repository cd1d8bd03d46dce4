#include "tokenizer/padding.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::tok {

PaddingStrategy parse_padding_strategy(std::string_view name) {
  if (name == "none") return PaddingStrategy::None;
  if (name == "longest") return PaddingStrategy::Longest;
  if (name == "max_length") return PaddingStrategy::MaxLength;
  usage_error("unknown padding '{}' (expected longest, max_length or none)", name);
}

namespace {

void pad_to(Encoding& e, std::size_t target, const PaddingParams& p) {
  if (e.size() >= target) return;
  std::size_t n = target - e.size();
  Encoding pad;
  for (std::size_t k = 0; k < n; ++k) pad.push(p.pad_id, p.pad_type_id, {0, 0}, -1, -1, true);
  std::fill(pad.attention_mask.begin(), pad.attention_mask.end(), 0);
  if (p.side == Side::Right) {
    e.append(pad, 0, n);
  } else {
    pad.append(e, 0, e.size());
    pad.overflowing = std::move(e.overflowing);
    e = std::move(pad);
  }
}

}  // namespace

void pad_batch(std::span<Encoding> batch, const PaddingParams& p) {
  if (p.strategy == PaddingStrategy::None) return;
  std::size_t target = p.length;
  if (p.strategy == PaddingStrategy::Longest) {
    target = 0;
    for (const Encoding& e : batch) {
      target = std::max(target, e.size());
      for (const Encoding& o : e.overflowing) target = std::max(target, o.size());
    }
  }
  for (Encoding& e : batch) {
    pad_to(e, target, p);
    for (Encoding& o : e.overflowing) pad_to(o, target, p);
  }
}

}  // namespace bertkit::tok
