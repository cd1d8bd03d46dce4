#include "cli/serve_answers.h"

#include "core/error.h"
#include "records/json_members.h"

#include <algorithm>
#include <cstring>
#include <span>

namespace bertkit::cli {

using cmd::HttpResponse;
using records::JsonLine;

OutputLine::OutputLine(std::string text) : text_(std::move(text)) {
  if (!records::scan_json_members(text_, members_)) runtime_error("internal error: an output line is not an object");
}

std::optional<std::string_view> OutputLine::get(std::string_view name) const {
  for (const records::JsonMember& m : members_) {
    const std::string_view key(text_.data() + m.name_begin, m.name_end - m.name_begin);
    if (key.size() == name.size() + 2 && key.substr(1, name.size()) == name)
      return std::string_view(text_.data() + m.value_begin, m.value_end - m.value_begin);
  }
  return std::nullopt;
}

std::string_view OutputLine::value(std::string_view name) const {
  if (auto v = get(name)) return *v;
  runtime_error("internal error: an output line has no \"{}\"", name);
}

records::Record text_record(std::string text) {
  records::Record r;
  r.text = std::move(text);
  r.source = "input";
  return r;
}

void RequestRecords::add(const ServedModel& m, std::string text, std::optional<std::string> pair) {
  tokens += count_tokens(m, text, pair ? std::optional<std::string_view>(*pair) : std::nullopt);
  records::Record r = text_record(std::move(text));
  if (pair) r.text_pair = std::move(*pair), r.has_pair = true;
  records.push_back(std::move(r));
}

records::Record object_record(std::string text, nlohmann::ordered_json object) {
  records::Record r = text_record(std::move(text));
  r.object = std::move(object);
  r.raw = r.object.dump();
  records::scan_json_members(r.raw, r.members);
  return r;
}

namespace {

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

}  // namespace

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
                            const std::string& type) {
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

std::string answers(const std::vector<OutputLine>& lines, bool listed,
                    const std::function<void(records::JsonLine&, const OutputLine&)>& each) {
  JsonLine j;
  if (listed) j.begin_array();
  for (const OutputLine& line : lines) each(j, line);
  if (listed) j.end_array();
  return line_text(j);
}

void copy_members(records::JsonLine& j, const OutputLine& line, std::initializer_list<const char*> names) {
  j.begin_object();
  for (const char* name : names) {
    j.key(name);
    j.raw().append(line.value(name));
  }
  j.end_object();
}

std::int64_t count_tokens(const ServedModel& m, std::string_view a, std::optional<std::string_view> b) {
  const std::size_t n = m.tokenizer().count(a, b, tok::EncodeOptions{});
  return static_cast<std::int64_t>(std::min(n, m.max_length()));
}

}  // namespace bertkit::cli
