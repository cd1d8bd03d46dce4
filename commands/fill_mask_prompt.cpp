#include "commands/fill_mask_prompt.h"

#include "commands/fill_mask_output.h"
#include "commands/prompt_io.h"
#include "core/error.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <charconv>
#include <string>

namespace bertkit::cmd {

namespace {

std::string help(const FillMaskPrompt& p) {
  return fmt::format(
      "Type a sentence with {} (several are fine); :k N shows N predictions (now {}); Ctrl-C drops the line; "
      "Ctrl-D or :q leaves.\n",
      p.tokenizer.spec().special.mask, p.options.top_k);
}

// A `:` command; false when it asks to leave.
bool command(FillMaskPrompt& p, std::string_view line) {
  std::string_view rest = trim_line(line.substr(1));
  if (rest == "q" || rest == "quit") return false;
  if (rest.starts_with("k")) {
    std::string_view number = trim_line(rest.substr(1));
    std::size_t k = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), k);
    if (ec == std::errc() && end == number.data() + number.size() && k > 0 && k <= 1000) {
      p.options.top_k = k;
      say(fmt::format("top-k is now {}\n", k));
    } else {
      say(fmt::format("error: :k takes a number from 1 to 1000, not '{}'\n", number));
    }
    return true;
  }
  say(help(p));
  return true;
}

void predict(FillMaskPrompt& p, std::string_view text) {
  try {
    std::string valid;
    tok::repair_utf8(text, valid);
    std::vector<tok::Encoding> encodings{p.tokenizer.encode(valid, std::nullopt, p.tokenize.encode)};
    say(prediction_table(p.masker.run(encodings, p.options, p.limits)[0]));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::BadInput) throw;
    say(fmt::format("error: {}\n", e.what()));
  }
}

}  // namespace

int run_fill_mask_prompt(FillMaskPrompt p) {
  say(help(p));
  return run_prompt("fill-mask> ", [&](std::string_view text) {
    if (text.front() == ':') return command(p, text);
    predict(p, text);
    return true;
  });
}

}  // namespace bertkit::cmd
