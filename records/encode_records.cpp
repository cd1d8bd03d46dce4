#include "records/encode_records.h"

#include "core/error.h"

#include <exception>

namespace bertkit::records {

std::vector<tok::Encoding> tokenize_batch(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs, std::vector<tok::Encoding> reuse) {
  std::vector<tok::Encoding> out = std::move(reuse);
  out.resize(inputs.size());
  std::exception_ptr error;
  const auto n = static_cast<std::ptrdiff_t>(inputs.size());
  // Exceptions must not cross the OpenMP region: keep the first, rethrow after it.
#pragma omp parallel for schedule(dynamic, 16) if (n > 64)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    try {
      const TextInput& in = inputs[static_cast<std::size_t>(i)];
      tokenizer.encode(in.text, in.pair, options.encode, out[static_cast<std::size_t>(i)]);
    } catch (...) {
#pragma omp critical
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  tok::pad_batch(out, options.padding);
  return out;
}

EncodedRecords encode_records(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                              std::span<const TextInput> inputs, bool check_truncation,
                              std::vector<tok::Encoding> reuse) {
  EncodedRecords out;
  out.truncated.assign(inputs.size(), 0);
  out.errors.resize(inputs.size());
  try {
    out.encodings = tokenize_batch(tokenizer, options, inputs, std::move(reuse));
  } catch (const Error&) {
    // Some input is bad: encode one at a time so the others still go through.
    out.encodings.assign(inputs.size(), tok::Encoding{});
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      try {
        out.encodings[i] = std::move(tokenize_batch(tokenizer, options, inputs.subspan(i, 1)).front());
      } catch (const Error& e) {
        out.errors[i] = e;
      }
    }
  }
  if (!check_truncation) return out;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!out.errors[i]) out.truncated[i] = out.encodings[i].truncated ? 1 : 0;
  return out;
}

}  // namespace bertkit::records
