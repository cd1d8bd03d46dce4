// `bertkit serve`: the routes of the model commands with heads: rerank, classify (predict), zero-shot, ner, qa.
#include "cli/serve_routes.h"

#include "core/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bertkit::cli {

using cmd::HttpResponse;
using cmd::RequestError;
using records::JsonLine;

HttpResponse ServeApp::rerank(const Call& call) {
  const std::string& path = call.request.path;
  const bool cohere = path == "/v1/rerank";
  cmd::RerankRequest req = cohere ? cmd::parse_cohere_rerank_request(call.request.body, config_.limits)
                                  : cmd::parse_rerank_request(call.request.body, config_.limits);
  ServedModel& m = model(cohere ? req.model : call.model_query);
  cmd::BatchLane& lane = m.rerank_lane(req.raw_scores, req.truncate_left);
  std::int64_t tokens = 0;
  for (const std::string& t : req.texts) tokens += count_tokens(m, req.query, t);
  std::vector<records::Record> records;
  records.push_back(object_record(req.query, {{"documents", req.texts}}));
  std::vector<OutputLine> lines = compute(m, cohere ? "documents" : "texts", call, lane, std::move(records), tokens, req.truncate || config_.auto_truncate);
  const nlohmann::json results = nlohmann::json::parse(lines[0].value("results"));
  const std::size_t n = std::min(results.size(), req.top_n.value_or(results.size()));
  JsonLine j;
  if (cohere) j.begin_object().field("model", m.name).key("results");
  j.begin_array();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t index = results[k]["corpus_id"].get<std::size_t>();
    j.begin_object().field("index", index).field(cohere ? "relevance_score" : "score", results[k]["score"].get<float>());
    if (req.return_text) {
      if (cohere) j.key("document").begin_object().field("text", req.texts[index]).end_object();
      else j.field("text", req.texts[index]);
    }
    j.end_object();
  }
  j.end_array();
  if (cohere) j.key("usage").begin_object().field("total_tokens", tokens).end_object().end_object();
  return json_response(line_text(j));
}

HttpResponse ServeApp::predict(const Call& call) {
  cmd::PredictRequest req = cmd::parse_predict_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  cmd::BatchLane& lane = m.classify_lane(req.raw_scores, req.truncate_left);
  RequestRecords in;
  for (auto& [a, b] : req.inputs) in.add(m, std::move(a), std::move(b));
  const std::vector<OutputLine> lines =
      compute(m, "inputs", call, lane, std::move(in.records), in.tokens, req.truncate || config_.auto_truncate);
  return json_response(answers(lines, req.listed, [](JsonLine& j, const OutputLine& line) { j.raw().append(line.value("scores")); }));
}

HttpResponse ServeApp::zero_shot(const Call& call) {
  cmd::ZeroShotRequest req = cmd::parse_zero_shot_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  cmd::BatchLane& lane = m.zero_shot_lane(req.hypothesis_template, req.multi_label);
  std::vector<records::Record> records;
  std::int64_t tokens = 0;
  for (std::string& text : req.inputs) {
    for (const std::string& label : req.labels) tokens += count_tokens(m, text, label);
    records.push_back(object_record(std::move(text), {{"candidate_labels", req.labels}}));
  }
  const std::vector<OutputLine> lines = compute(m, "inputs", call, lane, std::move(records), tokens, true);
  return json_response(answers(lines, req.listed, [](JsonLine& j, const OutputLine& line) { copy_members(j, line, {"labels", "scores"}); }));
}

HttpResponse ServeApp::ner(const Call& call) {
  cmd::NerRequest req = cmd::parse_ner_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  cmd::BatchLane& lane = m.ner_lane(req.aggregation);
  RequestRecords in;
  for (std::string& text : req.inputs) in.add(m, std::move(text));
  const std::vector<OutputLine> lines =
      compute(m, "inputs", call, lane, std::move(in.records), in.tokens, req.truncate || config_.auto_truncate);
  return json_response(answers(lines, req.listed, [](JsonLine& j, const OutputLine& line) { j.raw().append(line.value("entities")); }));
}

HttpResponse ServeApp::qa(const Call& call) {
  cmd::QaRequest req = cmd::parse_qa_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  cmd::BatchLane& lane = m.qa_lane(req.top_k);
  RequestRecords in;
  for (auto& [question, context] : req.inputs) in.add(m, std::move(question), std::move(context));
  const std::vector<OutputLine> lines = compute(m, "inputs", call, lane, std::move(in.records), in.tokens, true);
  // Each input's answers, best first: the CLI's `answers` (top_k > 1), else its one answer.
  return json_response(answers(lines, req.listed, [&](JsonLine& j, const OutputLine& line) {
    if (req.top_k > 1) return void(j.raw().append(line.value("answers")));
    j.begin_array();
    copy_members(j, line, {"answer", "score", "start", "end"});
    j.end_array();
  }));
}

}  // namespace bertkit::cli
