#include "records/record_output.h"

namespace bertkit::records {

RecordOutput::RecordOutput(const OutputSpec& spec, const TableLayout* input, std::vector<std::string> fields,
                           std::size_t vector_width)
    : out_(spec.path), input_(input) {
  if (spec.format == ResultFormat::Npy) npy_ = std::make_unique<NpyWriter>(out_, vector_width);
  else if (spec.format == ResultFormat::F32) raw_ = std::make_unique<RawF32Writer>(out_, vector_width);
  else if (!fields.empty())
    results_ = std::make_unique<ResultWriter>(out_, spec.format, input, spec.pairs, std::move(fields), spec.names,
                                              spec.field_prefix);
}

void RecordOutput::vector(std::span<const float> row) {
  if (npy_) return npy_->append(row);
  raw_->append(row);
}

void RecordOutput::end_batch() {
  if (npy_) npy_->flush();
  out_.flush();
}

}  // namespace bertkit::records
