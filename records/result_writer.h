#pragma once
// One output record per input record, in the text formats every model command offers:
// - jsonl: an object that starts with the input (a JSONL input's own members, else `text` and, for
//   pairs, `text_pair`), then the result fields, then `"truncated": true` when the input was cut;
//   A CSV/TSV input's columns become string members named by its header;
// - csv/tsv: a header row, then rows that start with the input's columns (byte for byte for CSV/TSV
//   input; a JSONL input's members, by the first record's names; else text and text_pair), then the
//   result columns, then `truncated` (true/false).
// An input field is never dropped or overwritten: an input column or JSONL member named like an output
// field (a result field or `truncated`) is a usage error naming it, unless a prefix renames every output
// field (--output-prefix pred_: pred_label, pred_truncated).
// Nested results (lists, objects) are JSON values in JSONL and JSON text in a CSV/TSV cell.
// A record skipped for an error (--on-error skip) still gets its row, in its place: its input as
// above where its fields were read (else, in JSONL, the line as read in a `line` member), no result
// fields (empty cells), and `error`: the message. CSV/TSV output of a run that may skip has the
// `error` column last (empty in good rows).
//
//   ResultWriter results(out, ResultFormat::Csv, reader->table(), pairs, {"label", "score", "scores"});
//   results.begin(record, truncated).field("label", label).field("score", score);
//   results.nested("scores", [&](JsonLine& j) { j.begin_array() ... .end_array(); });
//   results.end();
#include "records/json_line.h"
#include "records/record.h"
#include "records/record_reader.h"
#include "records/table_writer.h"
#include "records/record_writer.h"

#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

enum class ResultFormat { Jsonl, Tsv, Csv, Npy, F32 };

// What a record's texts and the truncation mark are called in every output (unless EchoNames says
// otherwise): the one place for these names.
inline constexpr std::string_view kTextField = "text";
inline constexpr std::string_view kPairField = "text_pair";
inline constexpr std::string_view kTruncatedField = "truncated";
inline constexpr std::string_view kErrorField = "error";
// A failed JSONL record that is not one JSON object, or a CSV/TSV row whose fields do not match the
// header: the line (the record's bytes) as read, in JSONL output.
inline constexpr std::string_view kLineField = "line";

// How JSONL output names the texts of a line or argument record (a JSONL record echoes its own
// members; a CSV/TSV record's texts are text and text_pair), and a second text echoed, named `pair`,
// with every record that has none of its own (qa's --context).
struct EchoNames {
  std::string text{kTextField};
  std::string pair{kPairField};
  std::optional<std::string> shared_pair;
  // Non-empty: the flags that give every record its second text (qa's "--context"); a record holding
  // one of its own named `pair` (a CSV/TSV column, a JSONL member) is then a usage error naming them,
  // as what is computed from one would be echoed with the other.
  std::string shared_pair_flags;
};

// The input record as the first members of a JSON object: a JSONL record's own members, a CSV/TSV
// record's columns (strings named by `input`'s header), or else its text and second text.
void write_input(JsonLine& j, const Record& record, const TableLayout* input, const EchoNames& names = {});

// A usage error when an input field (a column of `input`'s header, or a member of the JSONL
// `record`) is named like one of `outputs`, naming it and --output-prefix.
void refuse_collisions(std::span<const std::string> outputs, const TableLayout* input);
void refuse_collisions(std::span<const std::string> outputs, const Record& record);

class ResultWriter {
 public:
  // `columns`: the result fields in the order each record gives them. `pairs`: the input has a
  // second text (a text_pair column for non-table input). Writes the header of a table format.
  // `prefix`: put before every output field's name. `error_field`: the run may skip bad records
  // (failed()), so CSV/TSV output has an error column and no input field may be named `error`.
  ResultWriter(RecordWriter& out, ResultFormat format, const TableLayout* input, bool pairs,
               std::vector<std::string> columns, EchoNames names = {}, const std::string& prefix = {},
               bool error_field = false);

  ResultWriter& begin(const Record& record, bool truncated = false);

  template <typename T>
  ResultWriter& field(std::string_view name, const T& value) {
    std::string_view key = next_column(name);
    if (table_) table_->cell(value);
    else json_.field(key, value);
    return *this;
  }

  // A vector: a JSON array (JSON text in a CSV/TSV cell).
  ResultWriter& field(std::string_view name, std::span<const float> values) {
    return nested(name, [&](JsonLine& j) { j.value(values); });
  }

  // `build(j)` writes exactly one JSON value into j.
  template <std::invocable<JsonLine&> Build>
  ResultWriter& nested(std::string_view name, Build&& build) {
    std::string_view key = next_column(name);
    if (!table_) {
      json_.key(key);
      build(json_);
      return *this;
    }
    cell_.clear();
    build(cell_);
    table_->cell(without_line_end(cell_.line()));
    return *this;
  }

  void end();

  // The row of a record skipped for `error`: its input, empty results, the error.
  void failed(const Record& record, std::string_view error);

 private:
  // Checks `name` is the next declared result field; returns its output name.
  std::string_view next_column(std::string_view name);
  static std::string_view without_line_end(std::string_view line);

  RecordWriter& out_;
  std::unique_ptr<TableWriter> table_;
  bool pairs_;
  const TableLayout* input_;
  std::vector<std::string> columns_;
  // The result fields, then truncated, then error when error_field_, each with the prefix.
  std::vector<std::string> output_names_;
  bool error_field_;
  EchoNames names_;
  std::size_t column_ = 0;  // result fields given so far in this record
  bool truncated_ = false;
  JsonLine json_;
  JsonLine cell_;
};

}  // namespace bertkit::records
