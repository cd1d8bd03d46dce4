#include "commands/encode_records.h"

#include "core/error.h"

namespace bertkit::cmd {

bool was_truncated(const tok::Tokenizer& tokenizer, const TokenizeOptions& options, const TextInput& input,
                   const tok::Encoding& encoding) {
  const auto& truncation = options.encode.truncation;
  if (!truncation || encoding.size() < truncation->max_length) return false;
  if (!encoding.overflowing.empty()) return true;
  // The slow-tokenizer profile keeps no overflow: an encoding of exactly max_length tokens (rare)
  // is compared with the untruncated one.
  tok::EncodeOptions whole = options.encode;
  whole.truncation.reset();
  return tokenizer.encode(input.text, input.pair, whole).size() > encoding.size();
}

std::vector<EncodedRecord> encode_records(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs) {
  std::vector<EncodedRecord> out(inputs.size());
  try {
    std::vector<tok::Encoding> encodings = tokenize_batch(tokenizer, options, inputs);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].encoding = std::move(encodings[i]);
  } catch (const Error&) {
    // Some input is bad: encode one at a time so the others still go through.
    for (std::size_t i = 0; i < out.size(); ++i) {
      try {
        out[i].encoding = std::move(tokenize_batch(tokenizer, options, inputs.subspan(i, 1)).front());
      } catch (const Error& e) {
        out[i].error = e.what();
      }
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].error.empty()) out[i].truncated = was_truncated(tokenizer, options, inputs[i], out[i].encoding);
  return out;
}

}  // namespace bertkit::cmd
