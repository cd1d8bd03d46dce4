// `bertkit serve`'s request bodies (commands/serve_requests.h) on arbitrary bytes: the first byte picks the
// route, the rest is the body. Beyond not crashing: a refusal is a RequestError with an HTTP status of
// 400, 413 or 422, and what is accepted holds at least one input and no more than the limit.
#include "commands/serve_requests.h"

#include <cstdlib>
#include <string_view>

using namespace bertkit::cmd;

namespace {

void check_count(std::size_t n, const RequestLimits& limits) {
  if (n == 0 || n > limits.max_inputs) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const RequestLimits limits{.max_inputs = 8};
  try {
    switch (data[0] % 11) {
      case 0: { auto r = parse_embed_request(body, limits); check_count(r.inputs.size(), limits); break; }
      case 1: { auto r = parse_openai_embeddings_request(body, limits); check_count(r.inputs.size(), limits); break; }
      case 2: { auto r = parse_rerank_request(body, limits); check_count(r.texts.size(), limits); break; }
      case 3: { auto r = parse_cohere_rerank_request(body, limits); check_count(r.texts.size(), limits); break; }
      case 4: { auto r = parse_predict_request(body, limits); check_count(r.inputs.size(), limits); break; }
      case 5: { auto r = parse_tokenize_request(body, limits); check_count(r.inputs.size(), limits); break; }
      case 6: { auto r = parse_decode_request(body, limits); check_count(r.ids.size(), limits); break; }
      case 7: { auto r = parse_ner_request(body, limits); check_count(r.inputs.size(), limits); break; }
      case 8: { auto r = parse_zero_shot_request(body, limits); check_count(r.labels.size(), limits); break; }
      case 9: { auto r = parse_qa_request(body, limits); check_count(r.inputs.size(), limits); break; }
      default: { auto r = parse_similarity_request(body, limits); check_count(r.sentences.size(), limits); break; }
    }
  } catch (const RequestError& e) {
    if (e.status() != 400 && e.status() != 413 && e.status() != 422) std::abort();
  }
  return 0;
}
