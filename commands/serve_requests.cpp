#include "commands/serve_requests.h"

#include "core/json.h"
#include "core/setting.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <limits>

namespace bertkit::cmd {

namespace {

using nlohmann::json;

[[noreturn]] void wrong(const std::string& field, const std::string& message) {
  throw RequestError(422, field, fmt::format("field \"{}\": {}", field, message));
}

json parse_body(std::string_view body) {
  if (core::json_nesting_depth(body) > core::kMaxJsonDepth)
    throw RequestError(400, "", fmt::format("the body nests deeper than {} levels", core::kMaxJsonDepth));
  json j;
  try {
    j = json::parse(body);
  } catch (const json::exception& e) {
    throw RequestError(400, "", "the body is not valid JSON: " + core::invalid_json_message(e, true));
  }
  if (!j.is_object()) throw RequestError(422, "", fmt::format("the body must be a JSON object, not {}", j.type_name()));
  return j;
}

// The member, or null when it is absent or null (optional members may be sent as null).
const json* member(const json& body, const char* name) {
  const auto it = body.find(name);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

const json& required(const json& body, const char* name) {
  const json* v = member(body, name);
  if (!v) throw RequestError(422, name, fmt::format("field \"{}\" is missing", name));
  return *v;
}

bool flag(const json& body, const char* name, bool otherwise) {
  const json* v = member(body, name);
  if (!v) return otherwise;
  if (!v->is_boolean()) wrong(name, fmt::format("expected true or false, got {}", v->type_name()));
  return v->get<bool>();
}

std::optional<std::string> text(const json& body, const char* name) {
  const json* v = member(body, name);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrong(name, fmt::format("expected a string, got {}", v->type_name()));
  return v->get<std::string>();
}

std::string required_text(const json& body, const char* name) {
  const json& v = required(body, name);
  if (!v.is_string()) wrong(name, fmt::format("expected a string, got {}", v.type_name()));
  return v.get<std::string>();
}

std::optional<std::int64_t> whole(const json& body, const char* name, std::int64_t least) {
  const json* v = member(body, name);
  if (!v) return std::nullopt;
  if (!v->is_number_integer()) wrong(name, fmt::format("expected a whole number, got {}", v->type_name()));
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t{1} << 31) wrong(name, "too large");
  const std::int64_t n = v->get<std::int64_t>();
  if (n < least || n > std::int64_t{1} << 31) wrong(name, fmt::format("expected at least {}, got {}", least, n));
  return n;
}

void check_count(std::size_t n, const std::string& field, const RequestLimits& limits) {
  if (n == 0) throw RequestError(400, field, fmt::format("field \"{}\" is an empty list", field), "Empty");
  if (n > limits.max_inputs)
    throw RequestError(413, field, fmt::format("field \"{}\" holds {} items; this server takes at most {} a request "
                                               "({})", field, n, limits.max_inputs, Setting::MaxClientBatchSize));
}

// A string or a list of strings.
std::vector<std::string> texts(const json& body, const char* name, const RequestLimits& limits, bool& listed) {
  const json& v = required(body, name);
  if (v.is_string()) {
    listed = false;
    return {v.get<std::string>()};
  }
  if (!v.is_array()) wrong(name, fmt::format("expected a string or a list of strings, got {}", v.type_name()));
  listed = true;
  check_count(v.size(), name, limits);
  std::vector<std::string> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      wrong(fmt::format("{}[{}]", name, i), v[i].is_number_integer()
                                                ? "token ids are not taken: send the text"
                                                : fmt::format("expected a string, got {}", v[i].type_name()));
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

// "left" or "right" (any case).
bool left_truncation(const json& body) {
  std::optional<std::string> d = text(body, "truncation_direction");
  if (!d) return false;
  std::string lower = *d;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower != "left" && lower != "right") wrong("truncation_direction", fmt::format("expected Left or Right, got \"{}\"", *d));
  return lower == "left";
}

}  // namespace

EmbedRequest parse_embed_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  EmbedRequest r;
  r.inputs = texts(j, "inputs", limits, r.listed);
  if (member(j, "normalize")) r.normalize = flag(j, "normalize", true);
  r.truncate = flag(j, "truncate", false);
  r.truncate_left = left_truncation(j);
  r.prompt_name = text(j, "prompt_name");
  r.dimensions = whole(j, "dimensions", 1);
  return r;
}

