#include "cli/serve_routes.h"

#include "core/error.h"
#include "core/model/classification_head.h"
#include "records/json_line.h"
#include "records/json_members.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

namespace bertkit::cli {

namespace {

using cmd::HttpRequest;
using cmd::HttpResponse;
using cmd::RequestError;
using records::JsonLine;

// One output line of the pipeline and where its members lie, so values are copied as written.
class OutputLine {
 public:
  explicit OutputLine(std::string text) : text_(std::move(text)) {
    if (!records::scan_json_members(text_, members_)) runtime_error("internal error: an output line is not an object");
  }
  // The member's JSON text as written, or nothing.
  std::optional<std::string_view> get(std::string_view name) const {
    for (const records::JsonMember& m : members_) {
      const std::string_view key(text_.data() + m.name_begin, m.name_end - m.name_begin);
      if (key.size() == name.size() + 2 && key.substr(1, name.size()) == name)
        return std::string_view(text_.data() + m.value_begin, m.value_end - m.value_begin);
    }
    return std::nullopt;
  }
  std::string_view value(std::string_view name) const {
    if (auto v = get(name)) return *v;
    runtime_error("internal error: an output line has no \"{}\"", name);
  }

 private:
  std::string text_;
  std::vector<records::JsonMember> members_;
};

records::Record text_record(std::string text) {
  records::Record r;
  r.text = std::move(text);
  r.source = "input";
  return r;
}

// A record whose JSON object holds what a task reads besides its text (rerank's documents, zero-shot's
// labels), as a JSONL record would.
records::Record object_record(std::string text, nlohmann::ordered_json object) {
  records::Record r = text_record(std::move(text));
  r.object = std::move(object);
  r.raw = r.object.dump();
  records::scan_json_members(r.raw, r.members);
  return r;
}

std::string base64(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = std::uint32_t{bytes[i]} << 16 | (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                            (i + 2 < bytes.size() ? bytes[i + 2] : 0);
    out += kDigits[n >> 18 & 63];
    out += kDigits[n >> 12 & 63];
    out += i + 1 < bytes.size() ? kDigits[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

// A JSON array of floats (as the CLI wrote it) as OpenAI's base64: little-endian float32.
std::string base64_floats(std::string_view array) {
  const nlohmann::json values = nlohmann::json::parse(array);
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 4);
  for (const auto& v : values) {
    const float f = v.is_number() ? v.get<float>() : 0.0f;
    std::uint8_t b[4];
    std::memcpy(b, &f, 4);
    bytes.insert(bytes.end(), b, b + 4);  // x86-64 and arm64 are little-endian
  }
  return base64(bytes);
}

HttpResponse json_response(std::string body) {
  HttpResponse r;
  r.body = std::move(body);
  return r;
}

HttpResponse error_response(int status, const std::string& field, const std::string& message, bool openai,
                            const std::string& type = {}) {
  HttpResponse r;
  r.status = status;
  JsonLine j;
  if (openai) {
    j.begin_object().key("error").begin_object().field("message", message);
    j.field("type", status == 401   ? "authentication_error"
                    : status == 429 ? "rate_limit_error"
                    : status >= 500 ? "server_error"
                                    : "invalid_request_error");
    if (field.empty()) j.key("param").null();
    else j.field("param", field);
    j.key("code").null().end_object().end_object();
  } else {
    // TEI's error types: Overloaded (429, and 503: a full or stopping queue), Backend (the model failed),
    // Empty (no inputs), else Validation.
    const std::string tei = !type.empty() ? type : status == 429 || status == 503 ? "Overloaded" : status >= 500 ? "Backend"
                                                                                                 : "Validation";
    j.begin_object().field("error", message).field("error_type", tei).end_object();
  }
  r.body = std::string(j.line());
  if (!r.body.empty() && r.body.back() == '\n') r.body.pop_back();
  if (status == 429 || status == 503) r.headers.emplace_back("Retry-After", "1");
  return r;
}

std::string line_text(JsonLine& j) {
  std::string s(j.line());
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::int64_t count_tokens(const ServedModel& m, std::string_view a, std::optional<std::string_view> b = std::nullopt) {
  const std::size_t n = m.tokenizer().count(a, b, tok::EncodeOptions{});
  return static_cast<std::int64_t>(std::min(n, m.max_length()));
}

// The route a path is counted under in /metrics: its own, or "other" (so no client can grow the metrics).
std::string route_label(const std::string& path) {
  static const std::vector<std::string> known = {"/v1/embeddings", "/v1/rerank", "/v1/models", "/embed", "/embed_sparse",
                                                 "/embed_all", "/rerank", "/predict", "/tokenize", "/decode",
                                                 "/zero-shot", "/ner", "/qa", "/info", "/health", "/metrics"};
  return std::find(known.begin(), known.end(), path) != known.end() ? path : "other";
}

}  // namespace

ServeApp::ServeApp(std::vector<std::unique_ptr<ServedModel>> models, ServeConfig config)
    : models_(std::move(models)),
      config_(std::move(config)),
      batcher_(config_.batcher, [this](const cmd::BatchReport& r) { metrics_.batch(r); }) {}

ServedModel& ServeApp::model(const std::string& name, bool) {
  if (name.empty()) return *models_.front();
  for (auto& m : models_)
    if (m->name == name || m->source == name) return *m;
  std::string names;
  for (auto& m : models_) names += (names.empty() ? "" : ", ") + m->name;
  throw RequestError(404, "model", fmt::format("model \"{}\" is not served here (served: {})", name, names));
}

// The batched part of a route: the records through `lane`, each answered line checked.
struct ServeApp::Route {
  ServeApp& app;
  ServedModel& model;
  const char* field;  // what the inputs are called in the request, for errors

  cmd::Batcher::Arrival& arrival;

  std::vector<OutputLine> compute(cmd::BatchLane& lane, std::vector<records::Record> records, std::int64_t tokens,
                                  bool truncate) {
    cmd::BatchResult result = app.batcher_.submit(lane, std::move(records), tokens, app.config_.timeout, arrival);
    switch (result.outcome) {
      case cmd::BatchOutcome::Done: break;
      case cmd::BatchOutcome::Overloaded:
        throw RequestError(429, "", "the model is overloaded: too many requests are waiting (--max-concurrent-requests)");
      case cmd::BatchOutcome::TimedOut:
        throw RequestError(503, "", fmt::format("the request waited longer than {} s for the model (--request-timeout)",
                                                app.config_.timeout.count() / 1000.0));
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
                                                   "\"truncate\": true to cut it", where, model.max_length()));
    }
    return lines;
  }
};

HttpResponse ServeApp::handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const bool openai = request.path.rfind("/v1/", 0) == 0;
  HttpResponse response;
  try {
    if (!config_.api_key.empty() && request.path != "/health" && request.authorization != "Bearer " + config_.api_key)
      throw RequestError(401, "", "a valid API key is needed: Authorization: Bearer KEY");
    response = route(request, request.path);
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

void ServeApp::answered_by_transport(const std::string& path, int status) { metrics_.request(route_label(path), status, 0); }

HttpResponse ServeApp::route(const HttpRequest& request, const std::string& path) {
  const bool get = request.method == "GET" || request.method == "HEAD";
  const bool post = request.method == "POST";
  auto require = [&](bool ok) {
    if (!ok) throw RequestError(405, "", fmt::format("{} takes {}", path, get ? "POST" : "GET"));
  };
  const std::string model_query = [&] {
    const std::string key = "model=";
    const std::size_t at = request.query.find(key);
    return at == std::string::npos ? std::string() : request.query.substr(at + key.size(), request.query.find('&', at) - at - key.size());
  }();

  if (path == "/health") {
    require(get);
    HttpResponse r;
    r.content_type.clear();
    return r;
  }
  if (path == "/metrics") {
    require(get);
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = metrics_.text(batcher_.depth());
    return r;
  }
  if (path == "/v1/models") {
    require(get);
    JsonLine j;
    j.begin_object().field("object", "list").key("data").begin_array();
    for (auto& m : models_) j.begin_object().field("id", m->name).field("object", "model").field("created", 0).field("owned_by", "bertkit").end_object();
    j.end_array().end_object();
    return json_response(line_text(j));
  }
  if (path == "/info") {
    require(get);
    ServedModel& m = model(model_query, false);
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

  require(post);
  cmd::Batcher::Arrival arrival(batcher_);  // a batch forming now waits for this request
  if (path == "/v1/embeddings" || path == "/embed" || path == "/embed_sparse" || path == "/embed_all") {
    const bool oa = path == "/v1/embeddings";
    cmd::EmbedRequest req = oa ? cmd::parse_openai_embeddings_request(request.body, config_.limits)
                               : cmd::parse_embed_request(request.body, config_.limits);
    ServedModel& m = model(oa ? req.model : model_query, oa);
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
    cmd::BatchLane* lane = nullptr;
    try {
      lane = &m.embed_lane(o);
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Runtime) throw;
      const char* field = req.dimensions ? "dimensions" : req.prompt_name ? "prompt_name" : "";
      throw RequestError(422, field, e.what());
    }
    std::vector<records::Record> records;
    std::int64_t tokens = 0;
    for (std::string& text : req.inputs) {
      tokens += count_tokens(m, text);
      records.push_back(text_record(std::move(text)));
    }
    const bool truncate = req.truncate || config_.auto_truncate;
    Route r{*this, m, oa ? "input" : "inputs", arrival};
    std::vector<OutputLine> lines = r.compute(*lane, std::move(records), tokens, truncate);
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
  if (path == "/rerank" || path == "/v1/rerank") {
    const bool cohere = path == "/v1/rerank";
    cmd::RerankRequest req = cohere ? cmd::parse_cohere_rerank_request(request.body, config_.limits)
                                    : cmd::parse_rerank_request(request.body, config_.limits);
    ServedModel& m = model(cohere ? req.model : model_query, cohere);
    cmd::BatchLane& lane = m.rerank_lane(req.raw_scores, req.truncate_left);
    std::int64_t tokens = 0;
    for (const std::string& t : req.texts) tokens += count_tokens(m, req.query, t);
    std::vector<records::Record> records;
    records.push_back(object_record(req.query, {{"documents", req.texts}}));
    Route r{*this, m, cohere ? "documents" : "texts", arrival};
    std::vector<OutputLine> lines = r.compute(lane, std::move(records), tokens, req.truncate || config_.auto_truncate);
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
  if (path == "/predict") {
    cmd::PredictRequest req = cmd::parse_predict_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    cmd::BatchLane& lane = m.classify_lane(req.raw_scores, req.truncate_left);
    std::vector<records::Record> records;
    std::int64_t tokens = 0;
    for (auto& [a, b] : req.inputs) {
      tokens += count_tokens(m, a, b ? std::optional<std::string_view>(*b) : std::nullopt);
      records::Record rec = text_record(std::move(a));
      if (b) rec.text_pair = std::move(*b), rec.has_pair = true;
      records.push_back(std::move(rec));
    }
    Route r{*this, m, "inputs", arrival};
    std::vector<OutputLine> lines = r.compute(lane, std::move(records), tokens, req.truncate || config_.auto_truncate);
    JsonLine j;
    if (req.listed) j.begin_array();
    for (const OutputLine& line : lines) j.raw().append(line.value("scores"));
    if (req.listed) j.end_array();
    return json_response(line_text(j));
  }
  if (path == "/zero-shot") {
    cmd::ZeroShotRequest req = cmd::parse_zero_shot_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    cmd::BatchLane& lane = m.zero_shot_lane(req.hypothesis_template, req.multi_label);
    std::vector<records::Record> records;
    std::int64_t tokens = 0;
    for (std::string& text : req.inputs) {
      for (const std::string& label : req.labels) tokens += count_tokens(m, text, label);
      records.push_back(object_record(std::move(text), {{"candidate_labels", req.labels}}));
    }
    Route r{*this, m, "inputs", arrival};
    std::vector<OutputLine> lines = r.compute(lane, std::move(records), tokens, true);
    JsonLine j;
    if (req.listed) j.begin_array();
    for (const OutputLine& line : lines) {
      j.begin_object().key("labels");
      j.raw().append(line.value("labels"));
      j.key("scores");
      j.raw().append(line.value("scores"));
      j.end_object();
    }
    if (req.listed) j.end_array();
    return json_response(line_text(j));
  }
  if (path == "/ner") {
    cmd::NerRequest req = cmd::parse_ner_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    cmd::BatchLane& lane = m.ner_lane(req.aggregation);
    std::vector<records::Record> records;
    std::int64_t tokens = 0;
    for (std::string& text : req.inputs) {
      tokens += count_tokens(m, text);
      records.push_back(text_record(std::move(text)));
    }
    Route r{*this, m, "inputs", arrival};
    std::vector<OutputLine> lines = r.compute(lane, std::move(records), tokens, req.truncate || config_.auto_truncate);
    JsonLine j;
    if (req.listed) j.begin_array();
    for (const OutputLine& line : lines) j.raw().append(line.value("entities"));
    if (req.listed) j.end_array();
    return json_response(line_text(j));
  }
  if (path == "/qa") {
    cmd::QaRequest req = cmd::parse_qa_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    cmd::BatchLane& lane = m.qa_lane(req.top_k);
    std::vector<records::Record> records;
    std::int64_t tokens = 0;
    for (auto& [question, context] : req.inputs) {
      tokens += count_tokens(m, question, context);
      records::Record rec = text_record(std::move(question));
      rec.text_pair = std::move(context);
      rec.has_pair = true;
      records.push_back(std::move(rec));
    }
    Route r{*this, m, "inputs", arrival};
    std::vector<OutputLine> lines = r.compute(lane, std::move(records), tokens, true);
    // Each input's answers, best first: the CLI's `answers` (top_k > 1), else its one answer.
    JsonLine j;
    if (req.listed) j.begin_array();
    for (const OutputLine& line : lines) {
      if (req.top_k > 1) {
        j.raw().append(line.value("answers"));
        continue;
      }
      j.begin_array().begin_object();
      for (const char* key : {"answer", "score", "start", "end"}) {
        j.key(key);
        j.raw().append(line.value(key));
      }
      j.end_object().end_array();
    }
    if (req.listed) j.end_array();
    return json_response(line_text(j));
  }
  if (path == "/tokenize") {
    cmd::TokenizeRequest req = cmd::parse_tokenize_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    std::string prefix;
    if (req.prompt_name) {
      cmd::EmbedOptions e;
      e.prompt = req.prompt_name;
      try {
        prefix = m.model.plan(e).prefix;
      } catch (const Error& e) {
        throw RequestError(422, "prompt_name", e.what());
      }
    }
    tok::EncodeOptions options;
    options.add_special_tokens = req.add_special_tokens;
    JsonLine j;
    j.begin_array();
    for (const std::string& input : req.inputs) {
      const std::string text = prefix + input;
      const tok::Encoding e = m.tokenizer().encode(text, std::nullopt, options);
      j.begin_array();
      for (std::size_t t = 0; t < e.ids.size(); ++t) {
        const bool special = e.special_mask[t] != 0;
        j.begin_object().field("id", e.ids[t]);
        if (special) {
          j.field("text", m.tokenizer().token(e.ids[t])).field("special", true).key("start").null().key("stop").null();
        } else {
          const tok::Offsets& o = e.offsets[t];
          j.field("text", std::string_view(text).substr(o.begin, o.end - o.begin)).field("special", false);
          j.field("start", o.begin).field("stop", o.end);
        }
        j.end_object();
      }
      j.end_array();
    }
    j.end_array();
    return json_response(line_text(j));
  }
  if (path == "/decode") {
    cmd::DecodeRequest req = cmd::parse_decode_request(request.body, config_.limits);
    ServedModel& m = model(model_query, false);
    JsonLine j;
    j.begin_array();
    for (std::size_t i = 0; i < req.ids.size(); ++i) {
      try {
        j.value(m.tokenizer().decode(req.ids[i], req.skip_special_tokens));
      } catch (const std::out_of_range&) {
        throw RequestError(422, "ids", fmt::format("field \"ids\": an id is past the vocabulary of {} tokens",
                                                   m.tokenizer().vocab_size()));
      }
    }
    j.end_array();
    return json_response(line_text(j));
  }
  throw RequestError(404, "", fmt::format("no route {} {}", request.method, path));
}

}  // namespace bertkit::cli
