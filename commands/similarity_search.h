#pragma once
// `bertkit similarity --corpus`: the nearest corpus texts of each query. The queries are few and held
// in memory (encoded, and embedded by a bi-encoder); the corpus runs through the record pipeline, each
// batch embedded (or paired with every query) once and offered to every query's TopK. Each query's
// `results` are written when the corpus is done.
#include "commands/similarity.h"
#include "records/record_pipeline.h"

#include <string>

namespace bertkit::cmd {

struct SearchOptions {
  records::InputSpec queries;  // --query texts or the --queries file
  records::InputSpec corpus;
  std::size_t top_k = 10;
};

// Runs the search with `options` (its input and output are replaced by the queries, the corpus and the
// results). Returns the exit status.
int search(const SearchOptions& search, Scorer& scorer, const tok::Tokenizer& tokenizer,
           records::PipelineOptions options);

}  // namespace bertkit::cmd
