#include "tokenizer/tokenizer_json.h"

#include "core/error.h"
#include "core/json.h"

#include <cmath>
#include <limits>

namespace bertkit::tok {

namespace {

using nlohmann::json;

// nlohmann's SAX interface: builds the DOM as its own parser does (a repeated key keeps the last
// value), except for the object at model.vocab, whose entries go to `vocab`. The parser is iterative,
// so the nesting limit is checked here, not by a scan before parsing.
class Reader {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit Reader(TokenizerJson& out) : out_(out) {}
  const std::string& error() const { return error_; }

  bool null() { return value(nullptr); }
  bool boolean(bool b) { return value(b); }
  bool number_integer(number_integer_t n) {
    if (scored_ == Scored::Entry) return score(static_cast<double>(n));
    return in_vocab_ ? vocab_id(n) : value(n);
  }
  bool number_unsigned(number_unsigned_t n) {
    if (scored_ == Scored::Entry) return score(static_cast<double>(n));
    if (in_vocab_) return vocab_id(static_cast<std::int64_t>(std::min<number_unsigned_t>(n, std::numeric_limits<std::int64_t>::max())));
    return value(n);
  }
  bool number_float(number_float_t x, const string_t& text) {
    if (!std::isfinite(x)) return fail("invalid JSON: number overflow parsing '" + text + "'");
    if (scored_ == Scored::Entry) return score(x);
    return value(x);
  }
  bool string(string_t& s) {
    if (scored_ == Scored::Entry && !has_piece_) {
      piece_ = std::move(s);
      has_piece_ = true;
      return true;
    }
    return value(std::move(s));
  }
  bool binary(binary_t&) { return fail("invalid JSON: binary value"); }

  bool start_object(std::size_t) {
    if (!deeper()) return false;
    if (vocab_next_) {
      vocab_next_ = false;
      in_vocab_ = true;
      out_.vocab.emplace();
      out_.scored_vocab.reset();  // model.vocab again: the last one counts
      return true;
    }
    if (in_vocab_) return vocab_id_missing();
    if (scored_ != Scored::None) return bad_entry();
    json* node = place(json::object());
    if (!node) return false;
    stack_.push_back(node);
    return true;
  }
  bool key(string_t& k) {
    if (in_vocab_) {
      key_ = std::move(k);
      return true;
    }
    // model.vocab: the key "vocab" directly inside the object at the root's key "model".
    vocab_next_ = k == "vocab" && stack_.size() == 2 && model_ == stack_.back();
    if (stack_.size() == 1 && k == "model") model_key_ = true;
    slot_ = &(*stack_.back())[std::move(k)];
    return true;
  }
  bool end_object() {
    --depth_;
    if (in_vocab_) {
      in_vocab_ = false;
      stack_.back()->erase("vocab");  // the key was added as null before the object began
      return true;
    }
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    if (!deeper()) return false;
    if (in_vocab_) return vocab_id_missing();
    if (vocab_next_) {
      vocab_next_ = false;
      scored_ = Scored::List;
      out_.scored_vocab.emplace();
      out_.vocab.reset();
      return true;
    }
    if (scored_ == Scored::List) {
      scored_ = Scored::Entry;
      has_piece_ = has_score_ = false;
      return true;
    }
    if (scored_ == Scored::Entry) return bad_entry();
    json* node = place(json::array());
    if (!node) return false;
    stack_.push_back(node);
    return true;
  }
  bool end_array() {
    --depth_;
    if (scored_ == Scored::Entry) {
      if (!has_piece_ || !has_score_) return bad_entry();
      out_.scored_vocab->emplace_back(std::move(piece_), score_);
      scored_ = Scored::List;
      return true;
    }
    if (scored_ == Scored::List) {
      scored_ = Scored::None;
      stack_.back()->erase("vocab");  // the key was added as null before the list began
      return true;
    }
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception& e) {
    return fail(core::invalid_json_message(e));
  }

 private:
  bool deeper() {
    if (++depth_ <= core::kMaxJsonDepth) return true;
    return fail("invalid JSON: nested deeper than " + std::to_string(core::kMaxJsonDepth) + " levels");
  }
  // Puts a value where the parser is: the root, the next element of an array, or the pending key.
  json* place(json v) {
    if (vocab_next_) {  // model.vocab again, neither object nor list this time: the last one counts
      out_.vocab.reset();
      out_.scored_vocab.reset();
    }
    vocab_next_ = false;
    if (stack_.empty()) {
      out_.rest = std::move(v);
      return &out_.rest;
    }
    json* node;
    if (stack_.back()->is_array()) {
      node = &stack_.back()->emplace_back(std::move(v));
    } else {
      *slot_ = std::move(v);
      node = slot_;
    }
    if (model_key_ && stack_.size() == 1) {
      model_ = node->is_object() ? node : nullptr;
      model_key_ = false;
    }
    return node;
  }
  bool value(json v) {
    if (in_vocab_) return vocab_id_missing();
    if (scored_ != Scored::None) return bad_entry();
    return place(std::move(v)) != nullptr;
  }
  bool vocab_id(std::int64_t id) {
    out_.vocab->emplace_back(std::move(key_), id);
    return true;
  }
  bool vocab_id_missing() { return fail("vocab entry '" + key_ + "' has no integer id"); }
  bool score(double x) {
    if (!has_piece_ || has_score_) return bad_entry();
    score_ = x;
    has_score_ = true;
    return true;
  }
  bool bad_entry() { return fail("Unigram vocab entry " + std::to_string(out_.scored_vocab->size()) + " is not [piece, score]"); }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  TokenizerJson& out_;
  std::vector<json*> stack_;  // the open objects and arrays, root first
  json* slot_ = nullptr;      // where the value of the last key goes
  const json* model_ = nullptr;
  bool model_key_ = false;   // the root's key "model" was just read
  bool vocab_next_ = false;  // the next value is model.vocab
  bool in_vocab_ = false;
  std::string key_;  // the vocabulary entry being read
  // model.vocab as a list: inside it (List), or inside one of its [piece, score] entries (Entry).
  enum class Scored { None, List, Entry } scored_ = Scored::None;
  std::string piece_;
  double score_ = 0;
  bool has_piece_ = false, has_score_ = false;
  std::size_t depth_ = 0;
  std::string error_;
};

}  // namespace

TokenizerJson parse_tokenizer_json(std::string_view text, std::string_view where) {
  TokenizerJson out;
  Reader reader(out);
  if (!json::sax_parse(text, &reader)) bad_input("{}: {}", where, reader.error().empty() ? "invalid JSON" : reader.error());
  return out;
}

}  // namespace bertkit::tok
