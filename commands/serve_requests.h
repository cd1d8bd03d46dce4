#pragma once
// The JSON bodies `bertkit serve` accepts, read into typed requests: OpenAI's embeddings, the
// text-embeddings-inference routes, the Cohere/Jina rerank, and bertkit's own routes for the tasks TEI
// has not (ner, zero-shot, qa). Anything else is a RequestError naming the field: malformed JSON is a
// 400, as is an empty list of inputs; a member of the wrong type or value a 422, more inputs than the
// server takes a 413. The same
// code reads every request, so the fuzz target (tests/fuzz/fuzz_serve_requests.cpp) covers it all.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::cmd {

class RequestError : public std::runtime_error {
 public:
  // `type`: TEI's error_type where the status does not tell it (an empty batch: "Empty").
  RequestError(int status, std::string field, const std::string& message, std::string type = {})
      : std::runtime_error(message), status_(status), field_(std::move(field)), type_(std::move(type)) {}
  int status() const { return status_; }
  const std::string& field() const { return field_; }  // empty: the body as a whole
  const std::string& type() const { return type_; }

 private:
  int status_;
  std::string field_;
  std::string type_;
};

struct RequestLimits {
  std::size_t max_inputs = 512;  // texts (or documents, labels, ids lists) in one request
};

// /embed, /embed_sparse, /embed_all (TEI) and /v1/embeddings (OpenAI).
struct EmbedRequest {
  std::vector<std::string> inputs;
  bool listed = false;  // `inputs` was a list: the answer is one too
  std::optional<bool> normalize;
  bool truncate = false;       // false: an input longer than the model's limit is refused (413)
  bool truncate_left = false;  // truncation_direction "left"
  std::optional<std::string> prompt_name;
  std::optional<std::int64_t> dimensions;
  // OpenAI
  std::string model;
  bool base64 = false;  // encoding_format "base64": little-endian float32, base64
};

// /rerank (TEI: query, texts) and /v1/rerank (Cohere, Jina: query, documents, top_n).
struct RerankRequest {
  std::string query;
  std::vector<std::string> texts;
  bool raw_scores = false;
  bool return_text = false;
  bool truncate = false;
  bool truncate_left = false;
  std::optional<std::size_t> top_n;
  std::string model;
};

// /similarity (TEI): a sentence against others, by the model's similarity (cosine unless it names another).
struct SimilarityRequest {
  std::string source;
  std::vector<std::string> sentences;
  std::optional<std::string> prompt_name;
  bool truncate = false;
  bool truncate_left = false;
};

// /predict (TEI): a text, a pair, or a list of either.
struct PredictRequest {
  std::vector<std::pair<std::string, std::optional<std::string>>> inputs;
  bool listed = false;
  bool raw_scores = false;
  bool truncate = false;
  bool truncate_left = false;
};

// /tokenize (TEI).
struct TokenizeRequest {
  std::vector<std::string> inputs;
  bool listed = false;
  bool add_special_tokens = true;
  std::optional<std::string> prompt_name;
};

// /decode (TEI).
struct DecodeRequest {
  std::vector<std::vector<std::int32_t>> ids;
  bool listed = false;
  bool skip_special_tokens = true;
};

// /ner: entities of texts.
struct NerRequest {
  std::vector<std::string> inputs;
  bool listed = false;
  std::string aggregation = "simple";  // aggregation_strategy: none, simple, first, average or max
  bool truncate = false;
};

// /zero-shot: texts ranked against candidate labels.
struct ZeroShotRequest {
  std::vector<std::string> inputs;
  bool listed = false;
  std::vector<std::string> labels;
  std::optional<std::string> hypothesis_template;
  bool multi_label = false;
};

// /qa: a question answered from a context.
struct QaRequest {
  std::vector<std::pair<std::string, std::string>> inputs;  // (question, context)
  bool listed = false;
  std::size_t top_k = 1;
  bool truncate = true;  // a long context is read in windows: nothing is cut
};

EmbedRequest parse_embed_request(std::string_view body, const RequestLimits& limits);
EmbedRequest parse_openai_embeddings_request(std::string_view body, const RequestLimits& limits);
RerankRequest parse_rerank_request(std::string_view body, const RequestLimits& limits);
RerankRequest parse_cohere_rerank_request(std::string_view body, const RequestLimits& limits);
SimilarityRequest parse_similarity_request(std::string_view body, const RequestLimits& limits);
PredictRequest parse_predict_request(std::string_view body, const RequestLimits& limits);
TokenizeRequest parse_tokenize_request(std::string_view body, const RequestLimits& limits);
DecodeRequest parse_decode_request(std::string_view body, const RequestLimits& limits);
NerRequest parse_ner_request(std::string_view body, const RequestLimits& limits);
ZeroShotRequest parse_zero_shot_request(std::string_view body, const RequestLimits& limits);
QaRequest parse_qa_request(std::string_view body, const RequestLimits& limits);

}  // namespace bertkit::cmd
