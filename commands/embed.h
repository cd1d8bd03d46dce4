#pragma once
// `bertkit embed`: sentence embeddings the sentence-transformers way (prompt, strip, lower-case,
// encoder, pooling, Dense, Normalize), or the encoder's per-token vectors.
#include "core/loading/model_source.h"
#include "core/model/batching.h"
#include "core/model/encoder.h"
#include "core/model/pooling.h"
#include "core/model/embedding_precision.h"
#include "core/model/colbert_linear_head.h"
#include "core/model/sparse_head.h"
#include "commands/sparse_output.h"
#include "commands/vector_kinds.h"
#include "core/setting.h"
#include "records/json_line.h"
#include "records/record_pipeline.h"
#include "tokenizer/encoding.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

enum class PoolingMode { Cls, Mean, Max };

struct EmbedOptions {
  std::optional<PoolingMode> pooling;  // unset: the checkpoint's (mean for a plain transformers model)
  std::optional<bool> normalize;       // unset: the checkpoint's (a Normalize module), else no
  std::optional<std::string> prefix;   // prepended to every text
  std::optional<std::string> prompt;   // a prompt name of config_sentence_transformers.json
  std::optional<std::int64_t> truncate_dim;  // unset: the checkpoint's truncate_dim, else all
  std::vector<VectorKind> vectors;  // empty: the model's default vector; the front end checks they are offered
};

// What the options and the checkpoint resolve to.
struct EmbedPlan {
  core::SentenceTransformerConfig modules;  // pooling, dense, normalize
  std::string prefix;                       // the prompt's text, or --prefix
  std::string prompt_name;                  // empty: no named prompt
  bool lower_case = false;                  // sentence_bert_config.json do_lower_case
  std::vector<VectorKind> vectors;          // what each text gets, in this order
  // Matryoshka: the first truncate_dim values are kept after the modules ran (a Normalize module
  // included); normalize_truncated (--normalize) L2-normalises what is kept, as
  // sentence-transformers' normalize_embeddings=True does after truncation.
  std::optional<std::int64_t> truncate_dim;
  bool normalize_truncated = false;
  // For --dry-run: what each setting is and where it came from.
  std::string pooling_text, normalize_text, prompt_text, truncate_from;
  bool truncate_dim_given = false;  // truncate_dim is the user's, not the checkpoint's
  // model2vec: each text is cut to its first max_chars code points before it is tokenized, and its ids
  // (the unknown token's removed) to the first max_ids.
  std::optional<std::size_t> max_chars, max_ids;
};

EmbedPlan plan_embedding(const core::LoadedModel& model, const EmbedOptions& options);
// The same from a model's sentence-transformers settings (none: a plain transformers checkpoint).
EmbedPlan plan_embedding(const std::optional<core::SentenceTransformerConfig>& st, const EmbedOptions& options);

// `s` without the white space Python's str.strip() removes at its ends.
std::string_view python_strip(std::string_view s);

// The text the model sees, as sentence-transformers builds it: prompt + text, stripped of
// surrounding whitespace (Python's str.strip), lower-cased when the checkpoint says so, cut to
// max_chars code points when the plan has them.
std::string model_text(const EmbedPlan& plan, std::string_view text);
// The same as a view into `text`, for a plan without a prefix, lower-casing or cut (their callers check).
std::string_view model_view(const EmbedPlan& plan, std::string_view text);

// A quantised row as a JSON list of its integers (int8 and binary as signed bytes).
void write_quantized(records::JsonLine& j, core::Precision precision, std::span<const std::uint8_t> bytes);
// Vectors of `dim` values each (a text's ColBERT vectors) as a JSON list of lists, each quantised as a
// row is unless float32 (int8/uint8 with `ranges`); `bytes` is scratch.
void write_vector_list(records::JsonLine& j, std::span<const float> vectors, std::size_t dim, core::Precision precision,
                       const core::Ranges* ranges, std::vector<std::uint8_t>& bytes);

// The values kept of an embedding of `full`: the plan's truncate_dim (a usage error when --truncate-dim
// is out of range, bad input when the checkpoint's is), else all.
std::int64_t kept_dimension(const EmbedPlan& plan, std::int64_t full);

// What embeds texts for embed, similarity and search: a transformer (Embedder) or a table of token
// vectors (StaticEmbedder).
class SentenceEmbedder {
 public:
  virtual ~SentenceEmbedder() = default;
  // Values per sentence embedding: the model's output, or as many as truncate_dim keeps.
  virtual std::int64_t dimension() const = 0;
  // One row of dimension() values per encoding, in input order.
  virtual void sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                                   std::vector<float>& rows) = 0;
};

