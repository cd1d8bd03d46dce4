// `bertkit serve`: the embedding routes, OpenAI's and TEI's, over embed's task, and TEI's /similarity over
// similarity's.
#include "cli/serve_routes.h"

#include "core/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bertkit::cli {

using cmd::HttpResponse;
using cmd::RequestError;
using records::JsonLine;

HttpResponse ServeApp::embeddings(const Call& call) {
  const std::string& path = call.request.path;
  const bool oa = path == "/v1/embeddings";
  cmd::EmbedRequest req = oa ? cmd::parse_openai_embeddings_request(call.request.body, config_.limits)
                             : cmd::parse_embed_request(call.request.body, config_.limits);
  ServedModel& m = model(oa ? req.model : call.model_query);
  EmbedLaneOptions o;
  o.truncate_left = req.truncate_left;
  o.embed.prompt = req.prompt_name;
  o.embed.truncate_dim = req.dimensions;
  if (path == "/embed_sparse") o.embed.vectors = {cmd::VectorKind::Sparse};
  else if (path == "/embed_all") o.output = EmbedLaneOptions::Output::Tokens;
  else o.embed.vectors = {cmd::VectorKind::Dense};
  // TEI normalises unless told not to; OpenAI's shortened embeddings are unit length again.
  if (path == "/embed") o.embed.normalize = req.normalize.value_or(true);
  if (oa && req.dimensions) o.embed.normalize = true;
  cmd::BatchLane& lane = naming_field(req.dimensions ? "dimensions" : req.prompt_name ? "prompt_name" : "",
                                      [&]() -> cmd::BatchLane& { return m.embed_lane(o); });
  RequestRecords in;
  for (std::string& text : req.inputs) in.add(m, std::move(text));
  const std::int64_t tokens = in.tokens;
  const bool truncate = req.truncate || config_.auto_truncate;
  std::vector<OutputLine> lines = compute(m, oa ? "input" : "inputs", call, lane, std::move(in.records), tokens, truncate);
  JsonLine j;
  if (oa) {
    j.begin_object().field("object", "list").key("data").begin_array();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      j.begin_object().field("object", "embedding").field("index", i).key("embedding");
      if (req.base64) j.value(base64_floats(lines[i].value("embedding")));
      else j.raw().append(lines[i].value("embedding"));
      j.end_object();
    }
    j.end_array().field("model", m.name).key("usage").begin_object();
    j.field("prompt_tokens", tokens).field("total_tokens", tokens).end_object().end_object();
    return json_response(line_text(j));
  }
  j.begin_array();
  for (const OutputLine& line : lines) {
    if (path == "/embed") {
      j.raw().append(line.value("embedding"));
    } else if (path == "/embed_all") {
      j.raw().append(line.value("token_embeddings"));
    } else {
      // {"indices": [...], "values": [...]} -> [{"index": i, "value": v}, ...] (TEI's SparseValue)
      const nlohmann::json sparse = nlohmann::json::parse(line.value("sparse"));
      j.begin_array();
      for (std::size_t k = 0; k < sparse["indices"].size(); ++k)
        j.begin_object().field("index", sparse["indices"][k].get<std::int64_t>()).field("value", sparse["values"][k].get<float>()).end_object();
      j.end_array();
    }
  }
  j.end_array();
  return json_response(line_text(j));
}

HttpResponse ServeApp::similarity(const Call& call) {
  cmd::SimilarityRequest req = cmd::parse_similarity_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  cmd::BatchLane& lane = naming_field(req.prompt_name ? "parameters.prompt_name" : "", [&]() -> cmd::BatchLane& {
    return m.similarity_lane(req.prompt_name, req.truncate_left);
  });
  // Each sentence paired with the source, as `bertkit similarity --pairs` reads source<TAB>sentence.
  RequestRecords in;
  for (std::string& sentence : req.sentences) in.add(m, req.source, std::move(sentence));
  const std::vector<OutputLine> lines = compute(m, "inputs.sentences", call, lane, std::move(in.records), in.tokens,
                                                req.truncate || config_.auto_truncate);
  return json_response(answers(lines, true, [](JsonLine& j, const OutputLine& line) { j.raw().append(line.value("score")); }));
}

}  // namespace bertkit::cli
