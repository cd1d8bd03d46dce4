#pragma once
// The lanes `bertkit serve` computes requests in (commands/serve_batcher.h): each is a command's task
// with fixed options, run over a batch of records by the record pipeline, so a request's output lines
// are those `bertkit embed`, `rerank`, `classify`, `ner`, `zero-shot` or `qa` would write for it.
// A model makes its lanes when a request first asks for their options, and keeps them.
#include "cli/embedding_model.h"
#include "commands/embed.h"
#include "commands/serve_batcher.h"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace bertkit::cli {

struct EmbedLaneOptions {
  cmd::EmbedOptions embed;
  enum class Output { Sentence, Tokens } output = Output::Sentence;  // Tokens: the last hidden state per token
  bool truncate_left = false;
};

struct ServedModel {
  std::string name;  // what requests call it: --served-name, else the -m given
  std::string source;  // the -m given
  TaskFlags flags;
  EmbeddingModel model;

  const tok::Tokenizer& tokenizer() const { return model.tokenizer(); }
  std::size_t max_length() const;
  // Whether the model has a sequence-classification head, and whether it is a reranker (one label).
  bool classifies() const;
  bool cross_encoder() const;
  bool tags_tokens() const;  // a token-classification head (ner)
  bool answers() const;      // a question-answering head (qa)

  // The lanes, made on first use (a Usage or BadInput Error when the options do not fit the model).
  cmd::BatchLane& embed_lane(const EmbedLaneOptions& options);
  cmd::BatchLane& rerank_lane(bool raw_scores, bool truncate_left);
  cmd::BatchLane& similarity_lane(const std::optional<std::string>& prompt_name, bool truncate_left);
  cmd::BatchLane& classify_lane(bool raw_scores, bool truncate_left);
  cmd::BatchLane& ner_lane(const std::string& aggregation);
  cmd::BatchLane& qa_lane(std::size_t top_k);
  cmd::BatchLane& zero_shot_lane(const std::optional<std::string>& hypothesis_template, bool multi_label);

 private:
  records::PipelineOptions options(bool truncate_left) const;
  cmd::BatchLane& lane(const std::string& key, const std::function<std::unique_ptr<cmd::BatchLane>()>& make);

  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<cmd::BatchLane>> lanes_;
};

}  // namespace bertkit::cli
