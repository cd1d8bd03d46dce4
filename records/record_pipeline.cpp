#include "records/record_pipeline.h"

#include "records/interrupt.h"
#include "records/progress.h"
#include "records/log.h"
#include "records/output_guard.h"
#include "records/encode_records.h"
#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <optional>

namespace bertkit::records {

TextInput RecordTask::model_input(const Record& record, std::string&, std::string&) {
  return {record.text, record.has_pair ? std::optional<std::string_view>(record.text_pair) : std::nullopt};
}

void RecordTask::write_failed(const Record& record, const std::string& error, RecordOutput& out) {
  out.failed(record, error);
}

void RecordTask::model_inputs(const Record& record, ModelInputs& inputs) {
  inputs.texts.push_back(model_input(record, inputs.text, inputs.pair));
}

namespace {

// A batch whose records fan out stops taking records once it holds this many model inputs per record
// of --batch-size (at least one record): memory stays bounded for records of many inputs (the windows
// of a long document), while a few inputs a record (pairs, a few documents) batch as records do.
constexpr std::size_t kInputsPerRecord = 16;

struct PipelineReport {
  std::uint64_t written = 0;
  std::uint64_t skipped = 0;
  std::uint64_t truncated = 0;
};

const char* plural(std::uint64_t n) { return n == 1 ? "" : "s"; }

class Runner {
 public:
  Runner(RecordReader& reader, const tok::Tokenizer& tokenizer, const PipelineOptions& options, RecordTask& task,
         RecordOutput& out, PipelineReport& report)
      : reader_(reader), tokenizer_(tokenizer), options_(options), task_(task), out_(out), report_(report),
        progress_(options.progress ? reader.total_bytes() : std::nullopt) {}

  int run() {
    skip_finished();
    std::vector<Record> records;  // as many as one batch has read: a huge --batch-size costs nothing unread
    for (;;) {
      std::size_t n = 0;
      bool more = true;
      std::exception_ptr read_error;  // records before it are still finished
      try {
        more = read_batch(records, n);
      } catch (const Error&) {
        read_error = std::current_exception();
        more = false;
      }
      records.resize(n);
      std::optional<Error> fatal = run_batch(records, n);
      // A batch that stopped at an error is not checkpointed: a resumed run redoes it.
      finish_batch(!fatal && !read_error);
      if (fatal) throw *fatal;
      if (read_error) std::rethrow_exception(read_error);
      if (interrupted()) {
        summary();
        warn("interrupted: {} record{} written", report_.written, plural(report_.written));
        return kInterruptedExitCode;
      }
      if (!more) break;
    }
    summary();
    return 0;
  }

 private:
  // --resume: the records an earlier run finished are read again, unprocessed.
  void skip_finished() {
    const std::uint64_t finished = out_.resumed_records();
    Record record;
    while (read_ < finished && reader_.next(record)) ++read_;
    if (read_ < finished)
      usage_error("{}: the earlier run finished {} records but the input has only {}: not the same input",
                  Setting::Resume, finished, read_);
    if (finished) note("resuming {} after {} finished record{}", out_.writer().name(), finished, plural(finished));
  }

  // Reads up to batch_size records (or records with kInputsPerRecord * batch_size model inputs) into
  // records[0..n), gathering their inputs, growing `records` as they come; false at the end of the input. Streamed input from a pipe or terminal ends the batch early when the next record
  // has not come batch_wait_ms after the first: each record is answered soon after it arrives.
  bool read_batch(std::vector<Record>& records, std::size_t& n) {
    using Clock = std::chrono::steady_clock;
    const std::size_t batch_size = std::max<std::size_t>(options_.batch_size, 1);
    const bool stream = options_.batching == Batching::Stream && !reader_.total_bytes();
    Clock::time_point deadline;
    for (std::size_t inputs = 0; n < batch_size && inputs < kInputsPerRecord * batch_size;) {
      if (stream && n > 0) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (reader_.stalls(static_cast<int>(std::max<decltype(left)>(left, 0)))) return true;
      }
      if (n == records.size()) {
        const bool moves = records.size() == records.capacity();
        records.emplace_back();
        // The records read so far moved: their inputs' texts view them, so they are gathered again
        // (only while the first batches grow the vector: it keeps its size from then on).
        if (moves)
          for (std::size_t i = 0; i < n; ++i) gather_inputs(records[i], i);
      }
      if (!reader_.next(records[n])) return false;
      inputs += gather_inputs(records[n], n);
      if (n++ == 0) deadline = Clock::now() + std::chrono::milliseconds(options_.batch_wait_ms);
    }
    return true;
  }

