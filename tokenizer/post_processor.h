#pragma once
// The post-processor as data: TemplateProcessing, where the special tokens go around one text or a pair
// ([CLS] A [SEP] B [SEP]) and which token type each part gets; BertProcessing and RobertaProcessing are
// templates too. Overflowing windows get the template as well.
#include "tokenizer/encoding.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::tok {

struct TemplatePiece {
  bool is_sequence = false;
  int sequence = 0;                       // 0 = A, 1 = B (when is_sequence)
  std::vector<std::int32_t> special_ids;  // the special token's ids (when not is_sequence)
  std::int32_t type_id = 0;
};

// RobertaProcessing's (and ByteLevel's) trim_offsets: every token of a text has its offsets moved off
// the spaces at its ends (byte_level.h, trim_offsets), which the tokenizer does as it encodes a text.
struct OffsetTrimming {
  bool add_prefix_space = true;  // the first token keeps the one space the pre-tokenizer added
};

class PostProcessor {
 public:
  PostProcessor() = default;
  PostProcessor(std::vector<TemplatePiece> single, std::vector<TemplatePiece> pair)
      : single_(std::move(single)), pair_(std::move(pair)) {}
  // BERT's template: [CLS] $A:0 [SEP]:0 and [CLS] $A:0 [SEP]:0 $B:1 [SEP]:1.
  static PostProcessor bert(std::int32_t cls_id, std::int32_t sep_id);
  // RoBERTa's: <s> $A </s> and <s> $A </s> </s> $B </s>, every token of type 0.
  static PostProcessor roberta(std::int32_t cls_id, std::int32_t sep_id,
                               std::optional<OffsetTrimming> trimming = std::nullopt);

  const std::optional<OffsetTrimming>& trimming() const { return trimming_; }
  void set_trimming(std::optional<OffsetTrimming> trimming) { trimming_ = trimming; }

  std::size_t added_tokens(bool pair) const;
  // Combines the encodings of A (and B) through the template, windows included, in the order of
  // Hugging Face's Encoding::merge.
  Encoding process(const Encoding& a, const Encoding* b, bool add_special_tokens) const;

  // Builds an encoding through the template in one pass: `append(sequence, out)` appends the tokens
  // of sequence 0 (A) or 1 (B); their type ids are set here.
  template <typename AppendSequence>
  void build(bool pair, bool add_special_tokens, Encoding& out, AppendSequence&& append) const {
    auto add_sequence = [&](int sequence, std::int32_t type_id) {
      std::size_t start = out.size();
      append(sequence, out);
      for (std::size_t k = start; k < out.size(); ++k) out.type_ids[k] = type_id;
    };
    if (!add_special_tokens) {
      add_sequence(0, 0);
      if (pair) add_sequence(1, 1);
      return;
    }
    for (const TemplatePiece& p : pair ? pair_ : single_) {
      if (p.is_sequence) {
        if (p.sequence == 0 || pair) add_sequence(p.sequence, p.type_id);
      } else {
        for (std::int32_t id : p.special_ids) out.push(id, p.type_id, {0, 0}, -1, -1, true);
      }
    }
  }

 private:
  Encoding apply(const Encoding& a, const Encoding* b, bool add_special_tokens) const;
  std::vector<TemplatePiece> single_, pair_;
  std::optional<OffsetTrimming> trimming_;
};

}  // namespace bertkit::tok
