#pragma once
// What `bertkit serve`'s routes share: the pipeline's output lines read as written (values are copied,
// never printed again), the records a request becomes, and the answers' JSON, errors included.
#include "cli/serve_lanes.h"
#include "commands/http_server.h"
#include "commands/serve_requests.h"
#include "core/error.h"
#include "records/json_line.h"
#include "records/record.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cli {

// One output line of the pipeline and where its members lie, so values are copied as written.
class OutputLine {
 public:
  explicit OutputLine(std::string text);
  // The member's JSON text as written, or nothing.
  std::optional<std::string_view> get(std::string_view name) const;
  // The same for a member the task always writes.
  std::string_view value(std::string_view name) const;

 private:
  std::string text_;
  std::vector<records::JsonMember> members_;
};

// A request's text as a record (as a line of a file would be).
records::Record text_record(std::string text);
// The records a request becomes, and the tokens they count for the batch's budget.
struct RequestRecords {
  std::vector<records::Record> records;
  std::int64_t tokens = 0;
  // A text, or a pair, as a line of a file would be.
  void add(const ServedModel& m, std::string text, std::optional<std::string> pair = std::nullopt);
};
// A record whose JSON object holds what a task reads besides its text (rerank's documents, zero-shot's
// labels), as a JSONL record would.
records::Record object_record(std::string text, nlohmann::ordered_json object);
// A JSON array of floats (as the CLI wrote it) as OpenAI's base64: little-endian float32.
std::string base64_floats(std::string_view array);

cmd::HttpResponse json_response(std::string body);
// TEI's {"error", "error_type"}, or on OpenAI's routes {"error": {"message", "type", "param", "code"}};
// `type`: TEI's error type where the status does not tell it.
cmd::HttpResponse error_response(int status, const std::string& field, const std::string& message, bool openai,
                                 const std::string& type = {});
// The JSON built, without its line end.
std::string line_text(records::JsonLine& j);
// Each line's answer written by `each`: as a list when the request gave a list, else the one answer.
std::string answers(const std::vector<OutputLine>& lines, bool listed,
                    const std::function<void(records::JsonLine&, const OutputLine&)>& each);
// An object of the line's members `names`, their values as written.
void copy_members(records::JsonLine& j, const OutputLine& line, std::initializer_list<const char*> names);
// Tokens the model reads of a text (or pair), up to its limit: a request's share of a batch's budget.
std::int64_t count_tokens(const ServedModel& m, std::string_view a, std::optional<std::string_view> b = std::nullopt);
// What `make()` returns; a Usage or BadInput Error from it (options that do not fit the model: an unknown
// prompt name, a dimension past the model's) becomes a 422 naming `field`.
template <typename Make>
decltype(auto) naming_field(const char* field, Make&& make) {
  try {
    return make();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Runtime) throw;
    throw cmd::RequestError(422, field, e.what());
  }
}

}  // namespace bertkit::cli
