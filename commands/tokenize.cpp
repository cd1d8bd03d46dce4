#include "commands/tokenize.h"

#include "commands/encoding_text.h"
#include "core/error.h"
#include "records/json_line.h"
#include "records/result_writer.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <omp.h>

#include <array>
#include <charconv>
#include <exception>

namespace bertkit::cmd {

namespace {

// Offsets of every token in code points or bytes, each into the text its token came from. In a
// buffer of the calling thread's, reused from line to line.
std::span<const tok::Offsets> output_offsets(const tok::Encoding& e, std::string_view a, std::string_view b,
                                             bool chars) {
  if (!chars) return e.offsets;
  thread_local std::vector<tok::Offsets> offsets;
  offsets.assign(e.offsets.begin(), e.offsets.end());
  if (b.empty()) {  // one text: converted in place, no copies per sequence (a line may be 8 M tokens)
    tok::to_char_offsets(a, offsets);
    return offsets;
  }
  std::vector<tok::Offsets> first, second;
  for (std::size_t i = 0; i < offsets.size(); ++i) (e.sequence[i] == 1 ? second : first).push_back(offsets[i]);
  tok::to_char_offsets(a, first);
  tok::to_char_offsets(b, second);
  std::size_t fi = 0, si = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = e.sequence[i] == 1 ? second[si++] : first[fi++];
  return offsets;
}

// A Record's text (valid UTF-8: the readers repair it) as a JSON string at the end of `out`.
void append_json(records::TextBuffer& out, std::string_view s) {
  out.write(6 * s.size() + 2, [&](char* p) { return records::write_json_string(p, s); });
}

constexpr std::array<std::string_view, 5> kArrays{"ids", "tokens", "type_ids", "attention_mask", "offsets"};

// What goes before each of an encoding's arrays: `"ids":[`, then `],"tokens":[` and so on.
std::vector<std::string> array_keys(std::string_view prefix) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < kArrays.size(); ++i) keys.push_back(fmt::format("{}\"{}{}\":[", i ? "]," : "", prefix, kArrays[i]));
  return keys;
}

// The encoding's arrays as members of a JSON object.
void append_encoding_fields(records::TextBuffer& out, std::span<const std::string> keys, const TokenTexts& ids,
                            const TokenTexts& texts, const tok::Encoding& e, std::string_view a, std::string_view b,
                            bool chars) {
  out.append(keys[0]);
  append_joined(out, e.ids, ids);
  out.append(keys[1]);
  append_joined(out, e.ids, texts);
  out.append(keys[2]);
  append_joined(out, e.type_ids, ',');
  out.append(keys[3]);
  append_joined(out, e.attention_mask, ',');
  out.append(keys[4]);
  append_json_pairs(out, output_offsets(e, a, b, chars));
  out.append(']');
}

}  // namespace

std::vector<std::int32_t> parse_ids(std::string_view line) {
  std::vector<std::int32_t> ids;
  std::size_t i = 0;
  auto is_separator = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '\r'; };
  while (i < line.size()) {
    if (is_separator(line[i])) {
      ++i;
      continue;
    }
    std::int32_t id = 0;
    auto [end, ec] = std::from_chars(line.data() + i, line.data() + line.size(), id);
    if (ec != std::errc() || (end != line.data() + line.size() && !is_separator(*end)))
      bad_input("'{}' is not a token id", line.substr(i, line.find_first_of(" \t,[]", i) - i));
    ids.push_back(id);
    i = static_cast<std::size_t>(end - line.data());
  }
  return ids;
}

