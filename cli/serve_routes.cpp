#include "cli/serve_routes.h"

#include "core/error.h"
#include "core/model/classification_head.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace bertkit::cli {

using cmd::HttpRequest;
using cmd::HttpResponse;
using cmd::RequestError;
using records::JsonLine;

ServeApp::ServeApp(std::vector<std::unique_ptr<ServedModel>> models, ServeConfig config)
    : models_(std::move(models)),
      config_(std::move(config)),
      batcher_(config_.batcher, [this](const cmd::BatchReport& r) { metrics_.batch(r); }) {}

ServedModel& ServeApp::model(const std::string& name) {
  if (name.empty()) return *models_.front();
  for (auto& m : models_)
    if (m->name == name || m->source == name) return *m;
  std::string names;
  for (auto& m : models_) names += (names.empty() ? "" : ", ") + m->name;
  throw RequestError(404, "model", fmt::format("model \"{}\" is not served here (served: {})", name, names));
}

std::vector<OutputLine> ServeApp::compute(const ServedModel& m, const char* field, const Call& call, cmd::BatchLane& lane,
                                          std::vector<records::Record> records, std::int64_t tokens, bool truncate) {
  cmd::BatchResult result = batcher_.submit(lane, std::move(records), tokens, config_.timeout, *call.arrival);
  switch (result.outcome) {
    case cmd::BatchOutcome::Done: break;
    case cmd::BatchOutcome::Overloaded:
      throw RequestError(429, "", "the model is overloaded: too many requests are waiting (--max-concurrent-requests)");
    case cmd::BatchOutcome::TimedOut:
      throw RequestError(503, "", fmt::format("the request waited longer than {} s for the model (--request-timeout)",
                                              config_.timeout.count() / 1000.0));
    case cmd::BatchOutcome::Stopping: throw RequestError(503, "", "the server is shutting down");
    case cmd::BatchOutcome::Failed: throw RequestError(500, "", "the model failed: " + result.error);
  }
  std::vector<OutputLine> lines;
  for (std::size_t i = 0; i < result.lines.size(); ++i) {
    OutputLine& line = lines.emplace_back(std::move(result.lines[i]));
    const std::string where = fmt::format("{}[{}]", field, i);
    if (auto error = line.get("error")) {
      std::string message = nlohmann::json::parse(*error).get<std::string>();
      // "input:0: what" -> "what": the field names the input.
      if (message.rfind("input:", 0) == 0) message = message.substr(std::min(message.size(), message.find(": ") + 2));
      throw RequestError(422, where, fmt::format("field \"{}\": {}", where, message));
    }
    if (!truncate && line.get("truncated"))
      throw RequestError(413, where, fmt::format("field \"{}\" is longer than the model's maximum of {} tokens; send "
                                                 "\"truncate\": true to cut it", where, m.max_length()));
  }
  return lines;
}

HttpResponse ServeApp::handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const bool openai = request.path.rfind("/v1/", 0) == 0;
  HttpResponse response;
  try {
    if (!config_.api_key.empty() && request.path != "/health" && request.authorization != "Bearer " + config_.api_key)
      throw RequestError(401, "", "a valid API key is needed: Authorization: Bearer KEY");
    response = route(request);
  } catch (const RequestError& e) {
    response = error_response(e.status(), e.field(), e.what(), openai, e.type());
  } catch (const Error& e) {
    response = error_response(e.kind() == ErrorKind::Runtime ? 500 : 422, "", e.what(), openai);
  } catch (const std::exception& e) {
    response = error_response(500, "", fmt::format("internal error: {}", e.what()), openai);
  }
  metrics_.request(route_label(request.path), response.status,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return response;
}

HttpResponse ServeApp::refusal(const std::string& path, int status, const std::string& message) {
  metrics_.request(route_label(path), status, 0);
  return error_response(status, "", message, path.rfind("/v1/", 0) == 0);
}

struct ServeApp::Route {
  const char* path;
  bool post;
  HttpResponse (ServeApp::*handler)(const Call&);
};

