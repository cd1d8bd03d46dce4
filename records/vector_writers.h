#pragma once
// Dense output for embeddings: NumPy .npy of shape (N, D) (float32, or int8/uint8 for quantised
// embeddings), and raw little-endian f32 (N*D values, no header). Each row is one whole record of the
// RecordWriter.
#include "records/record_writer.h"

#include <cstdint>
#include <span>

namespace bertkit::records {

enum class VectorType { F32, I8, U8 };  // npy descr <f4, |i1, |u1

// The .npy header is written first with room for any row count, and patched with the count at every
// flush(): after each batch the file is a valid .npy holding every finished row.
class NpyWriter {
 public:
  // Needs a file (the header is rewritten in place): a usage error for stdout.
  NpyWriter(RecordWriter& out, std::size_t dim, VectorType type = VectorType::F32);
  ~NpyWriter();
  NpyWriter(const NpyWriter&) = delete;
  NpyWriter& operator=(const NpyWriter&) = delete;

  void append(std::span<const float> row);  // row.size() must be dim
  void append(std::span<const std::uint8_t> row);  // an I8 or U8 row (I8 as two's complement)
  // Writes the rows so far and the row count into the header; call at the end of each batch.
  void flush();
  std::uint64_t rows() const { return rows_; }  // rows appended

  // The 128-byte .npy v1.0 header of a C-order array of shape (rows, dim).
  static std::string header(std::uint64_t rows, std::size_t dim, VectorType type = VectorType::F32);

 private:
  RecordWriter& out_;
  std::size_t dim_;
  VectorType type_;
  std::uint64_t rows_ = 0;
  std::uint64_t rows_in_header_ = 0;
  std::string bytes_;
};

class RawF32Writer {
 public:
  RawF32Writer(RecordWriter& out, std::size_t dim) : out_(out), dim_(dim) {}
  void append(std::span<const float> row);  // row.size() must be dim

 private:
  RecordWriter& out_;
  std::size_t dim_;
  std::string bytes_;
};

}  // namespace bertkit::records
