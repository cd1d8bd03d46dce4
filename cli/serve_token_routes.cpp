// `bertkit serve`: TEI's /tokenize and /decode, the tokenizer alone (no batching).
#include "cli/serve_routes.h"

#include "core/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bertkit::cli {

using cmd::HttpResponse;
using cmd::RequestError;
using records::JsonLine;

HttpResponse ServeApp::tokenize(const Call& call) {
  cmd::TokenizeRequest req = cmd::parse_tokenize_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
  std::string prefix;
  if (req.prompt_name) {
    cmd::EmbedOptions e;
    e.prompt = req.prompt_name;
    prefix = naming_field("prompt_name", [&] { return m.model.plan(e).prefix; });
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

HttpResponse ServeApp::decode(const Call& call) {
  cmd::DecodeRequest req = cmd::parse_decode_request(call.request.body, config_.limits);
  ServedModel& m = model(call.model_query);
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

}  // namespace bertkit::cli