EmbedRequest parse_openai_embeddings_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  EmbedRequest r;
  r.inputs = texts(j, "input", limits, r.listed);
  r.model = text(j, "model").value_or("");
  r.dimensions = whole(j, "dimensions", 1);
  const std::string format = text(j, "encoding_format").value_or("float");
  if (format != "float" && format != "base64")
    wrong("encoding_format", fmt::format("expected \"float\" or \"base64\", got \"{}\"", format));
  r.base64 = format == "base64";
  return r;
}

RerankRequest parse_rerank_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  RerankRequest r;
  r.query = required_text(j, "query");
  bool listed = false;
  r.texts = texts(j, "texts", limits, listed);
  if (!listed) wrong("texts", "expected a list of strings");
  r.raw_scores = flag(j, "raw_scores", false);
  r.return_text = flag(j, "return_text", false);
  r.truncate = flag(j, "truncate", false);
  r.truncate_left = left_truncation(j);
  return r;
}

RerankRequest parse_cohere_rerank_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  RerankRequest r;
  r.query = required_text(j, "query");
  const json& documents = required(j, "documents");
  if (!documents.is_array()) wrong("documents", fmt::format("expected a list, got {}", documents.type_name()));
  check_count(documents.size(), "documents", limits);
  for (std::size_t i = 0; i < documents.size(); ++i) {
    const json& d = documents[i];
    // Cohere's documents are strings; Jina's and Cohere's older API also take {"text": ...}.
    if (d.is_string()) r.texts.push_back(d.get<std::string>());
    else if (d.is_object() && d.contains("text") && d["text"].is_string()) r.texts.push_back(d["text"].get<std::string>());
    else wrong(fmt::format("documents[{}]", i), "expected a string or an object with a string \"text\"");
  }
  if (std::optional<std::int64_t> n = whole(j, "top_n", 1)) r.top_n = static_cast<std::size_t>(*n);
  r.return_text = flag(j, "return_documents", false);
  r.model = text(j, "model").value_or("");
  r.truncate = true;  // Cohere truncates long documents (max_chunks_per_doc aside)
  return r;
}

SimilarityRequest parse_similarity_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  SimilarityRequest r;
  const json& inputs = required(j, "inputs");
  if (!inputs.is_object()) wrong("inputs", fmt::format("expected {{\"source_sentence\", \"sentences\"}}, got {}", inputs.type_name()));
  r.source = required_text(inputs, "source_sentence");
  bool listed = false;
  r.sentences = texts(inputs, "sentences", limits, listed);
  const json* parameters = member(j, "parameters");
  if (parameters && !parameters->is_object()) wrong("parameters", fmt::format("expected an object, got {}", parameters->type_name()));
  if (parameters) {
    r.prompt_name = text(*parameters, "prompt_name");
    r.truncate = flag(*parameters, "truncate", false);
    r.truncate_left = left_truncation(*parameters);
  }
  return r;
}

PredictRequest parse_predict_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  PredictRequest r;
  const json& v = required(j, "inputs");
  // A text, a pair [a, b], a list of texts, or a list of pairs (TEI's PredictInput).
  auto one = [&](const json& x, const std::string& field) -> std::pair<std::string, std::optional<std::string>> {
    if (x.is_string()) return {x.get<std::string>(), std::nullopt};
    if (x.is_array() && (x.size() == 1 || x.size() == 2) && std::all_of(x.begin(), x.end(), [](const json& s) { return s.is_string(); }))
      return {x[0].get<std::string>(), x.size() == 2 ? std::optional(x[1].get<std::string>()) : std::nullopt};
    wrong(field, "expected a text or a pair of texts [a, b]");
  };
  if (v.is_string()) {
    r.inputs.push_back(one(v, "inputs"));
  } else if (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const json& s) { return s.is_string(); }) &&
             v.size() <= 2) {
    // ["a", "b"] is one pair, as TEI reads it.
    r.inputs.push_back(one(v, "inputs"));
  } else if (v.is_array()) {
    r.listed = true;
    check_count(v.size(), "inputs", limits);
    for (std::size_t i = 0; i < v.size(); ++i) r.inputs.push_back(one(v[i], fmt::format("inputs[{}]", i)));
  } else {
    wrong("inputs", fmt::format("expected a text, a pair or a list of them, got {}", v.type_name()));
  }
  r.raw_scores = flag(j, "raw_scores", false);
  r.truncate = flag(j, "truncate", false);
  r.truncate_left = left_truncation(j);
  return r;
}

