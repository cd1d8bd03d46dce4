#pragma once
// The loop every model command runs: read records in batches, tokenize them, let the command compute
// and write each batch's results, flush, repeat. The pipeline owns what is common to all commands:
// input order, bad records (--on-error), truncation (marked, counted, or refused), the progress bar,
// Ctrl-C, and the summary on stderr. A command supplies a BatchTask:
//
//   struct EmbedTask : BatchTask {
//     void compute(const Batch& batch) override;            // numerics (core/) for batch.records
//     void write(const Batch& batch, std::size_t i) override; // result i, via a ResultWriter
//   };
//   EmbedTask task{...};
//   return run_pipeline(*reader, *model.tokenizer, options, task, out);
//
// Per batch: records the reader flags as bad, inputs the tokenizer refuses, and (--truncate error)
// truncated inputs are bad records; a BadInput error thrown by compute() is pinned on its record by
// computing the batch's records one at a time. With --on-error fail the good records before the
// first bad one are computed, written and flushed, then the error ("FILE:LINE: ...") is thrown; with
// skip, each bad record is reported on stderr and left out.
#include "records/record.h"
#include "records/record_reader.h"
#include "records/record_writer.h"
#include "records/encode_records.h"
#include "core/model/batching.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::records {

enum class OnError { Fail, Skip };

struct PipelineOptions {
  TokenizeOptions tokenize;    // truncation to the model's maximum length; no padding
  std::size_t batch_size = 64;      // records read, tokenized, computed and written together
  core::BatchLimits limits;         // what one encoder call takes (for BatchTask::compute)
  OnError on_error = OnError::Fail;
  bool refuse_truncated = false;    // --truncate error
  bool mark_truncated = true;       // false where overflowing tokens are expected (QA windows)
  bool one_at_a_time = false;       // records typed on a terminal: answer each as it comes
  // Encode a record's two texts as two sequences (Batch::pair_encodings), not as one pair; a record
  // without a second text is then bad. For bi-encoders comparing the two.
  bool separate_pairs = false;
};

// The good records of one batch, in input order, with their encodings.
struct Batch {
  std::vector<Record> records;
  std::vector<tok::Encoding> encodings;
  std::vector<tok::Encoding> pair_encodings;  // separate_pairs: the second texts, encoded alone
  std::vector<std::uint8_t> truncated;  // 1 where truncation cut the input (and it was kept)
  std::vector<std::uint64_t> ordinals;  // each record's 0-based position in the input, bad records counted

  std::size_t size() const { return records.size(); }
};

class BatchTask {
 public:
  virtual ~BatchTask() = default;
  // The text(s) the model sees for a record; default: as read. `text` and `pair` are storage the
  // task may fill (e.g. a prompt + the text) and return views of.
  virtual TextInput model_input(const Record& record, std::string& text, std::string& pair);
  // Computes the results of the batch (numerics are core/'s). Throw a BadInput Error for an input
  // the model cannot take.
  virtual void compute(const Batch& batch) = 0;
  // Writes result i of the last compute() (to a ResultWriter or another writer).
  virtual void write(const Batch& batch, std::size_t i) = 0;
  // After each batch's records are written, before the output is flushed (e.g. NpyWriter::flush).
  virtual void end_batch() {}
};

struct PipelineReport {
  std::uint64_t written = 0;
  std::uint64_t skipped = 0;
  std::uint64_t truncated = 0;
};

// Runs the whole input. Returns the exit status: 0, or 130 when Ctrl-C stopped it (the output then
// holds every record finished before). Warnings and the summary go to stderr.
int run_pipeline(RecordReader& reader, const tok::Tokenizer& tokenizer, const PipelineOptions& options,
                 BatchTask& task, RecordWriter& out, PipelineReport* report = nullptr);

}  // namespace bertkit::records