  // The model inputs of the batch's record `slot` (at least one counted); a record the task refuses
  // becomes bad.
  std::size_t gather_inputs(Record& record, std::size_t slot) {
    // A deque: growing it leaves the slots filled so far where they are (their texts may view them).
    if (slots_.size() <= slot) slots_.resize(slot + 1);
    ModelInputs& inputs = slots_[slot];
    inputs.clear();
    inputs.ordinal = read_ + slot;
    if (!task_.tokenizes() || record.bad()) return 1;
    try {
      task_.model_inputs(record, inputs);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::BadInput) throw;
      record.error = fmt::format("{}: {}", record.where(), e.what());
      inputs.clear();
    }
    return std::max<std::size_t>(inputs.size(), 1);
  }

  // Tokenizes, sorts out bad records, computes and writes the first n records; returns the error that
  // must stop the run.
  std::optional<Error> run_batch(std::vector<Record>& records, std::size_t n) {
    EncodedInputs encoded = encode_batch(n);
    std::optional<Error> fatal;
    const std::size_t checked = check_records(records, encoded, n, fatal);
    // Usually every record of a full batch is good: the batch then takes the vectors whole.
    const bool whole = checked == records.size() && std::find(keep_.begin(), keep_.end(), 0) == keep_.end();
    Batch batch = good_records(records, encoded, checked, whole);
    const std::uint64_t first = read_;
    read_ += n;
    if (auto error = compute_and_write(batch)) return error;
    // Back to the read buffers, whose strings keep their capacity for the next batch (the encodings too).
    if (whole) {
      batch.records.swap(records);
      spare_encodings_ = std::move(batch.encodings);
    } else {
      for (std::size_t k = 0; k < batch.size(); ++k)
        records[static_cast<std::size_t>(batch.ordinals[k] - first)] = std::move(batch.records[k]);
    }
    return fatal;
  }

  // The model inputs of the first n records, tokenized (none for a task that does not tokenize).
  EncodedInputs encode_batch(std::size_t n) {
    EncodedInputs encoded;
    if (task_.tokenizes()) {
      slot_of_.clear();
      for (std::size_t i = 0; i < n; ++i) slot_of_.push_back(&slots_[i]);
      return encode_inputs(tokenizer_, options_.tokenize, slot_of_, options_.mark_truncated, std::move(spare_encodings_));
    }
    encoded.truncated.assign(n, 0);
    encoded.errors.resize(n);
    encoded.first.assign(n + 1, 0);
    return encoded;
  }

  // Marks the good records in keep_ and rejects the bad ones, in order, up to the first that stops the
  // run (`fatal`); returns how many were looked at.
  std::size_t check_records(const std::vector<Record>& records, const EncodedInputs& encoded, std::size_t n,
                            std::optional<Error>& fatal) {
    keep_.assign(n, 0);
    std::size_t checked = 0;
    for (; checked < n && !fatal; ++checked) {
      const Record& record = records[checked];
      std::string error = record.error;
      ErrorKind kind = ErrorKind::BadInput;
      if (error.empty() && encoded.errors[checked]) {
        error = fmt::format("{}: {}", record.where(), encoded.errors[checked]->what());
        kind = encoded.errors[checked]->kind();
      }
      if (error.empty() && encoded.truncated[checked] && options_.refuse_truncated)
        error = fmt::format("{}: longer than the model's maximum of {} tokens ({} error refuses it)",
                            record.where(), max_length(), Setting::Truncate);
      if (!error.empty()) fatal = reject(Error(kind, error), record, read_ + checked);
      else keep_[checked] = 1;
    }
    return checked;
  }