const ServeApp::Route* ServeApp::find_route(const std::string& path) {
  static constexpr Route kRoutes[] = {
      {"/health", false, &ServeApp::health},          {"/metrics", false, &ServeApp::metrics},
      {"/v1/models", false, &ServeApp::models},       {"/info", false, &ServeApp::info},
      {"/v1/embeddings", true, &ServeApp::embeddings}, {"/embed", true, &ServeApp::embeddings},
      {"/embed_sparse", true, &ServeApp::embeddings}, {"/embed_all", true, &ServeApp::embeddings},
      {"/rerank", true, &ServeApp::rerank},           {"/v1/rerank", true, &ServeApp::rerank},
      {"/similarity", true, &ServeApp::similarity},   {"/predict", true, &ServeApp::predict},
      {"/zero-shot", true, &ServeApp::zero_shot},
      {"/ner", true, &ServeApp::ner},                 {"/qa", true, &ServeApp::qa},
      {"/tokenize", true, &ServeApp::tokenize},       {"/decode", true, &ServeApp::decode},
  };
  const auto* entry = std::find_if(std::begin(kRoutes), std::end(kRoutes), [&](const Route& r) { return path == r.path; });
  return entry == std::end(kRoutes) ? nullptr : entry;
}

std::string ServeApp::route_label(const std::string& path) { return find_route(path) ? path : "other"; }

HttpResponse ServeApp::route(const HttpRequest& request) {
  const Route* entry = find_route(request.path);
  if (!entry) throw RequestError(404, "", fmt::format("no route {} {}", request.method, request.path));
  const bool get = request.method == "GET" || request.method == "HEAD";
  if (entry->post ? request.method != "POST" : !get)
    throw RequestError(405, "", fmt::format("{} takes {}", request.path, entry->post ? "POST" : "GET"));
  const std::string key = "model=";
  const std::size_t at = request.query.find(key);
  const std::string model_query =
      at == std::string::npos ? std::string() : request.query.substr(at + key.size(), request.query.find('&', at) - at - key.size());
  if (!entry->post) return (this->*entry->handler)({request, model_query, nullptr});
  cmd::Batcher::Arrival arrival(batcher_);  // a batch forming now waits for this request
  return (this->*entry->handler)({request, model_query, &arrival});
}

HttpResponse ServeApp::health(const Call&) {
  HttpResponse r;
  r.content_type.clear();
  return r;
}

HttpResponse ServeApp::metrics(const Call&) {
  HttpResponse r;
  r.content_type = "text/plain; version=0.0.4";
  r.body = metrics_.text(batcher_.depth());
  return r;
}

HttpResponse ServeApp::models(const Call&) {
  JsonLine j;
  j.begin_object().field("object", "list").key("data").begin_array();
  for (auto& m : models_) j.begin_object().field("id", m->name).field("object", "model").field("created", 0).field("owned_by", "bertkit").end_object();
  j.end_array().end_object();
  return json_response(line_text(j));
}

HttpResponse ServeApp::info(const Call& call) {
  ServedModel& m = model(call.model_query);
  nlohmann::ordered_json info;
  info["model_id"] = m.source;
  info["served_model_name"] = m.name;
  info["model_sha"] = nullptr;
  info["model_dtype"] = m.model.transformer ? m.model.transformer->dtype : std::string("float32");
  if (m.cross_encoder() || m.classifies()) {
    const auto& config = m.model.transformer->loaded.config;
    nlohmann::ordered_json id2label, label2id;
    const std::vector<std::string> labels = core::sequence_labels(config);
    for (std::size_t i = 0; i < labels.size(); ++i) {
      id2label[std::to_string(i)] = labels[i];
      label2id[labels[i]] = i;
    }
    info["model_type"][m.cross_encoder() ? "reranker" : "classifier"] = {{"id2label", id2label}, {"label2id", label2id}};
  } else if (m.tags_tokens() || m.answers()) {
    info["model_type"][m.tags_tokens() ? "ner" : "qa"] = nlohmann::ordered_json::object();  // bertkit's routes /ner, /qa
  } else {
    info["model_type"]["embedding"] = {{"pooling", m.model.plan({}).pooling_text}};
  }
  info["max_concurrent_requests"] = config_.batcher.max_queued;
  info["max_input_length"] = m.max_length();
  info["max_batch_tokens"] = config_.batcher.max_batch_tokens;
  info["max_batch_requests"] = config_.batcher.max_batch_requests;
  info["max_client_batch_size"] = config_.limits.max_inputs;
  info["auto_truncate"] = config_.auto_truncate;
  info["tokenization_workers"] = 1;
  info["version"] = BERTKIT_VERSION;
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (auto& other : models_) names.push_back(other->name);
  info["models"] = names;
  return json_response(info.dump());
}

}  // namespace bertkit::cli
