// `bertkit convert SRC DST [--dtype ...] [--verify]`, `bertkit convert --verify --dtype T SRC` and
// `bertkit convert --check FILE`.
#include "cli/app.h"
#include "records/log.h"
#include "cli/task_model.h"
#include "commands/convert.h"
#include "commands/convert_verify.h"
#include "core/error.h"
#include "records/output_guard.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

namespace bertkit::cli {

namespace {

struct ConvertOptions {
  std::vector<std::string> paths;
  std::string dtype = "f32";
  bool check = false;
  bool verify = false;
  std::string corpus;  // empty: the built-in texts
};

std::vector<std::string> verify_texts(const std::string& corpus) {
  std::vector<std::string> texts;
  if (corpus.empty()) {
    for (const char* t : cmd::default_verify_texts()) texts.emplace_back(t);
    return texts;
  }
  records::InputSpec spec = input_spec(TaskFlags{});
  spec.paths = {corpus};
  auto reader = records::open_reader(spec);
  records::Record record;
  while (reader->next(record))
    if (record.error.empty() && !record.text.empty()) texts.push_back(record.text);
  if (texts.empty()) bad_input("{}: no texts to verify on", corpus);
  return texts;
}

void print_agreement(std::string_view what, const std::optional<cmd::HeadAgreement>& h) {
  if (!h) return;
  fmt::print("{} top-1 agreement: {}/{} ({:.1f}%), max |logit difference| {:.4g}\n", what, h->agree, h->total,
             h->total ? 100.0 * static_cast<double>(h->agree) / static_cast<double>(h->total) : 100.0, h->max_abs_diff);
  // A top-1 can only change where f32's margin over the runner-up is small: these tell near-ties apart
  // from real changes.
  fmt::print("  f32 top-1 margin over the runner-up: median {:.4g}", h->median_margin);
  if (h->agree < h->total) fmt::print(", largest among the {} that differ {:.4g}", h->total - h->agree, h->max_flipped_margin);
  fmt::print("\n");
}

// The reference of --verify: SRC in f32. A file that stores bf16 or int8 weights holds no f32 model,
// and widening it would only compare the file with itself: refused before anything is written.
TaskModel verify_reference(const ConvertOptions& o) {
  TaskFlags flags;
  flags.model = o.paths[0];
  flags.dtype = "f32";
  TaskModel reference = load_task_model(flags);
  const core::DType stored = reference.loaded.stored_dtype;
  if (stored == core::DType::BF16 || stored == core::DType::I8)
    usage_error("convert --verify: {} stores {} weights, so it has no f32 model to compare with; verify the "
                "original model instead: bertkit convert --verify --dtype {} ORIGINAL",
                o.paths[0], core::stored_dtype_name(stored), core::stored_dtype_name(stored));
  return reference;
}

// SRC in f32 against the reduced model: DST when one was written, else SRC converted at load.
void run_verify(const ConvertOptions& o, const TaskModel& reference, const std::vector<std::string>& texts) {
  TaskFlags reduced_flags;
  reduced_flags.model = o.paths.back();
  if (o.paths.size() == 1) reduced_flags.dtype = o.dtype;
  TaskModel reduced = load_task_model(reduced_flags);
  tok::EncodeOptions encode;
  encode.truncation = tok::TruncationParams{reference.max_length};
  std::vector<tok::Encoding> encodings;
  for (const auto& t : texts) encodings.push_back(reference.tokenizer->encode(t, std::nullopt, encode));
  auto report = cmd::verify_reduced(reference.loaded, reference.weights, reduced.weights, encodings,
                                    reference.tokenizer->mask_id(), {});
  const std::string type = o.paths.size() == 1 ? o.dtype : std::string(core::stored_dtype_name(reduced.loaded.stored_dtype));
  fmt::print("verify: {} in f32 against {} ({}), {} texts from {}\n", o.paths[0], type,
             o.paths.size() == 2 ? o.paths[1] : "converted at load", report.texts,
             o.corpus.empty() ? "the built-in sentences" : o.corpus);
  fmt::print("embedding cosine similarity: mean {:.6f}, min {:.6f}\n", report.cosine_mean, report.cosine_min);
  print_agreement("fill-mask (middle token masked)", report.fill_mask);
  print_agreement("classification", report.classification);
  print_agreement("qa (start and end)", report.qa);
  print_agreement("token labels (every token)", report.token_classification);
}

// Where DST names a folder, the file goes inside it under SRC's name, as cp does.
std::string destination_file(const std::string& source, const std::string& destination) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path = destination;
  if (!destination.empty() && fs::is_directory(path, ec)) {
    fs::path name = fs::path(source).lexically_normal();
    if (!name.has_filename()) name = name.parent_path();
    path /= name.filename().replace_extension(".bk");
  }
  return path.string();
}

int run_convert(ConvertOptions o) {
  if (o.check) {
    if (o.paths.size() != 1) usage_error("convert --check takes one file");
    auto result = core::check_converted_file(o.paths[0]);
    fmt::print("{}: ok ({} tensors, {}, {} bytes, checksum {:016x})\n", o.paths[0], result.tensors, result.dtype,
               result.bytes, result.checksum);
    return 0;
  }
  if (o.paths.size() != 2 && !(o.verify && o.paths.size() == 1))
    usage_error("convert takes a source model and a destination file");
  if (o.paths.size() == 2) o.paths[1] = destination_file(o.paths[0], o.paths[1]);
  // The corpus is read before anything is written: an unreadable one leaves no converted file behind.
  const auto texts = o.verify ? verify_texts(o.corpus) : std::vector<std::string>{};
  std::optional<TaskModel> reference;
  if (o.verify) reference.emplace(verify_reference(o));
  if (o.paths.size() == 1) {
    run_verify(o, *reference, texts);
    return 0;
  }
  // Every file the conversion reads (the model's, --corpus) is known before the destination is opened:
  // renamed over one of them, the file would replace it.
  core::LoadedModel model = core::load_model(o.paths[0]);
  std::vector<records::ReadFile> inputs;
  for (const auto& file : model.files) inputs.push_back({file.string(), "the model's file"});
  if (o.verify && !o.corpus.empty()) inputs.push_back({o.corpus, "the --corpus file"});
  records::refuse_output_over_inputs("convert: destination", o.paths[1], inputs);
  auto summary = cmd::convert_model(std::move(model), o.paths[1], core::parse_store_type(o.dtype));
  if (!summary.unused_tensors.empty())
    records::warn("{} tensors of {} are not used by the model and were left out: {}", summary.unused_tensors.size(), o.paths[0],
         fmt::join(summary.unused_tensors, ", "));
  if (!records::quiet())
    fmt::print(stderr, "bertkit: wrote {} ({} tensors, {}, {} bytes)\n", o.paths[1], summary.tensors, o.dtype,
               summary.bytes);
  if (o.verify) run_verify(o, *reference, texts);
  return 0;
}

}  // namespace