  // The batch of the good records among the first `checked` (moved out of `records`), with their inputs.
  Batch good_records(std::vector<Record>& records, EncodedInputs& encoded, std::size_t checked, bool whole) {
    Batch batch;
    if (whole) {
      batch.records.swap(records);
      batch.encodings = std::move(encoded.encodings);
      batch.first_input = std::move(encoded.first);
      batch.truncated = std::move(encoded.truncated);
      batch.ordinals.resize(checked);
      for (std::size_t i = 0; i < checked; ++i) batch.ordinals[i] = read_ + i;
      return batch;
    }
    batch.first_input.push_back(0);
    for (std::size_t i = 0; i < checked; ++i) {
      if (!keep_[i]) continue;
      batch.records.push_back(std::move(records[i]));
      add_inputs(batch, std::span(encoded.encodings).subspan(encoded.first[i], encoded.first[i + 1] - encoded.first[i]));
      batch.truncated.push_back(encoded.truncated[i]);
      batch.ordinals.push_back(read_ + i);
    }
    return batch;
  }

  // Moves a record's encodings to the end of `batch`.
  static void add_inputs(Batch& batch, std::span<tok::Encoding> encodings) {
    for (tok::Encoding& e : encodings) batch.encodings.push_back(std::move(e));
    batch.first_input.push_back(batch.encodings.size());
  }

  // A bad record: the error that stops the run (fail), or a report on stderr (skip). Skipped, it still
  // gets its output row, written in its place (write_failed): row i is always input record i.
  std::optional<Error> reject(const Error& error, const Record& record, std::uint64_t ordinal) {
    if (options_.on_error == OnError::Fail) return error;
    progress_.clear();
    if (out_.vectors()) warn("{} (skipped: row {} of {} is NaN)", error.what(), ordinal, out_.writer().name());
    else warn("{} (skipped)", error.what());
    ++report_.skipped;
    // Records failed before their batch was computed wait for the rows before them; one the model
    // refused is found later than a bad one after it: keep them in input order.
    const auto at = std::find_if(failed_.begin(), failed_.end(), [&](const Failed& f) { return f.ordinal > ordinal; });
    failed_.insert(at, Failed{ordinal, record, error.what()});
    return std::nullopt;
  }

  // Writes the failed records before input record `ordinal`.
  void write_failed(std::uint64_t ordinal) {
    std::size_t n = 0;
    for (; n < failed_.size() && failed_[n].ordinal < ordinal; ++n) task_.write_failed(failed_[n].record, failed_[n].error, out_);
    failed_.erase(failed_.begin(), failed_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  std::optional<Error> compute_and_write(Batch& batch) {
    if (batch.size() == 0) return std::nullopt;
    try {
      task_.compute(batch);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::BadInput) throw;
      if (batch.size() == 1) return reject(Error(ErrorKind::BadInput, fmt::format("{}: {}", batch.records[0].where(), e.what())),
                                            batch.records[0], batch.ordinals[0]);
      // Find the record the model refused: one at a time, in order.
      for (std::size_t i = 0; i < batch.size(); ++i) {
        Batch one;
        one.records.push_back(std::move(batch.records[i]));
        one.first_input.push_back(0);
        add_inputs(one, std::span(batch.encodings).subspan(batch.first_input[i], batch.first_input[i + 1] - batch.first_input[i]));
        one.truncated.push_back(batch.truncated[i]);
        one.ordinals.push_back(batch.ordinals[i]);
        if (auto fatal = compute_and_write(one)) return fatal;
      }
      return std::nullopt;
    }
    WritingScope writing;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      write_failed(batch.ordinals[i]);
      task_.write(batch, i, out_);
      ++report_.written;
      report_.truncated += batch.truncated[i];
    }
    return std::nullopt;
  }

