// The windows of a question and its context, on the pipeline's fast-tokenizer path (the tokenizer's
// own only_second truncation with overflowing windows) and on its slow path
// (squad_convert_examples_to_features: whitespace words, each tokenized alone).
#include "commands/qa.h"

#include "core/error.h"
#include "core/setting.h"
#include "tokenizer/utf8.h"

namespace bertkit::cmd {

namespace {

std::int32_t cls_id(const tok::Tokenizer& tokenizer) {
  auto id = tokenizer.token_id(tokenizer.spec().special.cls);
  if (!id) usage_error("the tokenizer has no {} token, which question answering needs", tokenizer.spec().special.cls);
  return *id;
}

// The context room of a window: what max_seq_len leaves beside the question and the special tokens.
std::size_t context_room(const tok::Tokenizer& tokenizer, std::size_t question_tokens, const QaSettings& s) {
  const std::size_t taken = question_tokens + tokenizer.added_tokens(true);
  if (taken >= s.max_seq_len)
    bad_input("the question has {} tokens: with the special tokens that leaves no room for the context in {} {}",
              question_tokens, Setting::MaxSeqLength, s.max_seq_len);
  return s.max_seq_len - taken;
}

void fast_windows(const tok::Tokenizer& tokenizer, QaExample& ex, const QaContext& context, const QaSettings& s) {
  tok::Encoding question;
  tokenizer.encode_sequence(ex.question, 0, question);
  const std::size_t room = context_room(tokenizer, question.size(), s);
  const std::size_t context_tokens = context.tokens.size();
  if (context_tokens == 0) bad_input("the context has no tokens");
  if (context_tokens > room && s.doc_stride >= room)
    bad_input("the question leaves room for {} context tokens per window: {} {} must be smaller", room,
              Setting::DocStride, s.doc_stride);
  tok::EncodeOptions options;
  options.truncation = tok::TruncationParams{s.max_seq_len, tok::TruncationStrategy::OnlySecond, s.doc_stride,
                                             tok::Side::Right};
  std::vector<tok::Encoding> encodings;
  encodings.push_back(tokenizer.encode_pair(question, context.tokens, options));
  for (tok::Encoding& o : encodings.front().overflowing) encodings.push_back(std::move(o));
  encodings.front().overflowing.clear();

  const std::int32_t cls = cls_id(tokenizer);
  for (std::size_t k = 0; k < encodings.size(); ++k) {
    tok::Encoding& e = encodings[k];
    // Hugging Face's Rust template sets the pair's type id on the first window only: the context tokens
    // of every later window keep type id 0 (its final [SEP] has 1). The pipeline feeds the model
    // exactly that, so bertkit does too.
    if (k > 0)
      for (std::size_t i = 0; i < e.size(); ++i)
        if (e.sequence[i] == 1) e.type_ids[i] = 0;
    QaWindow w;
    w.p_mask.resize(e.size());
    // Only context tokens can answer, and [CLS] (the null answer) stays unmasked.
    for (std::size_t i = 0; i < e.size(); ++i) w.p_mask[i] = e.sequence[i] != 1 && e.ids[i] != cls;
    w.encoding = std::move(e);
    ex.windows.push_back(std::move(w));
  }
}

// SquadExample's whitespace: only these five characters split the context into words.
bool squad_whitespace(char32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0x202F; }

// The slow path's words of the context, each tokenized on its own; the tokens remember their word.
void python_words(const tok::Tokenizer& tokenizer, QaContext& context) {
  bool in_word = false;
  std::size_t chars = 0;
  const std::string_view text = context.text;
  for (std::size_t at = 0; at < text.size(); ++chars) {
    std::size_t begin = at;
    char32_t c = tok::next_code_point(text, at);
    if (squad_whitespace(c)) {
      in_word = false;
      continue;
    }
    if (!in_word) context.words.push_back({begin, at, chars});
    else context.words.back().byte_end = at;
    in_word = true;
  }
  context.chars = chars;
  for (std::size_t w = 0; w < context.words.size(); ++w) {
    const QaWord& word = context.words[w];
    tok::Encoding pieces;
    tokenizer.encode_sequence(text.substr(word.byte_begin, word.byte_end - word.byte_begin), 1, pieces);
    for (std::int32_t id : pieces.ids) {
      context.word_tokens.push_back(id);
      context.token_word.push_back(static_cast<std::int32_t>(w));
    }
  }
}

void python_windows(const tok::Tokenizer& tokenizer, QaExample& ex, const QaContext& context, const QaSettings& s) {
  ex.words = context.words;
  ex.context_chars = context.chars;
  const std::vector<std::int32_t>& doc_ids = context.word_tokens;
  tok::Encoding question_tokens;
  tokenizer.encode_sequence(ex.question, 0, question_tokens);
  std::vector<std::int32_t> question = std::move(question_tokens.ids);
  if (question.size() > s.max_question_len) question.resize(s.max_question_len);
  const std::size_t room = context_room(tokenizer, question.size(), s);
  if (doc_ids.empty()) bad_input("the context has no tokens");

  const std::int32_t cls = cls_id(tokenizer);
  const std::int32_t sep = *tokenizer.token_id(tokenizer.spec().special.sep);
  // Window k holds the context tokens from k * doc_stride, as many as fit; windows go on while the
  // previous one overflowed.
  for (std::size_t start = 0; start < doc_ids.size(); start += s.doc_stride) {
    const std::size_t length = std::min(doc_ids.size() - start, room);
    QaWindow w;
    tok::Encoding& e = w.encoding;
    auto push = [&](std::int32_t id, std::int32_t type, std::uint8_t masked, std::int32_t word) {
      e.ids.push_back(id);
      e.type_ids.push_back(type);
      w.p_mask.push_back(masked);
      w.token_to_word.push_back(word);
    };
    push(cls, 0, 0, -1);
    for (std::int32_t id : question) push(id, 0, 1, -1);
    push(sep, 0, 1, -1);
    // The slow path masks every special token of the context, [UNK] included.
    for (std::size_t i = start; i < start + length; ++i)
      push(doc_ids[i], 1, tokenizer.is_special_id(doc_ids[i]) && doc_ids[i] != cls, context.token_word[i]);
    push(sep, 1, 1, -1);
    e.attention_mask.assign(e.ids.size(), 1);
    ex.windows.push_back(std::move(w));
    if (doc_ids.size() - start <= room) break;
  }
}

}  // namespace

QaContext make_qa_context(const tok::Tokenizer& tokenizer, std::string context, const QaSettings& settings) {
  if (context.empty()) bad_input("the context is empty");
  QaContext c;
  c.text = std::move(context);
  if (settings.python) python_words(tokenizer, c);
  else tokenizer.encode_sequence(c.text, 1, c.tokens);
  return c;
}

QaExample make_qa_example(const tok::Tokenizer& tokenizer, std::string question, const QaContext& context,
                          const QaSettings& settings) {
  if (question.empty()) bad_input("the question is empty");
  QaExample ex;
  ex.question = std::move(question);
  ex.context = context.text;
  if (settings.python) python_windows(tokenizer, ex, context, settings);
  else fast_windows(tokenizer, ex, context, settings);
  return ex;
}

QaExample make_qa_example(const tok::Tokenizer& tokenizer, std::string question, std::string context,
                          const QaSettings& settings) {
  if (question.empty()) bad_input("the question is empty");
  return make_qa_example(tokenizer, std::move(question), make_qa_context(tokenizer, std::move(context), settings),
                         settings);
}

}  // namespace bertkit::cmd
