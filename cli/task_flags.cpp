#include "cli/task_flags.h"

#include "cli/empty_values.h"
#include "cli/number_flags.h"
#include "cli/output_format.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bertkit::cli {

void add_task_flags(CLI::App& sub, TaskFlags& f, const TaskFlagSet& which) {
  add_input_flags(sub, f, {.texts_help = which.texts_help, .pairs = which.pairs});

  sub.add_option("-o,--output", f.output, "Output file (- = stdout)")->capture_default_str();
  add_resume_flag(sub, f.resume);
  f.formats = which.formats;
  std::string formats;
  for (std::size_t i = 0; i < which.formats.size(); ++i) formats += (i ? ", " : "") + which.formats[i];
  sub.add_option("--format", f.format, "Output format: " + formats + " (default: from -o's extension, else " +
                                           which.formats.front() + ")");

  sub.add_option("--output-prefix", f.output_prefix,
                 "Put PREFIX before every output field's name (an input field named like one is an error otherwise)")
      ->check(may_be_empty());

  sub.add_option("-m,--model", f.model, "Model folder, converted file or cached model id")->required();
  sub.add_option("--max-length", f.max_length,
                 "Maximum tokens per input, special tokens included (default: the model's)")
      ->check(whole_number(1, 1 << 20));
  sub.add_option("--truncate", f.truncate, "Longer inputs: right (cut, marked \"truncated\") or error")
      ->capture_default_str();
  sub.add_option("--compat", f.compat, "Tokenizer: fast (Hugging Face's default) or python (the slow BertTokenizer or RobertaTokenizer)")
      ->capture_default_str();
  sub.add_option("--dtype", f.dtype,
                 "Compute type: f32, bf16 (half the weight memory) or int8 (per-channel weights, per-token activations); "
                 "default: the type the model file stores (f16 files compute in f32)")
      ->check(CLI::IsMember({"f32", "bf16", "int8"}));
  sub.add_option("--batch-size", f.batch_size, "Records read and computed together")
      ->check(whole_number(1, 1 << 20))
      ->capture_default_str();
  sub.add_option("--max-batch-tokens", f.max_batch_tokens, "Token budget of one model call (bounds memory)")
      ->check(whole_number(1, 1 << 30))
      ->capture_default_str();
  sub.add_option("--on-error", f.on_error, "A bad record: fail (stop, keep what was written) or skip (report, go on)")
      ->capture_default_str();
  sub.add_flag("--dry-run", f.dry_run, "Print the resolved settings and exit");
}

void add_resume_flag(CLI::App& sub, bool& resume) {
  sub.add_flag("--resume", resume,
               "Continue the cut-off run of the same command whose -o FILE is there: skip the input records it "
               "finished, append the rest");
}

std::string output_format(const TaskFlags& f) {
  return resolve_output_format(f.output, f.format, f.formats);
}

records::ResultFormat result_format(const TaskFlags& f) { return parse_result_format(output_format(f), f.formats); }

void refuse_record_flags_in_prompt(const TaskFlags& f) {
  const auto given = [](const CLI::Option* flag) { return flag && flag->count() > 0; };
  std::vector<std::string> refused;
  if (f.output != "-") refused.push_back("-o");
  if (!f.format.empty()) refused.push_back("--format");
  if (!f.output_prefix.empty()) refused.push_back("--output-prefix");
  if (f.resume) refused.push_back("--resume");
  if (f.on_error != "fail") refused.push_back("--on-error");
  if (f.csv) refused.push_back("--csv");
  if (f.tsv) refused.push_back("--tsv");
  if (f.jsonl) refused.push_back("--jsonl");
  if (given(f.column_flag)) refused.push_back("--column");
  if (given(f.field_flag)) refused.push_back("--field");
  if (f.strict_utf8) refused.push_back("--strict");
  if (f.max_line_bytes != records::kDefaultMaxRecordBytes) refused.push_back("--max-line-bytes");
  if (given(f.batch_wait_flag)) refused.push_back("--batch-wait");
  if (refused.empty()) return;
  usage_error("{} {} not apply to the interactive prompt, which reads typed sentences and answers on the terminal: "
              "give texts or -i FILE (or pipe the input) to read and write records",
              fmt::format("{}", fmt::join(refused, ", ")), refused.size() == 1 ? "does" : "do");
}

int run_task(const TaskFlags& f, const records::PipelineOptions& options, const tok::Tokenizer& tokenizer,
             records::RecordTask& task) {
  if (f.on_error != "fail" && f.on_error != "skip") usage_error("--on-error must be fail or skip, not '{}'", f.on_error);
  if (options.input.texts.empty()) check_input_format(f);
  return records::run_records(options, tokenizer, task);
}

}  // namespace bertkit::cli
