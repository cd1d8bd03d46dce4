#pragma once
// The one rule every command that writes records follows for its output format: --format, or the
// format -o's extension names, or the command's default. An extension that names no format of the
// command, and one that names another format than --format, are usage errors.
#include "commands/tokenize.h"
#include "records/result_writer.h"

#include <string>
#include <vector>

namespace bertkit::cli {

// `format_flag`: --format as given (empty: not given); `offered`: the command's formats, its default
// first. The extension is matched without regard to case, .ndjson is jsonl; "-" and a name without an
// extension take --format or the default.
std::string resolve_output_format(const std::string& output, const std::string& format_flag,
                                  const std::vector<std::string>& offered);

// The format resolve_output_format gave, as the writers' enum; a usage error naming --format for a
// name that is not `offered` (e.g. {"jsonl", "tsv", "csv"}).
records::ResultFormat parse_result_format(const std::string& name, const std::vector<std::string>& offered);

// tokenize's own formats: jsonl, tokens, ids or tsv.
cmd::TokenizeFormat parse_tokenize_format(const std::string& name);

}  // namespace bertkit::cli
