#include "cli/app.h"

namespace bertkit::cli {

Action add_tokenize(CLI::App& sub, const GlobalOptions& global);
Action add_embed(CLI::App& sub, const GlobalOptions& global);
Action add_similarity(CLI::App& sub, const GlobalOptions& global);
Action add_convert(CLI::App& sub, const GlobalOptions& global);
Action add_info(CLI::App& sub, const GlobalOptions& global);
Action add_classify(CLI::App& sub, const GlobalOptions& global);
Action add_fill_mask(CLI::App& sub, const GlobalOptions& global);
Action add_qa(CLI::App& sub, const GlobalOptions& global);
Action add_ner(CLI::App& sub, const GlobalOptions& global);
Action add_rerank(CLI::App& sub, const GlobalOptions& global);
Action add_zero_shot(CLI::App& sub, const GlobalOptions& global);
Action add_bench(CLI::App& sub, const GlobalOptions& global);
Action add_download(CLI::App& sub, const GlobalOptions& global);
Action add_serve(CLI::App& sub, const GlobalOptions& global);

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"tokenize", "Split text into tokens and ids (WordPiece, byte-level BPE, Unigram), exactly as Hugging Face does", add_tokenize},
      {"embed", "Sentence embeddings (or per-token vectors) of texts, as sentence-transformers computes them", add_embed},
      {"similarity", "Similarity of text pairs, or the nearest corpus lines of queries (semantic search)", add_similarity},
      {"classify", "Labels and scores of texts or text pairs (sentiment, NLI, cross-encoder relevance)", add_classify},
      {"fill-mask", "The likeliest tokens for [MASK] in a text, or an interactive prompt", add_fill_mask},
      {"ner", "Named entities: the label of every token, or entities grouped from words (token classification)",
       add_ner, "token-classification"},
      {"rerank", "Each query's documents scored by a cross-encoder and sorted best first", add_rerank},
      {"zero-shot", "Texts ranked against labels nobody trained the model on, by an NLI model (zero-shot classification)",
       add_zero_shot, "zero-shot-classification"},
      {"qa", "Extractive question answering: the span of a context that answers a question", add_qa},
      {"convert", "Convert a checkpoint into one memory-mapped bertkit file (f32, f16, bf16 or int8)", add_convert},
      {"download", "Fetch a model from the Hugging Face Hub into the cache transformers uses (resumable, checked)",
       add_download},
      {"serve", "Serve models over HTTP: OpenAI embeddings, text-embeddings-inference, Cohere/Jina rerank APIs",
       add_serve},
      {"info", "Show what bertkit detects in a model and where each part came from", add_info},
      {"bench", "Time the encoder (sequences/s, GFLOP/s, share of the f32 peak), the tokenizer or real text", add_bench},
  };
  return table;
}

}  // namespace bertkit::cli