  void finish_batch(bool checkpoint) {
    {
      WritingScope writing;
      write_failed(read_);
      out_.end_batch();
      if (checkpoint) out_.checkpoint(read_);
    }
    progress_.update(reader_.bytes_read(), report_.written);
  }

  std::size_t max_length() const {
    const auto& t = options_.tokenize.encode.truncation;
    return t ? t->max_length : 0;
  }

  void summary() {
    progress_.clear();
    if (report_.truncated)
      warn("{} record{} longer than {} tokens truncated (marked \"truncated\"; {} error refuses them)",
           report_.truncated, plural(report_.truncated), max_length(), Setting::Truncate);
    if (report_.skipped) warn("{} bad record{} skipped", report_.skipped, plural(report_.skipped));
    const Utf8Report& utf8 = reader_.utf8_report();
    if (utf8.records)
      warn("{}:{}: invalid UTF-8 replaced by U+FFFD ({} {}{} in all; {} refuses it)", utf8.first_source,
           utf8.first_line, utf8.records, options_.record_noun, plural(utf8.records), Setting::Strict);
    const RepairCount& lone = utf8.lone_surrogates;
    if (lone.records)
      warn("{}:{}: a lone surrogate escape (\\ud800, half of a UTF-16 pair) read as U+FFFD ({} {}{} in all; "
           "{} refuses it)", lone.first_source, lone.first_line, lone.records, options_.record_noun, plural(lone.records),
           Setting::Strict);
  }

  RecordReader& reader_;
  const tok::Tokenizer& tokenizer_;
  const PipelineOptions& options_;
  RecordTask& task_;
  RecordOutput& out_;
  PipelineReport& report_;
  Progress progress_;
  std::deque<ModelInputs> slots_;  // per record of the batch being read: its model inputs
  std::vector<ModelInputs*> slot_of_;
  std::vector<std::uint8_t> keep_;  // per record of the batch: good
  std::vector<tok::Encoding> spare_encodings_;  // the last batch's, refilled by the next
  std::uint64_t read_ = 0;  // records read before this batch
  struct Failed {
    std::uint64_t ordinal;  // its position in the input
    Record record;
    std::string error;
  };
  std::vector<Failed> failed_;  // skipped records whose rows are not written yet, in input order
};

}  // namespace

int run_records(RecordReader& reader, RecordOutput& out, const tok::Tokenizer& tokenizer,
                const PipelineOptions& options, RecordTask& task) {
  PipelineReport report;
  InterruptGuard interrupt;
  out.end_batch();  // the header, before the first checkpoint
  out.checkpoint(out.resumed_records());
  const int status = Runner(reader, tokenizer, options, task, out, report).run();
  task.finish(out);
  if (status == 0) out.complete();
  return status;
}

int run_records(const PipelineOptions& options, const tok::Tokenizer& tokenizer, RecordTask& task) {
  std::vector<ReadFile> inputs = options.read_files;
  if (options.input.texts.empty()) add_record_inputs(inputs, options.input.paths);
  refuse_output_over_inputs("-o", options.output.path, inputs);
  OutputSpec output = options.output;
  output.error_field = options.on_error == OnError::Skip;
  if (const std::string reason = task.whole_input_reason(); !reason.empty()) {
    if (output.resume) usage_error("{}: {}, so no record is finished before the end", Setting::Resume, reason);
    output.settings.clear();
  }
  std::unique_ptr<RecordReader> reader = open_reader(options.input);
  RecordOutput out(output, reader->table(), task.result_fields(), task.vector_width());
  task.start(out);
  return run_records(*reader, out, tokenizer, options, task);
}

}  // namespace bertkit::records
