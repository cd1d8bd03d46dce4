#include "commands/qa.h"

#include "commands/qa_spans.h"
#include "core/error.h"
#include "core/setting.h"
#include "tokenizer/utf8.h"

#include <algorithm>

namespace bertkit::cmd {

namespace {

const core::ModelConfig& with_qa_head(const core::ModelConfig& config) {
  return core::require_head(
      config, [](const core::ModelConfig& c) { return c.head == core::HeadKind::QuestionAnswering; }, "qa",
      "question-answering");
}

std::size_t chars_before(std::string_view text, std::size_t byte) { return tok::count_code_points(text.substr(0, byte)); }

// The fast path's character span of tokens s..e of a window (get_indices in the pipeline).
Answer fast_answer(const QaExample& ex, const tok::Encoding& e, const ScoredSpan& span, bool align_to_words) {
  std::size_t begin = e.offsets[span.start].begin, end = e.offsets[span.end].end;
  const std::int32_t first_word = e.words[span.start], last_word = e.words[span.end];
  // A word runs from its first to its last token in this window; tokens without a word keep their offsets.
  if (align_to_words && first_word >= 0 && last_word >= 0) {
    bool found_first = false;
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e.sequence[i] != 1) continue;
      if (e.words[i] == first_word && !found_first) {
        begin = e.offsets[i].begin;
        found_first = true;
      }
      if (e.words[i] == last_word) end = e.offsets[i].end;
    }
  }
  Answer a;
  a.answer = ex.context.substr(begin, end - begin);
  a.score = span.score;
  a.start = chars_before(ex.context, begin);
  a.end = a.start + tok::count_code_points(a.answer);
  return a;
}

// The slow path's answer: whole whitespace words joined by one space; `end` is the last character
// that maps to the last word (the whitespace after it included), as the pipeline reports it.
Answer python_answer(const QaExample& ex, const QaWindow& w, const ScoredSpan& span) {
  const auto first = static_cast<std::size_t>(w.token_to_word[span.start]);
  const auto last = static_cast<std::size_t>(w.token_to_word[span.end]);
  Answer a;
  for (std::size_t i = first; i <= last; ++i) {
    if (i > first) a.answer += ' ';
    const QaExample::Word& word = ex.words[i];
    a.answer += std::string_view(ex.context).substr(word.byte_begin, word.byte_end - word.byte_begin);
  }
  a.score = span.score;
  a.start = ex.words[first].char_begin;
  a.end = last + 1 < ex.words.size() ? ex.words[last + 1].char_begin - 1 : ex.context_chars - 1;
  return a;
}

}  // namespace

QaSettings resolve_qa_settings(QaSettings s, bool max_seq_len_given, bool doc_stride_given,
                               std::size_t model_max_length) {
  if (!max_seq_len_given) s.max_seq_len = std::min<std::size_t>(model_max_length, 384);
  if (!doc_stride_given) s.doc_stride = std::min<std::size_t>(s.max_seq_len / 2, 128);
  if (s.max_seq_len > model_max_length)
    usage_error("{} {} is more than the model takes ({} tokens)", Setting::MaxSeqLength, s.max_seq_len,
                model_max_length);
  if (s.doc_stride > s.max_seq_len)
    usage_error("{} {} is larger than {} {}", Setting::DocStride, s.doc_stride, Setting::MaxSeqLength, s.max_seq_len);
  if (s.python && s.doc_stride == 0) usage_error("{} must be at least 1 with {} python", Setting::DocStride, Setting::Compat);
  if (s.top_k == 0) usage_error("{} must be at least 1", Setting::TopK);
  if (s.max_answer_len == 0) usage_error("{} must be at least 1", Setting::MaxAnswerLength);
  return s;
}

std::vector<Answer> answers_from_logits(const QaExample& ex, std::span<const tok::Encoding* const> windows,
                                        std::span<const std::vector<float>> start_logits,
                                        std::span<const std::vector<float>> end_logits, const QaSettings& s) {
  std::vector<Answer> answers;
  float min_null_score = 1000000.0f;
  for (std::size_t k = 0; k < ex.windows.size(); ++k) {
    const QaWindow& w = ex.windows[k];
    WindowSpans spans = select_spans(start_logits[k], end_logits[k], w.p_mask, s.top_k, s.max_answer_len);
    min_null_score = std::min(min_null_score, spans.null_score);
    for (const ScoredSpan& span : spans.spans)
      answers.push_back(s.python ? python_answer(ex, w, span) : fast_answer(ex, *windows[k], span, s.align_to_words));
  }
  if (s.handle_impossible) answers.push_back({"", min_null_score, 0, 0});
  // Python's sorted() is stable: equal scores stay in window order, the null answer last.
  std::stable_sort(answers.begin(), answers.end(), [](const Answer& a, const Answer& b) { return a.score > b.score; });
  if (answers.size() > s.top_k) answers.resize(s.top_k);
  return answers;
}

