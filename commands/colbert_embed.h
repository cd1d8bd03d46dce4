#pragma once
// `bertkit embed` with a PyLate ColBERT model: each record's `colbert` vectors, a list of lists (one
// per kept token, commands/colbert_vectors.h), as documents or, with `--prompt query`, as queries.
// --precision quantises every vector as quantize_embeddings quantises a row; int8/uint8 take each
// dimension's range over all vectors of the calibration file or, without one, of the whole input
// (then every record is kept and written at finish()).
#include "commands/colbert_vectors.h"
#include "core/model/embedding_precision.h"
#include "records/record_pipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace bertkit::cmd {

class ColbertEmbedTask : public records::RecordTask {
 public:
  ColbertEmbedTask(ColbertEncoder& encoder, bool queries, const core::BatchLimits& limits)
      : encoder_(encoder), queries_(queries), limits_(limits) {}

  void quantize(core::Precision precision, std::optional<core::Ranges> calibration);

  std::vector<std::string> result_fields() const override { return {"colbert"}; }
  std::string whole_input_reason() const override;
  records::TextInput model_input(const records::Record& record, std::string& text, std::string& pair) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;
  void write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) override;
  void finish(records::RecordOutput& out) override;

 private:
  void write_vectors(const records::Record& record, bool truncated, const std::vector<float>& vectors,
                     records::RecordOutput& out);

  ColbertEncoder& encoder_;
  bool queries_;
  core::BatchLimits limits_;
  std::vector<std::uint8_t> sides_;
  std::vector<std::vector<float>> vectors_;
  core::Precision precision_ = core::Precision::Float32;
  std::optional<core::Ranges> ranges_;
  bool keep_all_ = false;  // int8/uint8 without calibration: every record waits for finish()
  struct Kept {
    records::Record record;
    bool truncated = false;
    std::string error;  // a skipped record's, else empty
    std::vector<float> vectors;
  };
  std::vector<Kept> kept_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace bertkit::cmd
