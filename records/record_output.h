#pragma once
// Where a command's output records go: the output file (or stdout) in the format asked, through a
// ResultWriter (jsonl, tsv, csv: the input echoed, then the result fields) or, for vectors, an npy or
// raw f32 writer. Opened once the input is open (its columns are echoed), before any record is read.
// A file output keeps a resume log beside it (checkpoint() after each batch) and, with --resume,
// continues an earlier run's file.
#include "records/record_reader.h"
#include "records/record_writer.h"
#include "records/result_writer.h"
#include "records/resume_log.h"
#include "records/vector_writers.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bertkit::records {

struct OutputSpec {
  std::string path = "-";  // "-": stdout
  ResultFormat format = ResultFormat::Jsonl;
  // A non-table input has a second text: CSV/TSV output gets a text_pair column.
  bool pairs = false;
  // How the texts of line and argument records are named in JSONL output.
  EchoNames names;
  // Put before every output field's name (--output-prefix), so none is named like an input field.
  std::string field_prefix;
  // npy: the element type of its rows (int8/uint8 for quantised embeddings).
  VectorType vector_type = VectorType::F32;
  // The command line recorded in the resume log beside a file output (records/resume_log.h); empty:
  // no log (a task whose output needs the whole input first).
  std::string settings;
  bool resume = false;  // --resume: continue the earlier run's output
  // The run may skip bad records (--on-error skip): CSV/TSV output gets an `error` column.
  bool error_field = false;
  // Set: the records are appended to this string (which outlives the output) instead of `path`.
  std::string* memory = nullptr;
};

class RecordOutput {
 public:
  // `input`: the columns of a table input, echoed; `fields`: the result fields of each record (none:
  // the command writes whole lines through writer()). `vector_width`: values per row of npy/f32 output.
  RecordOutput(const OutputSpec& spec, const TableLayout* input, std::vector<std::string> fields,
               std::size_t vector_width = 0);

  RecordWriter& writer() { return out_; }
  const TableLayout* input_table() const { return input_; }
  // npy or f32: each record is one row of vector().
  bool vectors() const { return npy_ || raw_; }
  ResultWriter& results() { return *results_; }
  void vector(std::span<const float> row);
  void vector(std::span<const std::uint8_t> row);  // an int8/uint8 npy row
  // The row of a record skipped for `error` (--on-error skip), so row i stays input record i: its input
  // and the error (ResultWriter::failed), or in npy/f32 a row of NaN (float32 only: integer rows have
  // no NaN, so commands refuse skip there).
  void failed(const Record& record, std::string_view error);
  // Every record of the batch written: out to the file (npy: its header counts them).
  void end_batch();
  // --resume: the input records an earlier run finished (skip them), else 0.
  std::uint64_t resumed_records() const { return log_.start().records; }
  // After end_batch(): the first `records` input records are finished.
  void checkpoint(std::uint64_t records) { log_.checkpoint(records, out_.committed()); }
  // The run completed: no resume log is left behind.
  void complete() { log_.complete(); }

 private:
  ResumeLog log_;  // before out_, which opens the file where the log says
  RecordWriter out_;
  const TableLayout* input_;
  std::unique_ptr<ResultWriter> results_;
  std::unique_ptr<NpyWriter> npy_;
  std::unique_ptr<RawF32Writer> raw_;
  std::size_t vector_width_;
};

}  // namespace bertkit::records