class Embedder : public SentenceEmbedder {
 public:
  Embedder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights, const EmbedPlan& plan);

  std::int64_t dimension() const override { return dimension_; }
  std::int64_t hidden_size() const { return encoder_.config().hidden_size; }

  void sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                           std::vector<float>& rows) override;
  // Sparse vectors through `head` (make_sparse_head) as well as, or instead of, dense embeddings.
  void use_sparse_head(std::unique_ptr<core::SparseHead> head) { sparse_ = std::move(head); }
  // BGE-M3's ColBERT vectors likewise.
  void use_colbert_head(std::unique_ptr<core::ColbertLinearHead> head) { colbert_ = std::move(head); }
  std::int64_t colbert_dimension() const { return colbert_ ? colbert_->dimension() : 0; }
  // One sparse vector per encoding, in input order (use_sparse_head first).
  void sparse_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                         std::vector<core::SparseVector>& vectors);
  // What one encoder pass writes, in input order: each output that is given (its head attached first).
  struct Outputs {
    std::vector<float>* dense = nullptr;                // dimension() values per encoding
    std::vector<core::SparseVector>* sparse = nullptr;  // one per encoding
    std::vector<std::vector<float>>* colbert = nullptr;  // [tokens − 1, colbert_dimension()] per encoding
  };
  void embed(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits, const Outputs& outputs);
  // The last hidden state of each encoding ([tokens, hidden_size], row-major), in input order.
  void token_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                        std::vector<std::vector<float>>& states);

 private:
  core::Encoder encoder_;
  core::SentencePooler pooler_;
  std::unique_ptr<core::SparseHead> sparse_;
  std::unique_ptr<core::ColbertLinearHead> colbert_;
  std::int64_t dimension_;
  bool normalize_truncated_;
  std::vector<float> pooled_;
};

// The records' embeddings: one `embedding` per record (or an npy/f32 row), or with `token_embeddings`
// the record's `tokens` and their vectors. A --precision other than float32 writes integers: int8 and
// uint8 quantise with the calibration ranges, or without them (as quantize_embeddings does) with the
// ranges of all the embeddings, so every record is kept and written at finish().
class EmbedTask : public records::RecordTask {
 public:
  // `transformer`: the embedder when it is a transformer's (null for a static model), which also gives
  // sparse vectors and, with `token_embeddings`, the last hidden state per token.
  EmbedTask(SentenceEmbedder& embedder, const EmbedPlan& plan, const tok::Tokenizer& tokenizer,
            const core::BatchLimits& limits, Embedder* transformer, bool token_embeddings)
      : embedder_(embedder),
        plan_(plan),
        tokenizer_(tokenizer),
        limits_(limits),
        transformer_(transformer),
        token_embeddings_(token_embeddings) {}

  std::vector<std::string> result_fields() const override;
  std::size_t vector_width() const override {
    return core::quantized_width(precision_, static_cast<std::size_t>(embedder_.dimension()));
  }
  records::TextInput model_input(const records::Record& record, std::string& text, std::string& pair) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;
  // Kept in its place too when every record waits for finish().
  void write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) override;
  void finish(records::RecordOutput& out) override;
  std::string whole_input_reason() const override {
    return keep_all_ ? fmt::format("{} without {} quantises with the ranges of every embedding of the input",
                                   Setting::Precision, Setting::Calibration)
                     : std::string();
  }

  // How sparse vectors are written (top k, tokens).
  void sparse_writing(SparseWriting how) { sparse_writing_ = how; }
  // `calibration`: int8/uint8 ranges; without them, those of every embedding of the input.
  void quantize(core::Precision precision, std::optional<core::Ranges> calibration);

 private:
  void write_tokens(const records::Batch& batch, std::size_t i, records::ResultWriter& results);
  void write_vectors(const records::Batch& batch, std::size_t i, records::ResultWriter& results);
  // The ranges taken from the input (no --calibration): refused where no dimension has one.
  void check_input_ranges() const;
  void write_row(const records::Record& record, bool truncated, std::span<const float> row, records::RecordOutput& out);
  bool wants(VectorKind kind) const;

  SentenceEmbedder& embedder_;
  const EmbedPlan& plan_;
  const tok::Tokenizer& tokenizer_;
  core::BatchLimits limits_;
  Embedder* transformer_;
  bool token_embeddings_;
  std::vector<float> rows_;
  std::vector<std::vector<float>> states_;
  std::vector<core::SparseVector> sparse_;
  std::vector<std::vector<float>> colbert_;
  SparseWriting sparse_writing_;
  core::Precision precision_ = core::Precision::Float32;
  std::optional<core::Ranges> ranges_;
  bool keep_all_ = false;  // int8/uint8 without calibration: write at finish()
  std::vector<records::Record> kept_;
  std::vector<std::uint8_t> kept_truncated_;
  std::vector<std::string> kept_errors_;  // a skipped record's error (it has no row in kept_rows_), else empty
  std::vector<float> kept_rows_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace bertkit::cmd
