#pragma once
// The loop every subcommand runs over its records: open the input and the output, read records in
// batches, tokenize them, let the command's task compute and write each batch's results, flush,
// repeat. The pipeline owns what is common to all commands: input order, bad records (--on-error),
// truncation (marked, counted, or refused), batching, the progress bar, Ctrl-C, and the summary on
// stderr. A command supplies a RecordTask (commands/):
//
//   class EmbedTask : public records::RecordTask {
//     std::vector<std::string> result_fields() const override { return {"embedding"}; }
//     void compute(const Batch& batch) override;                          // numerics (core/)
//     void write(const Batch& batch, std::size_t i, RecordOutput& out) override;  // result i
//   };
//   return records::run_records(options, tokenizer, task);
//
// A task may give the model several inputs per record (fan-out, records/model_inputs.h): a batch then
// holds batch_size records, fewer when their model inputs reach 16 per record of batch_size (at least
// one record), and the task gets each record's encodings in order (Batch::inputs).
//
// Per batch: records the reader flags as bad, inputs the tokenizer refuses, and (--truncate error)
// truncated inputs are bad records; a BadInput error thrown by compute() is pinned on its record by
// computing the batch's records one at a time. With --on-error fail the good records before the
// first bad one are computed, written and flushed, then the error ("FILE:LINE: ...") is thrown; with
// skip, each bad record is reported on stderr and written in its place with its input and its error
// (RecordTask::write_failed), so output row N is still input record N.
#include "core/model/batching.h"
#include "records/encode_records.h"
#include "records/model_inputs.h"
#include "records/open_reader.h"
#include "records/output_guard.h"
#include "records/record.h"
#include "records/record_output.h"
#include "records/record_reader.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bertkit::records {

enum class OnError { Fail, Skip };

// How many records are read before a batch is computed.
enum class Batching {
  Full,    // batch_size, however the input comes (a batch's outputs depend on one another: --padding longest)
  Stream,  // batch_size, or those read when a pipe or terminal keeps the next record waiting past
           // batch_wait_ms (`tail -f log | bertkit classify`); files and arguments are read ahead
};

struct PipelineOptions {
  InputSpec input;
  OutputSpec output;
  // The files read besides the records' (the model's, --calibration, ...): the output may be none of
  // them (records/output_guard.h).
  std::vector<ReadFile> read_files;
  TokenizeOptions tokenize;         // truncation to the model's maximum length; no padding
  std::size_t batch_size = 64;      // records read, tokenized, computed and written together
  Batching batching = Batching::Stream;
  int batch_wait_ms = 50;           // Stream: from a batch's first record to its computing, at most
  core::BatchLimits limits;         // what one encoder call takes (for RecordTask::compute)
  OnError on_error = OnError::Fail;
  bool refuse_truncated = false;    // --truncate error
  bool mark_truncated = true;       // false where overflowing tokens are expected (QA windows, tokenize)
  const char* record_noun = "record";  // in the summary's counts ("line" for tokenize)
  bool progress = true;                // a progress bar on a terminal's stderr (tokenize: none)
};

// The good records of one batch, in input order, with their encodings.
struct Batch {
  std::vector<Record> records;
  // Every record's model inputs in record order (one each, unless the task fans out); empty when the
  // task does not tokenize. Record i's are encodings[first_input[i] .. first_input[i + 1]).
  std::vector<tok::Encoding> encodings;
  std::vector<std::size_t> first_input;
  std::vector<std::uint8_t> truncated;  // 1 where truncation cut an input (and it was kept)
  std::vector<std::uint64_t> ordinals;  // each record's 0-based position in the input, bad records counted

  std::size_t size() const { return records.size(); }
  // Record i's encodings.
  std::span<const tok::Encoding> inputs(std::size_t i) const {
    return std::span(encodings).subspan(first_input[i], first_input[i + 1] - first_input[i]);
  }
};

class RecordTask {
 public:
  virtual ~RecordTask() = default;
  // The result fields each output record carries, in order, after the echoed input; none: the task
  // writes whole lines itself (RecordOutput::writer).
  virtual std::vector<std::string> result_fields() const = 0;
  // Values per row of npy/f32 output.
  virtual std::size_t vector_width() const { return 0; }
  // Why a record's output depends on other records or is written only at finish() (e.g. ranges over
  // every record); empty: each record's output is its own, written in its batch, so a run can resume.
  virtual std::string whole_input_reason() const { return {}; }
  // Whether records are tokenized before compute() (Batch::encodings).
  virtual bool tokenizes() const { return true; }
  // The text(s) the model sees for a record; default: as read. `text` and `pair` are storage the
  // task may fill (e.g. a prompt + the text) and return views of.
  virtual TextInput model_input(const Record& record, std::string& text, std::string& pair);
  // Fan-out: every model input of a record (records/model_inputs.h); default: model_input()'s one.
  // Throw a BadInput Error for a record the task cannot take: it is reported with its file and line.
  virtual void model_inputs(const Record& record, ModelInputs& inputs);
  // Once the output is open, before the first record (e.g. a header of the task's own).
  virtual void start(RecordOutput&) {}
  // Computes the results of the batch (numerics are core/'s). Throw a BadInput Error for an input
  // the model cannot take.
  virtual void compute(const Batch& batch) = 0;
  // Writes result i of the last compute().
  virtual void write(const Batch& batch, std::size_t i, RecordOutput& out) = 0;
  // Writes the row of a record skipped for `error` ("FILE:LINE: ..."), in its place among the others;
  // default: RecordOutput::failed. A task that writes lines of its own, or holds rows back, overrides it.
  virtual void write_failed(const Record& record, const std::string& error, RecordOutput& out);
  // After the last record (also when Ctrl-C stopped the run): results that need every record first.
  virtual void finish(RecordOutput&) {}
};

// Opens options.input (checking its structure first), then options.output, and runs the whole
// input. Returns the exit status: 0, or 130 when Ctrl-C stopped it (the output then holds every record
// finished before). Warnings and the summary go to stderr. With options.output.resume, the input
// records an earlier run finished are read and skipped, and the output continues its file.
int run_records(const PipelineOptions& options, const tok::Tokenizer& tokenizer, RecordTask& task);

// The loop alone, over an input and output already open (a search writes after its corpus is read).
int run_records(RecordReader& reader, RecordOutput& out, const tok::Tokenizer& tokenizer,
                const PipelineOptions& options, RecordTask& task);

}  // namespace bertkit::records
