#include "cli/task_model.h"

#include "cli/app.h"
#include "cli/tokenizer_flags.h"
#include "core/loading/converted_file.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/error.h"
#include "core/ops/cpu_features.h"
#include "records/log.h"
#include "tokenizer/pipeline_pieces.h"
#include "core/tensor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <omp.h>

#include <algorithm>

namespace bertkit::cli {

namespace {

TokenizerFlags tokenizer_flags(const TaskFlags& flags, std::size_t max_length) {
  TokenizerFlags t;
  t.model = flags.model;
  t.max_length = max_length;
  t.truncation = "longest_first";
  t.compat = flags.compat;
  return t;
}

// The type Linear layers compute in: --dtype, else the file's (f16 files compute in f32). bf16 needs
// AVX-512 in oneDNN 2.6: elsewhere a bf16 model computes in f32 from its bf16 weights, widened exactly,
// instead of failing (`bf16_widened`).
struct ComputeType {
  std::string_view file, requested, type;
  bool bf16_widened = false;
};

ComputeType compute_type(const TaskFlags& flags, core::DType stored) {
  ComputeType c;
  c.file = core::stored_dtype_name(stored);
  c.requested = c.type = flags.dtype.empty() ? (c.file == "f16" ? "f32" : c.file) : std::string_view(flags.dtype);
  if (c.type == "bf16" && !core::bf16_matmul_supported(core::cpu_selection())) {
    c.type = "f32";
    c.bf16_widened = true;
  }
  return c;
}

std::string dtype_setting(const TaskFlags& flags, core::DType stored) {
  const ComputeType c = compute_type(flags, stored);
  std::string how = c.type == "int8"   ? "int8 weights per output channel, s8 activations per token, s32 sums"
                    : c.type == "bf16" ? "bf16 weights and activations, f32 sums"
                                       : "f32";
  if (c.type != "f32") how += "; bf16 attention where the CPU has it";
  if (c.bf16_widened) how += "; bf16 weights widened: this CPU has no AVX-512, which bf16 needs";
  if (c.type == "int8" && !core::int8_matmul_supported(core::cpu_selection()))
    how += "; int8 weights widened to f32: this CPU has no AVX-512 VNNI, without which int8 sums saturate";
  std::string from = c.requested == c.file ? "as stored" : fmt::format("the file is {}, converted at load", c.file);
  return fmt::format("{} ({}; {})", c.type, how, from);
}

}  // namespace

TaskModel load_task_model(const TaskFlags& flags) {
  if (flags.truncate != "right" && flags.truncate != "error")
    usage_error("--truncate must be right or error, not '{}'", flags.truncate);
  TaskModel m;
  m.loaded = core::load_model(flags.model);
  const std::size_t positions = m.loaded.config.usable_positions();
  const auto& st = m.loaded.sentence_transformer;

  // The tokenizer first (its model_max_length is one of the candidates), truncation set after.
  m.tokenizer = build_tokenizer(tokenizer_flags(flags, positions), &m.loaded);
  if (flags.max_length) {
    if (*flags.max_length > positions)
      usage_error("--max-length {} is more than this model takes ({} tokens: max_position_embeddings)", *flags.max_length, positions);
    m.max_length = *flags.max_length;
    m.max_length_from = "--max-length";
  } else if (st && st->max_seq_length) {
    m.max_length = static_cast<std::size_t>(*st->max_seq_length);
    m.max_length_from = "max_seq_length of sentence_bert_config.json";
  } else if (auto tokenizer_max = m.tokenizer->spec().model_max_length) {
    m.max_length = *tokenizer_max;
    m.max_length_from = "model_max_length of the tokenizer";
  } else {
    m.max_length = positions;
    m.max_length_from = "max_position_embeddings of config.json";
  }
  if (m.max_length > positions) {
    m.max_length = positions;
    m.max_length_from = "max_position_embeddings of config.json";
  }
  // Linear layers compute in their weights' type: --dtype converts them at load, to the values a file
  // converted to that type holds.
  const ComputeType compute = compute_type(flags, m.loaded.stored_dtype);
  if (compute.type == "int8" && !core::int8_matmul_supported(core::cpu_selection()))
    records::warn("this CPU has no AVX-512 VNNI, without which oneDNN's int8 sums saturate: computing in f32 from the int8 weights");
  if (compute.bf16_widened) {
    records::warn("this CPU has no AVX-512, which bf16 needs: computing in f32 from the bf16 weights");
    // The bf16 values first (an f32 model asked for bf16), then widened.
    if (compute.file != "bf16") m.loaded.weights = core::with_store_type(m.loaded.weights, core::StoreType::BF16);
    m.loaded.weights = core::with_store_type(m.loaded.weights, core::StoreType::F32);
  } else if (!flags.dtype.empty() && flags.dtype != compute.file) {
    m.loaded.weights = core::with_store_type(m.loaded.weights, core::parse_store_type(flags.dtype));
  }
  m.weights = std::make_shared<const core::Weights>(std::move(m.loaded.weights));
  m.dtype = compute.type;
  return m;
}

records::PipelineOptions pipeline_options(const TaskFlags& flags, const TaskModel& model) {
  records::PipelineOptions o = pipeline_options(flags, model.loaded.files);
  o.tokenize = tokenize_options(tokenizer_flags(flags, model.max_length), *model.tokenizer);
  // The model sees the first window only: the text past it is never tokenized (a 50 MB line costs what
  // its first tokens cost), and the record is marked truncated.
  o.tokenize.encode.keep_overflow = false;
  return o;
}

records::PipelineOptions pipeline_options(const TaskFlags& flags, const std::vector<std::filesystem::path>& model_files) {
  records::PipelineOptions o;
  o.batch_size = flags.batch_size;
  o.batch_wait_ms = batch_wait_ms(flags);
  o.limits.max_tokens = flags.max_batch_tokens;
  o.on_error = flags.on_error == "skip" ? records::OnError::Skip : records::OnError::Fail;
  o.refuse_truncated = flags.truncate == "error";
  o.input = input_spec(flags);
  o.input.options.stop_at_long_line = o.on_error == records::OnError::Fail;
  o.output.path = flags.output;
  for (const auto& file : model_files) o.read_files.push_back({file.string(), "the model's file"});
  o.output.settings = command_settings();
  o.output.resume = flags.resume;
  o.output.field_prefix = flags.output_prefix;
  if (!flags.formats.empty()) o.output.format = result_format(flags);
  o.output.pairs = flags.pairs || !flags.pair_column.empty() || !flags.pair_field.empty();
  return o;
}

Settings& Settings::add(std::string name, std::string value) {
  items_.emplace_back(std::move(name), std::move(value));
  return *this;
}

Settings& Settings::set(const std::string& name, std::string value) {
  for (auto& [key, current] : items_)
    if (key == name) {
      current = std::move(value);
      return *this;
    }
  return add(name, std::move(value));
}

std::string Settings::text() const {
  std::size_t width = 0;
  for (const auto& [name, value] : items_) width = std::max(width, name.size());
  std::string out;
  for (const auto& [name, value] : items_) out += fmt::format("{:<{}}  {}\n", name + ":", width + 1, value);
  return out;
}

Settings common_settings(const TaskFlags& flags, const TaskModel& model) {
  const core::ModelConfig& c = model.loaded.config;
  Settings s;
  s.add("model", fmt::format("{} ({})", flags.model, model.loaded.location.string()));
  s.add("architecture", fmt::format("{} ({}, {} layers, hidden {}, {} heads)", c.architecture.empty() ? "-" : c.architecture,
                                    core::family_name(c.family), c.num_layers, c.hidden_size, c.num_heads));
  s.add("head", c.absent_head ? fmt::format("none (the {} head config.json names is not in the checkpoint)",
                                            core::head_name(c.absent_head->head))
                              : std::string(core::head_name(c.head)));
  if (!c.id2label.empty()) {
    std::string labels;
    for (std::size_t i = 0; i < c.id2label.size(); ++i) labels += (i ? ", " : "") + c.id2label[i];
    s.add("labels", labels);
  }
  const bool bpe = tok::model_kind(model.tokenizer->spec().model) == "BPE";
  s.add("tokenizer", flags.compat != "python" ? "fast (Hugging Face tokenizers)"
                     : bpe                    ? "python (slow RobertaTokenizer: the fast tokens, the slow pipeline)"
                                              : "python (slow BertTokenizer)");
  s.add("max length", fmt::format("{} tokens ({})", model.max_length, model.max_length_from));
  s.add("truncation", flags.truncate == "error" ? "error (longer inputs are refused)"
                                                : "right (longer inputs are cut and marked \"truncated\")");
  s.add("dtype", dtype_setting(flags, model.loaded.stored_dtype));
  add_run_settings(s, flags);
  return s;
}

void add_run_settings(Settings& s, const TaskFlags& flags) {
  // What a real run would refuse before reading, --dry-run refuses too (standard input is left alone:
  // a search reads its files under other flags).
  if (!flags.texts.empty() || !flags.inputs.empty()) records::check_input_flags(input_spec(flags));
  s.add("threads", fmt::format("{}", omp_get_max_threads()));
  s.add("batch", fmt::format("{} records (from a pipe or terminal: those that come within {} ms of the first), at most {} "
                             "tokens per model call",
                             flags.batch_size, flags.batch_wait_ms, flags.max_batch_tokens));
  s.add("padding", "none (sequences are packed end to end)");
  s.add("on error", flags.on_error);
  std::string input = !flags.texts.empty() ? fmt::format("{} text argument{}", flags.texts.size(), flags.texts.size() == 1 ? "" : "s")
                      : flags.inputs.empty() ? std::string("stdin")
                                             : fmt::format("{}", fmt::join(flags.inputs, ", "));
  s.add("input", input);
  s.add("output", fmt::format("{} ({})", flags.output == "-" ? "stdout" : flags.output, output_format(flags)));
}

}  // namespace bertkit::cli
