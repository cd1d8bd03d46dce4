#pragma once
// `bertkit qa`: extractive question answering, as transformers' question-answering pipeline answers.
// By default its fast-tokenizer path: the context is cut into windows of max_seq_len tokens that
// overlap by doc_stride tokens, and answers are character spans of the original context, aligned to
// the tokenizer's words. With `python` its slow-tokenizer path: windows start doc_stride tokens apart,
// and answers are whole whitespace-separated words.
#include "commands/encoder_batches.h"
#include "core/model/encoder.h"
#include "core/model/qa_head.h"
#include "records/record_pipeline.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

struct QaSettings {
  std::size_t top_k = 1;
  std::size_t max_seq_len = 384;
  std::size_t doc_stride = 128;
  std::size_t max_question_len = 64;  // the slow path only: the fast path never truncates the question
  std::size_t max_answer_len = 15;
  bool handle_impossible = false;
  bool align_to_words = true;
  bool python = false;  // the slow-tokenizer path
};

// The pipeline's defaults where no value was given: max_seq_len = min(model_max_length, 384),
// doc_stride = min(max_seq_len / 2, 128). Usage errors for values it cannot work with.
QaSettings resolve_qa_settings(QaSettings given, bool max_seq_len_given, bool doc_stride_given,
                               std::size_t model_max_length);

struct Answer {
  std::string answer;
  float score = 0;
  std::size_t start = 0, end = 0;  // code points into the context; end exclusive (slow path: see README)
};

// One window the model reads.
struct QaWindow {
  tok::Encoding encoding;            // [CLS] question [SEP] context part [SEP]
  std::vector<std::uint8_t> p_mask;  // 1 = cannot be in an answer
  // Slow path: the whitespace word of the context each token comes from (-1 outside the context).
  std::vector<std::int32_t> token_to_word;
};

// A whitespace-separated word of a context (the slow path): its bytes, and where it starts in code points.
struct QaWord {
  std::size_t byte_begin = 0, byte_end = 0;
  std::size_t char_begin = 0;
};

// What a context's windows are cut from, whatever the question: computed once for every question
// about the same context.
struct QaContext {
  std::string text;
  tok::Encoding tokens;  // the fast path: the context's tokens as the pair's second text
  // The slow path: the context's whitespace words, its length in code points, and every word's tokens
  // (each word tokenized alone) with the word each token comes from.
  std::vector<QaWord> words;
  std::size_t chars = 0;
  std::vector<std::int32_t> word_tokens, token_word;
};

// A BadInput error for an empty context.
QaContext make_qa_context(const tok::Tokenizer& tokenizer, std::string context, const QaSettings& settings);

// A question and its context, cut into windows.
struct QaExample {
  using Word = QaWord;
  std::string question, context;
  std::vector<QaWindow> windows;
  // Slow path: the context's whitespace-separated words, and the context's length in code points.
  std::vector<Word> words;
  std::size_t context_chars = 0;
};

// Builds the windows; a BadInput error when the question leaves no room for the context.
QaExample make_qa_example(const tok::Tokenizer& tokenizer, std::string question, const QaContext& context,
                          const QaSettings& settings);
QaExample make_qa_example(const tok::Tokenizer& tokenizer, std::string question, std::string context,
                          const QaSettings& settings);

// The answers of one example from each window's start and end logits, best first (at most top_k).
// `windows`: the encodings of the example's windows (its own, unless they were moved elsewhere).
std::vector<Answer> answers_from_logits(const QaExample& example, std::span<const tok::Encoding* const> windows,
                                        std::span<const std::vector<float>> start_logits,
                                        std::span<const std::vector<float>> end_logits, const QaSettings& settings);
std::vector<Answer> answers_from_logits(const QaExample& example, std::span<const std::vector<float>> start_logits,
                                        std::span<const std::vector<float>> end_logits, const QaSettings& settings);

class QuestionAnswerer {
 public:
  // Refuses (usage error) a model without a question-answering head.
  QuestionAnswerer(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights);

  // Answers for every example, in input order; all their windows run through the model together.
  std::vector<std::vector<Answer>> run(std::span<const QaExample> examples, const QaSettings& settings,
                                       const core::BatchLimits& limits);
  // The start and end logits of every window, in order.
  void logits(std::span<const tok::Encoding> windows, const core::BatchLimits& limits,
              std::vector<std::vector<float>>& starts, std::vector<std::vector<float>>& ends);

 private:
  void logits(std::size_t count, const std::function<const tok::Encoding&(std::size_t)>& window_of,
              const core::BatchLimits& limits, std::vector<std::vector<float>>& starts,
              std::vector<std::vector<float>>& ends);

  core::Encoder encoder_;
  core::QaHead head_;
};

// What a record's context is named in JSONL fields and CSV/TSV columns (qa's defaults) and in the echo.
inline constexpr std::string_view kContextField = "context";

// Each record's best `answer` with its `score`, `start` and `end`, and with top_k > 1 the `answers`.
// A record is a question and its context, or (`context`) a question about that context. Each window
// of a record's context is one model input (fan-out); the context's tokens are computed once for all
// the questions in a row that share it.
class QaTask : public records::RecordTask {
 public:
  QaTask(QuestionAnswerer& qa, const tok::Tokenizer& tokenizer, const QaSettings& settings,
         std::optional<std::string> context, const core::BatchLimits& limits)
      : qa_(qa), tokenizer_(tokenizer), settings_(settings), context_(std::move(context)), limits_(limits) {}

  std::vector<std::string> result_fields() const override;
  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  const QaContext& context_of(const std::string& text);

  QuestionAnswerer& qa_;
  const tok::Tokenizer& tokenizer_;
  const QaSettings& settings_;
  std::optional<std::string> context_;
  core::BatchLimits limits_;
  std::optional<QaContext> last_context_;
  std::map<std::uint64_t, QaExample> pending_;  // by record ordinal: examples whose windows await compute()
  std::vector<std::vector<float>> starts_, ends_;
  std::vector<std::vector<Answer>> answers_;
};

}  // namespace bertkit::cmd
