// `bertkit tokenize`: flags to options; the records go through the record pipeline (commands/tokenize.h).
#include "cli/app.h"
#include "cli/input_flags.h"
#include "cli/empty_values.h"
#include "cli/number_flags.h"
#include "cli/output_format.h"
#include "cli/task_flags.h"
#include "cli/tokenizer_flags.h"
#include "commands/tokenize.h"
#include "core/error.h"

#include <filesystem>
#include <memory>
#include <vector>

namespace bertkit::cli {

namespace {

struct TokenizeOptions {
  InputFlags input;
  std::string output = "-";
  bool resume = false;
  TokenizerFlags tokenizer;
  std::string format;  // --format; empty: from -o's extension, else jsonl
  std::string output_prefix;
  std::string offsets = "chars";
  bool count = false;
  bool decode = false;
  bool skip_special_tokens = false;
  std::size_t batch_size = 1024;
  const CLI::Option* stride_flag = nullptr;
};

int run_tokenize(const TokenizeOptions& o) {
  cmd::TokenizeOutput output;
  output.format = parse_tokenize_format(resolve_output_format(o.output, o.format, {"jsonl", "tokens", "ids", "tsv"}));
  if (o.offsets != "chars" && o.offsets != "bytes") usage_error("--offsets must be chars or bytes, not '{}'", o.offsets);
  output.char_offsets = o.offsets == "chars";
  output.count = o.count;
  output.field_prefix = o.output_prefix;
  output.decode = o.decode;
  output.skip_special_tokens = o.skip_special_tokens;
  output.windows = o.stride_flag->count() > 0;
  output.pairs = o.input.pairs || !o.input.pair_column.empty() || !o.input.pair_field.empty();

  if (o.count && o.tokenizer.padding != "none")
    usage_error("--count counts each text's tokens: --padding {} would only add padding to them", o.tokenizer.padding);
  std::vector<std::filesystem::path> tokenizer_files;
  auto tokenizer = build_tokenizer(o.tokenizer, nullptr, &tokenizer_files);
  records::PipelineOptions options;
  for (const auto& file : tokenizer_files) options.read_files.push_back({file.string(), "the tokenizer's file"});
  options.tokenize = tokenize_options(o.tokenizer, *tokenizer);
  check_input_format(o.input);
  // No --on-error here: a bad record stops the run (the records before it are written).
  options.input = input_spec(o.input, records::OnBadRecord::Fail);
  options.output.path = o.output;
  options.output.settings = command_settings();
  options.output.resume = o.resume;
  // Files are read in large batches for the threads; a pipe or terminal as lines arrive, a batch
  // computed once the next line keeps it waiting past --batch-wait, so results appear as input
  // arrives. --padding longest pads within a batch, so it takes batches of --batch-size lines from
  // every input alike: a pipe pads as the same file does.
  options.batch_size = o.batch_size;
  options.batching = o.tokenizer.padding == "longest" ? records::Batching::Full : records::Batching::Stream;
  options.batch_wait_ms = batch_wait_ms(o.input);
  if (options.batching == records::Batching::Full && o.input.batch_wait_flag->count() > 0)
    usage_error("--batch-wait does not apply with --padding longest, which pads every batch of --batch-size lines alike");
  options.mark_truncated = false;  // overflowing tokens are part of the output
  options.record_noun = "line";
  options.progress = false;  // its output is often the terminal the bar would be drawn on
  cmd::TokenizeTask task(*tokenizer, output, options.tokenize);
  return records::run_records(options, *tokenizer, task);
}

}  // namespace

Action add_tokenize(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<TokenizeOptions>();
  add_input_flags(sub, o->input, {.texts_help = "Texts to tokenize (default: one per line from -i files or stdin)",
                                  .pairs = true,
                                  .input_format_alias = true,
                                  .one_file_per_input = true});
  sub.add_option("-o,--output", o->output, "Output file (- = stdout)")->capture_default_str();
  add_resume_flag(sub, o->resume);
  add_tokenizer_flags(sub, o->tokenizer);
  o->stride_flag = sub.get_option("--stride");
  sub.add_option("--format", o->format, "jsonl, tokens, ids or tsv (default: from -o's extension, else jsonl)");
  sub.add_option("--output-prefix", o->output_prefix,
                 "Put PREFIX before the name of each field tokenize adds (an input field named like one is an error otherwise)")
      ->check(may_be_empty());
  sub.add_option("--offsets", o->offsets, "Offsets in chars (code points) or bytes (UTF-8)")->capture_default_str();
  sub.add_flag("--count", o->count, "Print only the number of tokens of each input");
  sub.add_flag("--decode", o->decode, "Read ids (one sequence per line) and print the text");
  sub.add_flag("--skip-special-tokens", o->skip_special_tokens, "With --decode: leave out special tokens");
  sub.add_option("--batch-size", o->batch_size, "Lines per batch (threads share a batch; --padding longest pads within it)")
      ->check(whole_number(1, 1 << 20))
      ->capture_default_str();
  return [o] { return run_tokenize(*o); };
}

}  // namespace bertkit::cli