TokenizeTask::TokenizeTask(const tok::Tokenizer& tokenizer, const TokenizeOutput& output,
                           const records::TokenizeOptions& tokenize)
    : tokenizer_(tokenizer), output_(output), tokenize_(tokenize) {
  if (output_.decode) return;
  const std::string& prefix = output_.field_prefix;
  if (output_.count) {
    if (output_.format == TokenizeFormat::Jsonl) output_names_ = {prefix + "count"};
    return;
  }
  if (output_.format == TokenizeFormat::Jsonl) {
    for (std::string_view name : kArrays) output_names_.push_back(prefix + std::string(name));
    array_keys_ = array_keys(prefix);
    output_names_.push_back(prefix + "overflowing");
    overflowing_key_ = fmt::format(",\"{}\":[", output_names_.back());
  }
  if (output_.format == TokenizeFormat::Tsv)
    for (const char* name : {"ids", "tokens", "offsets"}) output_names_.push_back(prefix + name);
  // ids and tokens lines take spaces between tokens; jsonl's arrays commas.
  const char separator = output_.format == TokenizeFormat::Jsonl ? ',' : ' ';
  if (output_.format == TokenizeFormat::Ids || output_.format == TokenizeFormat::Jsonl)
    ids_.emplace(tokenizer_, TokenTexts::Style::Id, separator);
  if (output_.format == TokenizeFormat::Tokens) texts_.emplace(tokenizer_, TokenTexts::Style::Raw, separator);
  if (output_.format == TokenizeFormat::Jsonl) texts_.emplace(tokenizer_, TokenTexts::Style::Json, separator);
}

bool TokenizeTask::encodes_records() const {
  return output_.format != TokenizeFormat::Tsv && tokenize_.padding.strategy == tok::PaddingStrategy::None;
}

void TokenizeTask::start(records::RecordOutput& out) {
  input_ = out.input_table();
  records::refuse_collisions(output_names_, input_);
  if (output_.format != TokenizeFormat::Tsv || output_.count || output_.decode) return;
  table_ = std::make_unique<records::TableWriter>(out.writer(), '\t', input_);
  // The text as it was tokenized leads tokenize's own columns, as it always has, after the input's.
  std::vector<std::string> columns{std::string(records::kTextField)};
  if (output_.pairs) columns.emplace_back(records::kPairField);
  columns.insert(columns.end(), output_names_.begin(), output_names_.end());
  table_->header(columns);
}

void TokenizeTask::compute(const records::Batch& batch) {
  refused_ = batch.size();
  refusal_.reset();
  if (table_) return;  // rows go through the TableWriter in write()
  // One thread encodes and renders each line in write(), straight into the output's buffer: a batch
  // of lines rendered first (a megabyte of JSONL) would have left the cache by the time it was
  // copied. (--decode's and --count's refusals are thrown here, in compute(), where the pipeline skips
  // the record they name.)
  const bool serial = batch.size() <= kSerialBatch || omp_get_max_threads() == 1;
  serial_ = serial && !output_.decode && !output_.count && encodes_records();
  if (serial_) return;
  if (rendered_.size() < batch.size()) rendered_.resize(batch.size());
  const auto count = static_cast<std::ptrdiff_t>(batch.size());
  std::exception_ptr error;  // exceptions must not cross the OpenMP region: the first, rethrown after it
#pragma omp parallel for schedule(dynamic, 16) if (!serial)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    try {
      rendered_[static_cast<std::size_t>(i)].clear();
      render(batch, static_cast<std::size_t>(i), rendered_[static_cast<std::size_t>(i)]);
    } catch (...) {
#pragma omp critical
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

void TokenizeTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (table_) return write_tsv_rows(batch.records[i], batch.encodings[i]);
  if (serial_) out.writer().write_with([&](records::TextBuffer& line) { render(batch, i, line); });
  if (i == refused_) throw *refusal_;  // before a refused record, and nothing of it, is written
  if (!serial_) out.writer().write(rendered_[i].view());
}

void TokenizeTask::render(const records::Batch& batch, std::size_t k, records::TextBuffer& out) {
  const records::Record& record = batch.records[k];
  if (output_.decode) return out.append(decode(record));
  const auto pair = record.has_pair ? std::optional<std::string_view>(record.text_pair) : std::nullopt;
  if (output_.count) return out.append(render_count(record, tokenizer_.count(record.text, pair, tokenize_.encode)));
  if (!encodes_records()) return render(record, batch.encodings[k], out);
  thread_local tok::Encoding e;  // reused: no allocation per record
  try {
    tokenizer_.encode(record.text, pair, tokenize_.encode, e);
  } catch (const Error& refused) {
#pragma omp critical
    if (k < refused_) {
      refused_ = k;
      refusal_.emplace(refused.kind(), fmt::format("{}: {}", record.where(), refused.what()));
    }
    return;
  }
  render(record, e, out);
}

