#include "cli/output_format.h"

#include "cli/named_choice.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

namespace bertkit::cli {

namespace {

// Every format some command writes, each named by its extension: a file named for one of them holds
// that format, whichever command writes it, so an extension of another command's format is not taken
// for an unknown one.
constexpr std::string_view kFormats[] = {"jsonl", "csv", "tsv", "npy", "f32", "conll", "tokens", "ids", "inline"};

// The extension, lower case, without its dot; .ndjson is jsonl; empty for stdout and a bare name.
std::string extension_of(const std::string& output) {
  if (output == "-") return {};
  std::string ext = std::filesystem::path(output).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "ndjson" ? "jsonl" : ext;
}

bool names_a_format(const std::string& ext) {
  return std::find(std::begin(kFormats), std::end(kFormats), ext) != std::end(kFormats);
}


}  // namespace

std::string resolve_output_format(const std::string& output, const std::string& format_flag,
                                  const std::vector<std::string>& offered) {
  const std::string ext = extension_of(output);
  const bool offers = std::find(offered.begin(), offered.end(), ext) != offered.end();
  if (!format_flag.empty()) {
    if (std::find(offered.begin(), offered.end(), format_flag) == offered.end()) return format_flag;  // refused by name
    // --format decides where the name says nothing (out.txt, out.2024); a name that says otherwise
    // would mislead whoever opens the file.
    if (names_a_format(ext) && ext != format_flag)
      usage_error("-o {} names {} output, but --format is {}: rename the file or drop --format", output, ext, format_flag);
    return format_flag;
  }
  if (ext.empty()) return offered.front();
  if (offers) return ext;
  const std::string formats = fmt::format("{}", fmt::join(offered, ", "));
  if (ext == "json")
    usage_error("-o {}: bertkit writes JSON lines (one record per line), not one JSON document: name the file .jsonl "
                "or give --format (the formats are {})", output, formats);
  if (names_a_format(ext))
    usage_error("-o {}: .{} is not an output format of this command (its formats are {}): choose one with --format",
                output, ext, formats);
  usage_error("-o {}: .{} names no output format (the formats are {}): choose one with --format", output, ext, formats);
}

records::ResultFormat parse_result_format(const std::string& name, const std::vector<std::string>& offered) {
  if (std::find(offered.begin(), offered.end(), name) == offered.end())
    usage_error("unknown --format '{}' (expected {})", name, or_list({offered.begin(), offered.end()}));
  if (name == "tsv") return records::ResultFormat::Tsv;
  if (name == "csv") return records::ResultFormat::Csv;
  if (name == "npy") return records::ResultFormat::Npy;
  if (name == "f32") return records::ResultFormat::F32;
  return records::ResultFormat::Jsonl;  // and a command's own layouts (ner's conll, inline), which it writes itself
}

cmd::TokenizeFormat parse_tokenize_format(const std::string& name) {
  using F = cmd::TokenizeFormat;
  return pick_choice<F>("--format", name, {{"jsonl", F::Jsonl}, {"tokens", F::Tokens}, {"ids", F::Ids}, {"tsv", F::Tsv}});
}

}  // namespace bertkit::cli
