#include "commands/tokenize.h"

#include "core/error.h"
#include "records/json_line.h"
#include "records/result_writer.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <charconv>
#include <exception>

namespace bertkit::cmd {

namespace {

// Offsets of every token in code points or bytes, each into the text its token came from.
std::vector<tok::Offsets> output_offsets(const tok::Encoding& e, std::string_view a, std::string_view b, bool chars) {
  std::vector<tok::Offsets> offsets = e.offsets;
  if (!chars) return offsets;
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

void encoding_fields(records::JsonLine& j, const tok::Tokenizer& tokenizer, const tok::Encoding& e, std::string_view a,
                     std::string_view b, bool chars) {
  j.key("ids").begin_array();
  for (auto id : e.ids) j.value(id);
  j.end_array().key("tokens").begin_array();
  for (auto id : e.ids) j.value(tokenizer.token(id));
  j.end_array().key("type_ids").begin_array();
  for (auto t : e.type_ids) j.value(t);
  j.end_array().key("attention_mask").begin_array();
  for (auto m : e.attention_mask) j.value(static_cast<int>(m));
  j.end_array().key("offsets").begin_array();
  for (const auto& o : output_offsets(e, a, b, chars)) j.begin_array().value(o.begin).value(o.end).end_array();
  j.end_array();
}

}  // namespace

TokenizeFormat parse_tokenize_format(const std::string& s) {
  if (s == "jsonl") return TokenizeFormat::Jsonl;
  if (s == "tokens") return TokenizeFormat::Tokens;
  if (s == "ids") return TokenizeFormat::Ids;
  if (s == "tsv") return TokenizeFormat::Tsv;
  usage_error("unknown --format '{}' (expected jsonl, tokens, ids or tsv)", s);
}

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

void TokenizeTask::start(records::RecordOutput& out) {
  if (output_.format != TokenizeFormat::Tsv || output_.count || output_.decode) return;
  table_ = std::make_unique<records::TableWriter>(out.writer(), '\t', out.input_table());
  std::vector<std::string> columns{std::string(records::kTextField)};
  if (output_.pairs) columns.emplace_back(records::kPairField);
  for (const char* c : {"ids", "tokens", "offsets"}) columns.emplace_back(c);
  table_->header(columns);
}

void TokenizeTask::compute(const records::Batch& batch) {
  rendered_.assign(batch.size(), {});
  if (output_.decode) {
    for (std::size_t i = 0; i < batch.size(); ++i) rendered_[i] = decode(batch.records[i]);
    return;
  }
  if (table_) return;  // rows go through the TableWriter in write()
  const auto count = static_cast<std::ptrdiff_t>(batch.size());
  std::exception_ptr error;  // exceptions must not cross the OpenMP region: the first, rethrown after it
#pragma omp parallel for schedule(dynamic, 16) if (count > 64)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const records::Record& record = batch.records[k];
    try {
      if (!output_.count) {
        rendered_[k] = render(record, batch.encodings[k]);
        continue;
      }
      const auto pair = record.has_pair ? std::optional<std::string_view>(record.text_pair) : std::nullopt;
      rendered_[k] = render_count(record, tokenizer_.count(record.text, pair, encode_));
    } catch (...) {
#pragma omp critical
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

void TokenizeTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (table_) return write_tsv_rows(batch.records[i], batch.encodings[i]);
  out.writer().write(rendered_[i]);
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
  records::JsonLine j;
  j.begin_object();
  records::write_texts(j, rec);
  j.field("count", count);
  return std::string(j.end_object().line());
}

std::string TokenizeTask::token_line(const tok::Encoding& e) const {
  std::string line;
  line.reserve(e.ids.size() * 8);
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    if (i) line += ' ';
    if (output_.format == TokenizeFormat::Ids) {
      const fmt::format_int id(e.ids[i]);
      line.append(id.data(), id.size());
    } else {
      line += tokenizer_.token(e.ids[i]);
    }
  }
  line += '\n';
  return line;
}

std::string TokenizeTask::render(const records::Record& rec, const tok::Encoding& e) const {
  std::string_view pair = rec.has_pair ? std::string_view(rec.text_pair) : std::string_view();
  if (output_.format == TokenizeFormat::Tokens || output_.format == TokenizeFormat::Ids) {
    // With --stride each window is a line of its own, as a model would read it; the first is the record's.
    std::string lines = token_line(e);
    if (output_.windows)
      for (const auto& o : e.overflowing) lines += token_line(o);
    return lines;
  }
  records::JsonLine j;
  // About what the fields take a token (offsets the most), so a long line is not copied as it grows.
  j.reserve(rec.text.size() + pair.size() + (e.size() + 1) * 48);
  j.begin_object();
  records::write_texts(j, rec);
  encoding_fields(j, tokenizer_, e, rec.text, pair, output_.char_offsets);
  if (!e.overflowing.empty()) {
    j.key("overflowing").begin_array();
    for (const auto& o : e.overflowing) {
      j.begin_object();
      encoding_fields(j, tokenizer_, o, rec.text, pair, output_.char_offsets);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
  return j.take();
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
