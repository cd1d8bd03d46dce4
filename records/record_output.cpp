#include "records/record_output.h"

#include "core/error.h"

#include <limits>

namespace bertkit::records {

RecordOutput::RecordOutput(const OutputSpec& spec, const TableLayout* input, std::vector<std::string> fields,
                           std::size_t vector_width)
    : log_(spec.memory ? std::string("-") : spec.path, spec.memory ? std::string() : spec.settings, spec.resume),
      out_(spec.memory ? RecordWriter(spec.memory) : RecordWriter(spec.path, log_.start().bytes, log_.start().header_bytes)),
      input_(input), vector_width_(vector_width) {
  if (spec.format == ResultFormat::Npy) npy_ = std::make_unique<NpyWriter>(out_, vector_width, spec.vector_type);
  else if (spec.format == ResultFormat::F32) raw_ = std::make_unique<RawF32Writer>(out_, vector_width);
  else if (!fields.empty())
    results_ = std::make_unique<ResultWriter>(out_, spec.format, input, spec.pairs, std::move(fields), spec.names,
                                              spec.field_prefix, spec.error_field);
}

void RecordOutput::vector(std::span<const float> row) {
  if (npy_) return npy_->append(row);
  raw_->append(row);
}

void RecordOutput::vector(std::span<const std::uint8_t> row) { npy_->append(row); }

void RecordOutput::failed(const Record& record, std::string_view error) {
  if (results_) return results_->failed(record, error);
  if (!vectors()) runtime_error("internal error: a task writing its own lines did not write a failed record");
  const std::vector<float> nan(vector_width_, std::numeric_limits<float>::quiet_NaN());
  vector(nan);
}

void RecordOutput::end_batch() {
  if (npy_) npy_->flush();
  out_.flush();
}

}  // namespace bertkit::records
