#include "records/vector_writers.h"

#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <exception>

namespace bertkit::records {

namespace {

constexpr std::size_t kNpyHeaderBytes = 128;  // a multiple of 64, with room for 20-digit dimensions

void append_le(std::string& out, std::span<const float> row) {
  std::size_t at = out.size();
  out.resize(at + row.size_bytes());
  std::memcpy(out.data() + at, row.data(), row.size_bytes());
  if constexpr (std::endian::native == std::endian::big) {
    for (std::size_t i = at; i < out.size(); i += 4) {
      std::swap(out[i], out[i + 3]);
      std::swap(out[i + 1], out[i + 2]);
    }
  }
}

std::size_t element_size(VectorType type) { return type == VectorType::F32 ? sizeof(float) : 1; }

template <typename T>
void check_width(std::span<const T> row, std::size_t dim) {
  if (row.size() != dim) runtime_error("internal error: a vector of {} values in an output of width {}", row.size(), dim);
}

}  // namespace

std::string NpyWriter::header(std::uint64_t rows, std::size_t dim, VectorType type) {
  const char* descr = type == VectorType::F32 ? "<f4" : type == VectorType::I8 ? "|i1" : "|u1";
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}, {}), }}", descr, rows, dim);
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  std::size_t len = kNpyHeaderBytes - 10;  // after magic, version and the length itself
  out += static_cast<char>(len & 0xFF);
  out += static_cast<char>(len >> 8);
  out += dict;
  out.append(kNpyHeaderBytes - 1 - out.size(), ' ');
  out += '\n';
  return out;
}

NpyWriter::NpyWriter(RecordWriter& out, std::size_t dim, VectorType type) : out_(out), dim_(dim), type_(type) {
  if (dim_ == 0) runtime_error("internal error: an npy output of width 0");
  if (out_.is_stdout())
    usage_error("{} npy needs an output file (-o FILE): its header is completed after the last row", Setting::Format);
  out_.write(header(0, dim_, type_));
  out_.flush();
}

NpyWriter::~NpyWriter() {
  try {
    flush();
  } catch (...) {
    // Unwinding already carries the error the user sees.
  }
}

void NpyWriter::append(std::span<const float> row) {
  if (type_ != VectorType::F32) runtime_error("internal error: float32 values in an integer npy output");
  check_width(row, dim_);
  bytes_.clear();
  append_le(bytes_, row);
  out_.write(bytes_);
  ++rows_;
}

void NpyWriter::append(std::span<const std::uint8_t> row) {
  if (type_ == VectorType::F32) runtime_error("internal error: bytes in a float32 npy output");
  check_width(row, dim_);
  out_.write(std::string_view(reinterpret_cast<const char*>(row.data()), row.size()));
  ++rows_;
}

void NpyWriter::flush() {
  // The header counts the rows the file really holds, also when a write failed (full disk) and the
  // RecordWriter cut the file back to its last complete batch.
  std::exception_ptr failed;
  try {
    out_.flush();
  } catch (...) {
    failed = std::current_exception();
  }
  std::uint64_t rows = (out_.committed() - kNpyHeaderBytes) / (dim_ * element_size(type_));
  if (rows != rows_in_header_) {
    out_.patch(0, header(rows, dim_, type_));
    rows_in_header_ = rows;
  }
  if (failed) std::rethrow_exception(failed);
}

void RawF32Writer::append(std::span<const float> row) {
  check_width(row, dim_);
  bytes_.clear();
  append_le(bytes_, row);
  out_.write(bytes_);
}

}  // namespace bertkit::records
