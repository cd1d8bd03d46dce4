#include "tokenizer/decoder.h"

#include <string_view>

namespace bertkit::tok {

namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  std::size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
}

// transformers' clean_up_tokenization (the Rust library adds " do not" -> " don't").
void clean_up(std::string& s, bool rust) {
  replace_all(s, " .", ".");
  replace_all(s, " ?", "?");
  replace_all(s, " !", "!");
  replace_all(s, " ,", ",");
  replace_all(s, " ' ", "'");
  replace_all(s, " n't", "n't");
  replace_all(s, " 'm", "'m");
  if (rust) replace_all(s, " do not", " don't");
  replace_all(s, " 's", "'s");
  replace_all(s, " 've", "'ve");
  replace_all(s, " 're", "'re");
}

std::string trim_spaces(std::string s) {
  std::size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

}  // namespace

void clean_up_tokenization(std::string& s) { clean_up(s, false); }

std::string decode_wordpiece(const std::vector<std::string>& tokens, const DecoderOptions& options,
                             UnicodeProfile profile) {
  std::string out;
  if (profile == UnicodeProfile::Rust) {
    // Each token is decoded and cleaned on its own, as the Rust WordPiece decoder does.
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      std::string t = tokens[i];
      if (i != 0) {
        if (t.compare(0, options.prefix.size(), options.prefix) == 0) t.erase(0, options.prefix.size());
        else t.insert(t.begin(), ' ');
      }
      if (options.cleanup) clean_up(t, true);
      out += t;
    }
    // transformers' fast tokenizers clean the decoder's output once more, as a whole.
    if (options.clean_up_tokenization_spaces) clean_up(out, false);
    return out;
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i) out += ' ';
    out += tokens[i];
  }
  replace_all(out, " " + options.prefix, "");
  out = trim_spaces(out);
  if (options.clean_up_tokenization_spaces) clean_up(out, false);
  return out;
}

}  // namespace bertkit::tok