Action add_convert(CLI::App& sub, const GlobalOptions& global) {
  auto o = std::make_shared<ConvertOptions>();
  // Two named arguments (not one list of one or two), so --help shows SRC and DST.
  sub.add_option_function<std::string>("SRC", [o](const std::string& p) { o->paths.insert(o->paths.begin(), p); },
                                       "The model: folder, converted file or Hugging Face id (with --check: the file)")
      ->required();
  sub.add_option_function<std::string>("DST", [o](const std::string& p) { o->paths.push_back(p); },
                                       "The file to write (or a folder: DST/SRC-NAME.bk)");
  sub.add_option("--dtype", o->dtype, "Type of the Linear weights in the file: f32, f16, bf16 or int8")
      ->check(CLI::IsMember({"f32", "f16", "bf16", "int8"}));
  sub.add_flag("--check", o->check, "Verify the structure and checksum of a converted FILE instead");
  sub.add_flag("--verify", o->verify,
               "Compare the model in f32 with the reduced type (DST, or SRC converted to --dtype at load when no "
               "DST is given): embedding cosine, logits, top-1 agreement of the model's heads");
  sub.add_option("--corpus", o->corpus, "Texts for --verify, one per line (default: 16 built-in English sentences)");
  return [o, &global] {
    records::set_quiet(global.quiet);
    return run_convert(*o);
  };
}

}  // namespace bertkit::cli
