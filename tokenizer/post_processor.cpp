#include "tokenizer/post_processor.h"

namespace bertkit::tok {

PostProcessor PostProcessor::bert(std::int32_t cls_id, std::int32_t sep_id) {
  TemplatePiece cls{false, 0, {cls_id}, 0};
  TemplatePiece sep0{false, 0, {sep_id}, 0};
  TemplatePiece sep1{false, 0, {sep_id}, 1};
  TemplatePiece a{true, 0, {}, 0};
  TemplatePiece b{true, 1, {}, 1};
  return PostProcessor({cls, a, sep0}, {cls, a, sep0, b, sep1});
}

PostProcessor PostProcessor::roberta(std::int32_t cls_id, std::int32_t sep_id, std::optional<OffsetTrimming> trimming) {
  TemplatePiece cls{false, 0, {cls_id}, 0};
  TemplatePiece sep{false, 0, {sep_id}, 0};
  TemplatePiece a{true, 0, {}, 0};
  TemplatePiece b{true, 1, {}, 0};
  PostProcessor p({cls, a, sep}, {cls, a, sep, sep, b, sep});
  p.trimming_ = trimming;
  return p;
}

std::size_t PostProcessor::added_tokens(bool pair) const {
  std::size_t n = 0;
  for (const TemplatePiece& p : pair ? pair_ : single_)
    if (!p.is_sequence) n += p.special_ids.size();
  return n;
}

Encoding PostProcessor::apply(const Encoding& a, const Encoding* b, bool add_special_tokens) const {
  Encoding out;
  out.reserve(a.size() + (b ? b->size() : 0) + added_tokens(b != nullptr));
  build(b != nullptr, add_special_tokens, out,
        [&](int sequence, Encoding& dst) {
          const Encoding& e = sequence == 0 ? a : *b;
          dst.append(e, 0, e.size());
        });
  return out;
}

Encoding PostProcessor::process(const Encoding& a, const Encoding* b, bool add_special_tokens) const {
  Encoding out = apply(a, b, add_special_tokens);
  // Encoding::merge order: every window of A after the first with every window of B, then the first
  // window of A with B's later windows.
  if (!b) {
    for (const Encoding& ao : a.overflowing) out.overflowing.push_back(apply(ao, nullptr, add_special_tokens));
    return out;
  }
  for (const Encoding& ao : a.overflowing) {
    out.overflowing.push_back(apply(ao, b, add_special_tokens));
    for (const Encoding& bo : b->overflowing) out.overflowing.push_back(apply(ao, &bo, add_special_tokens));
  }
  for (const Encoding& bo : b->overflowing) out.overflowing.push_back(apply(a, &bo, add_special_tokens));
  return out;
}

}  // namespace bertkit::tok
