#include "records/model_inputs.h"

#include <iterator>

namespace bertkit::records {

void ModelInputs::clear() {
  texts.clear();
  encodings.clear();
}

EncodedInputs encode_inputs(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                            std::span<ModelInputs* const> records, bool check_truncation,
                            std::vector<tok::Encoding> reuse) {
  const std::size_t n = records.size();
  std::vector<TextInput> texts;
  bool one_each = true;  // every record is one text (every one-to-one task)
  for (const ModelInputs* r : records) {
    texts.insert(texts.end(), r->texts.begin(), r->texts.end());
    one_each = one_each && r->texts.size() == 1 && r->encodings.empty();
  }
  EncodedRecords encoded = encode_records(tokenizer, options, texts, check_truncation, std::move(reuse));
  EncodedInputs out;
  out.truncated.assign(n, 0);
  out.errors.resize(n);
  out.first.resize(n + 1);
  std::size_t text = 0;  // the first text of record i in `encoded`
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = text; k < text + records[i]->texts.size(); ++k) {
      if (!out.errors[i] && encoded.errors[k]) out.errors[i] = encoded.errors[k];
      out.truncated[i] = out.truncated[i] || encoded.truncated[k];
    }
    text += records[i]->texts.size();
  }
  if (one_each) {  // the encodings are already in place
    out.encodings = std::move(encoded.encodings);
    for (std::size_t i = 0; i <= n; ++i) out.first[i] = i;
    return out;
  }
  out.encodings.reserve(texts.size());
  text = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out.first[i] = out.encodings.size();
    const auto from = encoded.encodings.begin() + static_cast<std::ptrdiff_t>(text);
    const auto count = static_cast<std::ptrdiff_t>(records[i]->texts.size());
    out.encodings.insert(out.encodings.end(), std::make_move_iterator(from), std::make_move_iterator(from + count));
    text += records[i]->texts.size();
    for (tok::Encoding& e : records[i]->encodings) out.encodings.push_back(std::move(e));
    records[i]->encodings.clear();
  }
  out.first[n] = out.encodings.size();
  return out;
}

}  // namespace bertkit::records
