#pragma once
// The user's settings that messages below the CLI name: a limit to raise, a choice that refuses
// something, an option that does not fit the input. Core, tokenizer, records and commands name the
// setting; the front end says how a user spells it (cli/setting_spellings.cpp: "--max-line-bytes"), so
// no layer below the CLI knows a flag and another front end could word its own.
#include <fmt/format.h>

#include <string_view>

namespace bertkit {

// Aggregation first and Workloads last, the rest in any order (tests/unit/setting_spellings_test.cpp
// checks every value's spelling in that range).
enum class Setting : unsigned char {
  Aggregation, Attention, Calibration, Column, Compat, Context, ContextFile, Csv, Delimiter, DocStride,
  DocumentsField, Field, Format, Function, Host, HypothesisTemplate, Jsonl, LabelsField, MaxAnswerLength,
  MaxBodyBytes, MaxClientBatchSize, MaxLineBytes, MaxSeqLength, Normalize, NoNormalize, Offline, OutputPrefix, PairColumn, PairField, Pairs,
  Pooling, Precision, Prefix, Prompt, Resume, Strict, Stride, Targets, Threads, TopK, Truncate, TruncateDim,
  Tsv, TsvEscapes, Workloads,
};

using SettingSpeller = std::string_view (*)(Setting);

// The front end installs its speller once, before any command runs.
void spell_settings_with(SettingSpeller speller);

// How the user spells `setting`; "a setting" until a front end installs a speller.
std::string_view spelling(Setting setting);

}  // namespace bertkit

// `fmt::format("{} must be at least 1", Setting::TopK)` writes the setting as the user spells it.
template <>
struct fmt::formatter<bertkit::Setting> : fmt::formatter<std::string_view> {
  auto format(bertkit::Setting setting, fmt::format_context& context) const {
    return fmt::formatter<std::string_view>::format(bertkit::spelling(setting), context);
  }
};
