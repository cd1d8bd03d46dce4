#pragma once
// `bertkit tokenize`: each record's encoding (ids, tokens, type ids, attention mask, offsets and the
// overflowing windows), its token count, or with `decode` a line of ids back to text.
#include "commands/token_texts.h"
#include "core/error.h"
#include "records/record_pipeline.h"
#include "records/text_buffer.h"
#include "records/table_writer.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

enum class TokenizeFormat { Jsonl, Tokens, Ids, Tsv };

struct TokenizeOutput {
  TokenizeFormat format = TokenizeFormat::Jsonl;
  bool char_offsets = true;   // offsets in code points (false: bytes)
  bool count = false;         // only the number of tokens
  bool decode = false;        // records are lines of ids: print their text
  bool skip_special_tokens = false;  // decode: leave out special tokens
  bool pairs = false;         // tsv: a text_pair column
  std::string field_prefix;   // before the name of each field of tokenize's own (jsonl members, tsv columns)
  // --stride was given: ids, tokens and tsv give every overflowing window a line of its own (without
  // it they show the truncated text only, as a model would read it).
  bool windows = false;
};

// Parses a line of ids ("101 7592 102", commas or a JSON array's brackets also accepted).
std::vector<std::int32_t> parse_ids(std::string_view line);

// Writes whole lines of its own: jsonl (and --count's jsonl) starts with the input as every command's
// JSONL does (records::write_input: a JSONL record's members, a CSV/TSV record's columns, or text and
// text_pair), tsv rows with the input's columns; no `truncated`, since overflowing windows are shown.
class TokenizeTask : public records::RecordTask {
 public:
  // `tokenize`: how records are encoded, for the records the task encodes itself (--count, which counts
  // tokens without keeping them, and unpadded ids, tokens and jsonl).
  TokenizeTask(const tok::Tokenizer& tokenizer, const TokenizeOutput& output, const records::TokenizeOptions& tokenize);

  std::vector<std::string> result_fields() const override { return {}; }
  bool tokenizes() const override { return !output_.decode && !output_.count && !encodes_records(); }
  void start(records::RecordOutput& out) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  // ids, tokens and jsonl without padding: compute() encodes each record and writes its line while the
  // encoding is in the cache, which the pipeline's batch of encodings is not (~8% of the CPU time).
  bool encodes_records() const;
  // Appends record k's output to `out`; a record the tokenizer refuses is noted in refused_ and
  // refusal_ (the first of the batch) and renders nothing.
  void render(const records::Batch& batch, std::size_t k, records::TextBuffer& out);
  void render(const records::Record& record, const tok::Encoding& e, records::TextBuffer& out) const;  // appends
  // The input's members at the start of a JSONL object, and the comma after them.
  void append_input(records::TextBuffer& out, const records::Record& record) const;
  std::string render_count(const records::Record& record, std::size_t count) const;
  std::string decode(const records::Record& record) const;
  void append_token_line(records::TextBuffer& out, const tok::Encoding& e) const;  // ids or tokens of one window
  // One row per window: the record's first, then each overflowing one, every row with the record's text.
  void write_tsv_rows(const records::Record& record, const tok::Encoding& e);
  void write_tsv_row(const records::Record& record, const tok::Encoding& e);

  const tok::Tokenizer& tokenizer_;
  TokenizeOutput output_;
  std::vector<std::string> output_names_;  // the top-level fields of tokenize's own, prefixed
  std::vector<std::string> array_keys_;    // jsonl: the text before each array of the encoding
  std::string overflowing_key_;            // jsonl: the text before the array of windows
  const records::TableLayout* input_ = nullptr;  // the CSV/TSV input's header, if any
  records::TokenizeOptions tokenize_;
  // The first record of the batch the tokenizer refused (batch size: none) and its error, thrown by
  // write() after the records before it are written, as the pipeline reports a refused record.
  std::size_t refused_ = 0;
  std::optional<Error> refusal_;
  std::optional<TokenTexts> ids_;    // the ids of --format ids or jsonl
  std::optional<TokenTexts> texts_;  // the tokens of --format tokens or jsonl
  std::unique_ptr<records::TableWriter> table_;
  // Batches up to this many records are rendered by one thread (threads would cost more than they save).
  static constexpr std::size_t kSerialBatch = 64;
  bool serial_ = true;  // this batch's lines are rendered one at a time, by write(), into the output
  std::vector<records::TextBuffer> rendered_;  // the batch's lines, rendered by threads in compute()
};

}  // namespace bertkit::cmd