std::vector<Answer> answers_from_logits(const QaExample& ex, std::span<const std::vector<float>> start_logits,
                                        std::span<const std::vector<float>> end_logits, const QaSettings& s) {
  std::vector<const tok::Encoding*> windows;
  for (const QaWindow& w : ex.windows) windows.push_back(&w.encoding);
  return answers_from_logits(ex, windows, start_logits, end_logits, s);
}

QuestionAnswerer::QuestionAnswerer(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights)
    : encoder_(with_qa_head(config), weights), head_(config, *weights) {}

void QuestionAnswerer::logits(std::size_t count, const std::function<const tok::Encoding&(std::size_t)>& window_of,
                              const core::BatchLimits& limits, std::vector<std::vector<float>>& starts,
                              std::vector<std::vector<float>>& ends) {
  starts.resize(count);
  ends.resize(count);
  core::SpanLogits logits;
  run_encoder(encoder_, count, window_of, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    head_.forward(out, logits);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      auto from = out.offsets[k], to = out.offsets[k + 1];
      starts[indices[k]].assign(logits.start.begin() + from, logits.start.begin() + to);
      ends[indices[k]].assign(logits.end.begin() + from, logits.end.begin() + to);
    }
  });
}

void QuestionAnswerer::logits(std::span<const tok::Encoding> windows, const core::BatchLimits& limits,
                              std::vector<std::vector<float>>& starts, std::vector<std::vector<float>>& ends) {
  logits(windows.size(), [&](std::size_t i) -> const tok::Encoding& { return windows[i]; }, limits, starts, ends);
}

std::vector<std::vector<Answer>> QuestionAnswerer::run(std::span<const QaExample> examples, const QaSettings& settings,
                                                       const core::BatchLimits& limits) {
  std::vector<const tok::Encoding*> windows;
  std::vector<std::size_t> first_window;
  for (const QaExample& ex : examples) {
    first_window.push_back(windows.size());
    for (const QaWindow& w : ex.windows) windows.push_back(&w.encoding);
  }
  std::vector<std::vector<float>> starts, ends;
  logits(windows.size(), [&](std::size_t i) -> const tok::Encoding& { return *windows[i]; }, limits, starts, ends);
  std::vector<std::vector<Answer>> results;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const std::size_t n = examples[i].windows.size();
    results.push_back(answers_from_logits(examples[i], std::span(windows).subspan(first_window[i], n),
                                          std::span(starts).subspan(first_window[i], n),
                                          std::span(ends).subspan(first_window[i], n), settings));
  }
  return results;
}

std::vector<std::string> QaTask::result_fields() const {
  std::vector<std::string> fields{"answer", "score", "start", "end"};
  if (settings_.top_k > 1) fields.emplace_back("answers");
  return fields;
}

const QaContext& QaTask::context_of(const std::string& text) {
  if (!last_context_ || last_context_->text != text) {
    last_context_.reset();
    last_context_ = make_qa_context(tokenizer_, text, settings_);
  }
  return *last_context_;
}

void QaTask::model_inputs(const records::Record& r, records::ModelInputs& inputs) {
  if (!context_ && !r.has_pair)
    bad_input("no context: give {} or {}, or records with a question and a context", Setting::Context,
              Setting::ContextFile);
  if (r.text.empty()) bad_input("the question is empty");
  QaExample ex = make_qa_example(tokenizer_, r.text, context_of(context_ ? *context_ : r.text_pair), settings_);
  // The windows are the record's model inputs; the example keeps what the answers are read with.
  for (QaWindow& w : ex.windows) inputs.encodings.push_back(std::move(w.encoding));
  pending_.insert_or_assign(inputs.ordinal, std::move(ex));
}

void QaTask::compute(const records::Batch& batch) {
  qa_.logits(batch.encodings, limits_, starts_, ends_);
  answers_.clear();
  std::vector<const tok::Encoding*> windows;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const QaExample& ex = pending_.at(batch.ordinals[i]);
    windows.clear();
    for (const tok::Encoding& e : batch.inputs(i)) windows.push_back(&e);
    const std::size_t first = batch.first_input[i], n = windows.size();
    answers_.push_back(answers_from_logits(ex, windows, std::span(starts_).subspan(first, n),
                                           std::span(ends_).subspan(first, n), settings_));
  }
  // The examples of this batch's records, and of the bad records read before them, are done.
  if (batch.size() > 0) pending_.erase(pending_.begin(), pending_.upper_bound(batch.ordinals.back()));
}

void QaTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const std::vector<Answer>& answers = answers_[i];
  const Answer best = answers.empty() ? Answer{} : answers.front();
  records::ResultWriter& results = out.results();
  results.begin(batch.records[i], batch.truncated[i])
      .field("answer", best.answer)
      .field("score", best.score)
      .field("start", best.start)
      .field("end", best.end);
  if (settings_.top_k > 1)
    results.nested("answers", [&](records::JsonLine& j) {
      j.begin_array();
      for (const Answer& a : answers)
        j.begin_object().field("answer", a.answer).field("score", a.score).field("start", a.start).field("end", a.end).end_object();
      j.end_array();
    });
  results.end();
}

}  // namespace bertkit::cmd