std::string TokenizeTask::decode(const records::Record& record) const {
  std::vector<std::int32_t> ids = parse_ids(record.text);
  std::string text = tokenizer_.decode(ids, output_.skip_special_tokens);
  if (output_.format != TokenizeFormat::Jsonl) return text + "\n";
  records::JsonLine j;
  j.begin_object().key("ids").begin_array();
  for (auto id : ids) j.value(id);
  j.end_array().field("text", text);
  return std::string(j.end_object().line());
}

std::string TokenizeTask::render_count(const records::Record& rec, std::size_t count) const {
  if (output_.format != TokenizeFormat::Jsonl) return fmt::format("{}\n", count);
  records::refuse_collisions(output_names_, rec);
  records::JsonLine j;
  j.begin_object();
  records::write_input(j, rec, input_);
  j.field(output_names_.front(), count);
  return std::string(j.end_object().line());
}

void TokenizeTask::append_input(records::TextBuffer& out, const records::Record& rec) const {
  if (rec.object.is_object() || !rec.fields.empty()) {
    records::refuse_collisions(output_names_, rec);
    thread_local std::string memory;  // reused from record to record
    records::JsonLine j(std::move(memory));
    j.begin_object();
    records::write_input(j, rec, input_);
    out.append(j.raw());  // the members and the comma after them
    memory = j.take();
    return;
  }
  // A line's text (and second text) written here whole: JsonLine's std::string zeroes the room it is
  // given for the escaping, and a tokenized line is mostly its arrays.
  static const std::string text_key = fmt::format("{{\"{}\":", records::kTextField);
  static const std::string pair_key = fmt::format(",\"{}\":", records::kPairField);
  out.append(text_key);
  append_json(out, rec.text);
  if (rec.has_pair) {
    out.append(pair_key);
    append_json(out, rec.text_pair);
  }
  out.append(',');
}

void TokenizeTask::append_token_line(records::TextBuffer& out, const tok::Encoding& e) const {
  append_joined(out, e.ids, output_.format == TokenizeFormat::Ids ? *ids_ : *texts_);
  out.append('\n');
}

void TokenizeTask::render(const records::Record& rec, const tok::Encoding& e, records::TextBuffer& out) const {
  if (output_.format == TokenizeFormat::Tokens || output_.format == TokenizeFormat::Ids) {
    // With --stride each window is a line of its own, as a model would read it; the first is the record's.
    append_token_line(out, e);
    if (output_.windows)
      for (const auto& o : e.overflowing) append_token_line(out, o);
    return;
  }
  static const std::vector<std::string> nested = array_keys("");  // inside "overflowing": not prefixed
  std::string_view pair = rec.has_pair ? std::string_view(rec.text_pair) : std::string_view();
  append_input(out, rec);
  append_encoding_fields(out, array_keys_, *ids_, *texts_, e, rec.text, pair, output_.char_offsets);
  if (!e.overflowing.empty()) {
    out.append(overflowing_key_);
    for (std::size_t k = 0; k < e.overflowing.size(); ++k) {
      out.append(k ? ",{" : "{");
      append_encoding_fields(out, nested, *ids_, *texts_, e.overflowing[k], rec.text, pair, output_.char_offsets);
      out.append('}');
    }
    out.append(']');
  }
  out.append("}\n");
}

void TokenizeTask::write_tsv_rows(const records::Record& rec, const tok::Encoding& e) {
  write_tsv_row(rec, e);
  if (output_.windows)
    for (const auto& o : e.overflowing) write_tsv_row(rec, o);
}

void TokenizeTask::write_tsv_row(const records::Record& rec, const tok::Encoding& e) {
  std::string ids, tokens, offsets;
  auto offs = output_offsets(e, rec.text, rec.text_pair, output_.char_offsets);
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    if (i) {
      ids += ' ';
      tokens += ' ';
      offsets += ' ';
    }
    const fmt::format_int id(e.ids[i]), begin(offs[i].begin), end(offs[i].end);
    ids.append(id.data(), id.size());
    tokens += tokenizer_.token(e.ids[i]);
    offsets.append(begin.data(), begin.size()).append(1, ':').append(end.data(), end.size());
  }
  table_->begin_row(rec).cell(rec.text);
  if (rec.has_pair) table_->cell(rec.text_pair);
  table_->cell(ids).cell(tokens).cell(offsets).end_row();
}

}  // namespace bertkit::cmd
