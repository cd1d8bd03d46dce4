#pragma once
// Fan-out: the model inputs of one record. Most tasks give the model one text (or pair) per record;
// some give it several: a query with each of its documents, a question with each window of its
// context, a text with each hypothesis. The record pipeline gathers every input of a batch's records,
// tokenizes the texts together (in parallel), and hands the task each record's encodings in order.
// A record is bad when any of its inputs is, and truncated when truncation cut any of them.
#include "core/error.h"
#include "records/encode_records.h"
#include "tokenizer/encoding.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bertkit::records {

struct ModelInputs {
  // Texts the pipeline tokenizes as it tokenizes any record's (truncated to the model's limit, marked,
  // refused with --truncate error). Views valid until the batch is computed: into the record, into
  // `text`/`pair` below, or into storage the task keeps.
  std::vector<TextInput> texts;
  // Encodings the task built itself, after the texts' (question-answering windows, which cover the
  // whole context: never marked truncated).
  std::vector<tok::Encoding> encodings;
  std::string text, pair;  // storage a task may fill and point `texts` at (a prompt + the text)
  // The record's 0-based position in the input, as Batch::ordinals gives it in compute(): the key of
  // anything a task keeps about the record until then.
  std::uint64_t ordinal = 0;

  std::size_t size() const { return texts.size() + encodings.size(); }
  void clear();
};

// The inputs of a batch's records, tokenized: record i's encodings are
// encodings[first[i] .. first[i + 1]), its texts' first, then those the task built.
struct EncodedInputs {
  std::vector<tok::Encoding> encodings;
  std::vector<std::size_t> first;              // one more than records
  std::vector<std::uint8_t> truncated;         // per record: truncation cut one of its texts
  std::vector<std::optional<Error>> errors;    // per record: the first of its texts that could not be encoded
};

// Tokenizes the texts of every record's inputs together and moves in the encodings the task built.
// `check_truncation`: fill `truncated`. `reuse`: an earlier batch's encodings, whose memory is refilled.
// `records` point to each record's inputs (which must stay where they are: `texts` may view their storage).
EncodedInputs encode_inputs(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                            std::span<ModelInputs* const> records, bool check_truncation,
                            std::vector<tok::Encoding> reuse = {});

}  // namespace bertkit::records
