#include "commands/bench_corpus.h"

#include "commands/bench_tokenizer.h"
#include "commands/encoder_batches.h"
#include "core/bench/cpu_clock.h"
#include "core/error.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>

namespace bertkit::cmd {

namespace {

// Runs `pass` once untimed, then once timed; `pass` fills in batches and computed rows.
CorpusTiming timed(const CorpusText& corpus, int threads, const std::function<void(CorpusTiming&)>& pass) {
  CorpusTiming t;
  pass(t);
  t = {};
  t.sequences = corpus.encodings.size();
  for (const auto& e : corpus.encodings) t.tokens += static_cast<std::int64_t>(e.size());
  const double cpu_start = core::process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  pass(t);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.cpu_share = (core::process_cpu_seconds() - cpu_start) / (t.seconds * threads);
  return t;
}

}  // namespace

CorpusText tokenize_corpus(const tok::Tokenizer& tokenizer, const records::TokenizeOptions& options, const std::string& file) {
  CorpusText corpus;
  corpus.lines = read_text_lines(file);
  if (corpus.lines.empty()) bad_input("{}: no text in the corpus", file);
  std::vector<records::TextInput> inputs;
  for (const auto& line : corpus.lines) inputs.push_back({line, std::nullopt});
  corpus.encodings = records::tokenize_batch(tokenizer, options, inputs);
  return corpus;
}

CorpusTiming time_packed_feeding(core::Encoder& encoder, const CorpusText& corpus, std::size_t group_size,
                                 const core::BatchLimits& limits, int threads) {
  const std::span<const tok::Encoding> all(corpus.encodings);
  return timed(corpus, threads, [&](CorpusTiming& t) {
    for (std::size_t first = 0; first < all.size(); first += group_size) {
      run_encoder(encoder, all.subspan(first, std::min(group_size, all.size() - first)), limits,
                  [&](std::span<const std::size_t>, const core::EncoderOutput& output) {
                    ++t.batches;
                    t.computed += output.tokens();
                  });
    }
  });
}

CorpusTiming time_padded_feeding(core::Encoder& encoder, const CorpusText& corpus, std::size_t batch_size,
                                 std::int32_t pad_id, int threads) {
  // sentence-transformers sorts by len(text), in characters, longest first.
  std::vector<std::size_t> order(corpus.lines.size()), chars(corpus.lines.size());
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = 0; i < chars.size(); ++i) chars[i] = tok::count_code_points(corpus.lines[i]);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return chars[a] > chars[b]; });
  // Every batch padded to its longest sequence, built before timing (sentence-transformers pads in the
  // tokenizer, not in the model). Type ids of padding are 0, as the tokenizer pads them.
  std::vector<std::vector<std::int32_t>> ids, type_ids;
  std::vector<std::vector<core::TokenSequence>> batches;
  for (std::size_t first = 0; first < order.size(); first += batch_size) {
    const std::size_t last = std::min(first + batch_size, order.size());
    std::size_t longest = 0;
    for (std::size_t k = first; k < last; ++k) longest = std::max(longest, corpus.encodings[order[k]].size());
    for (std::size_t k = first; k < last; ++k) {
      const tok::Encoding& e = corpus.encodings[order[k]];
      ids.emplace_back(e.ids.begin(), e.ids.end()).resize(longest, pad_id);
      type_ids.emplace_back(e.type_ids.begin(), e.type_ids.end()).resize(longest, 0);
    }
  }
  for (std::size_t first = 0, k = 0; first < order.size(); first += batch_size) {
    auto& batch = batches.emplace_back();
    for (std::size_t j = first; j < std::min(first + batch_size, order.size()); ++j, ++k)
      batch.push_back({ids[k], type_ids[k]});
  }
  core::EncoderOutput output;
  return timed(corpus, threads, [&](CorpusTiming& t) {
    for (const auto& batch : batches) {
      encoder.forward(batch, output);
      ++t.batches;
      t.computed += output.tokens();
    }
  });
}

}  // namespace bertkit::cmd