TokenizeRequest parse_tokenize_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  TokenizeRequest r;
  r.inputs = texts(j, "inputs", limits, r.listed);
  r.add_special_tokens = flag(j, "add_special_tokens", true);
  r.prompt_name = text(j, "prompt_name");
  return r;
}

DecodeRequest parse_decode_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  DecodeRequest r;
  const json& v = required(j, "ids");
  if (!v.is_array()) wrong("ids", fmt::format("expected a list of token ids or a list of lists, got {}", v.type_name()));
  r.listed = !v.empty() && v[0].is_array();
  auto ids = [&](const json& list, const std::string& field) {
    if (!list.is_array()) wrong(field, fmt::format("expected a list of token ids, got {}", list.type_name()));
    std::vector<std::int32_t> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& x = list[i];
      if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())
        wrong(fmt::format("{}[{}]", field, i), "expected a token id (a whole number from 0)");
      out.push_back(static_cast<std::int32_t>(x.get<std::int64_t>()));
    }
    return out;
  };
  if (r.listed) {
    check_count(v.size(), "ids", limits);
    for (std::size_t i = 0; i < v.size(); ++i) r.ids.push_back(ids(v[i], fmt::format("ids[{}]", i)));
  } else {
    r.ids.push_back(ids(v, "ids"));
  }
  r.skip_special_tokens = flag(j, "skip_special_tokens", true);
  return r;
}

NerRequest parse_ner_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  NerRequest r;
  r.inputs = texts(j, "inputs", limits, r.listed);
  r.aggregation = text(j, "aggregation_strategy").value_or("simple");
  static const std::vector<std::string> known = {"none", "simple", "first", "average", "max"};
  if (std::find(known.begin(), known.end(), r.aggregation) == known.end())
    wrong("aggregation_strategy", fmt::format("expected none, simple, first, average or max, got \"{}\"", r.aggregation));
  r.truncate = flag(j, "truncate", false);
  return r;
}

ZeroShotRequest parse_zero_shot_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  ZeroShotRequest r;
  r.inputs = texts(j, "inputs", limits, r.listed);
  bool listed = false;
  r.labels = texts(j, "labels", limits, listed);
  r.hypothesis_template = text(j, "hypothesis_template");
  r.multi_label = flag(j, "multi_label", false);
  return r;
}

QaRequest parse_qa_request(std::string_view body, const RequestLimits& limits) {
  const json j = parse_body(body);
  QaRequest r;
  auto one = [&](const json& x, const std::string& field) -> std::pair<std::string, std::string> {
    if (!x.is_object()) wrong(field, fmt::format("expected an object with \"question\" and \"context\", got {}", x.type_name()));
    const json* q = member(x, "question");
    const json* c = member(x, "context");
    if (!q || !q->is_string()) wrong(field + ".question", "expected a string");
    if (!c || !c->is_string()) wrong(field + ".context", "expected a string");
    return {q->get<std::string>(), c->get<std::string>()};
  };
  const json& v = required(j, "inputs");
  if (v.is_array()) {
    r.listed = true;
    check_count(v.size(), "inputs", limits);
    for (std::size_t i = 0; i < v.size(); ++i) r.inputs.push_back(one(v[i], fmt::format("inputs[{}]", i)));
  } else {
    r.inputs.push_back(one(v, "inputs"));
  }
  if (std::optional<std::int64_t> k = whole(j, "top_k", 1)) r.top_k = static_cast<std::size_t>(std::min<std::int64_t>(*k, 64));
  return r;
}

}  // namespace bertkit::cmd
