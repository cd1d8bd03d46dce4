#pragma once
// An encoding's tokens as strings (the tokenizer's pieces for its ids): what the goldens' "tokens" hold.
#include "tokenizer/tokenizer.h"

#include <string>
#include <vector>

namespace bktest {

inline std::vector<std::string> token_strings(const bertkit::tok::Encoding& e, const bertkit::tok::Tokenizer& tok) {
  std::vector<std::string> out;
  for (auto id : e.ids) out.emplace_back(tok.token(id));
  return out;
}

}  // namespace bktest
