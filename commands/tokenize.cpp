#include "commands/tokenize.h"

#include "commands/encoding_text.h"
#include "core/error.h"
#include "records/json_line.h"
#include "records/result_writer.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

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

void encoding_fields(records::JsonLine& j, const TokenTexts& ids, const TokenTexts& texts, const tok::Encoding& e,
                     std::string_view a, std::string_view b, bool chars) {
  // Each member written whole: its name needs no escaping, which JsonLine::key would look for each time.
  auto array = [&](std::string_view name, auto&& append) {
    std::string& out = j.raw();
    out += '"';
    out += name;
    out += "\":[";
    append(out);
    out += ']';
  };
  array("ids", [&](std::string& out) { append_joined(out, e.ids, ids, ','); });
  array("tokens", [&](std::string& out) { append_joined(out, e.ids, texts, ','); });
  array("type_ids", [&](std::string& out) { append_joined(out, e.type_ids, ','); });
  array("attention_mask", [&](std::string& out) { append_joined(out, e.attention_mask, ','); });
  array("offsets", [&](std::string& out) { append_json_pairs(out, output_offsets(e, a, b, chars)); });
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

TokenizeTask::TokenizeTask(const tok::Tokenizer& tokenizer, const TokenizeOutput& output,
                           const records::TokenizeOptions& tokenize)
    : tokenizer_(tokenizer), output_(output), tokenize_(tokenize) {
  if (output_.count || output_.decode) return;
  if (output_.format == TokenizeFormat::Ids || output_.format == TokenizeFormat::Jsonl)
    ids_.emplace(tokenizer_, TokenTexts::Style::Id);
  if (output_.format == TokenizeFormat::Tokens) texts_.emplace(tokenizer_, TokenTexts::Style::Raw);
  if (output_.format == TokenizeFormat::Jsonl) texts_.emplace(tokenizer_, TokenTexts::Style::Json);
}

bool TokenizeTask::encodes_records() const {
  return output_.format != TokenizeFormat::Tsv && tokenize_.padding.strategy == tok::PaddingStrategy::None;
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
  if (rendered_.size() < batch.size()) rendered_.resize(batch.size());
  refused_ = batch.size();
  refusal_.reset();
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
    const auto pair = record.has_pair ? std::optional<std::string_view>(record.text_pair) : std::nullopt;
    try {
      if (output_.count) {
        rendered_[k] = render_count(record, tokenizer_.count(record.text, pair, tokenize_.encode));
        continue;
      }
      if (!encodes_records()) {
        render(record, batch.encodings[k], rendered_[k]);
        continue;
      }
      thread_local tok::Encoding e;  // reused: no allocation per record
      try {
        tokenizer_.encode(record.text, pair, tokenize_.encode, e);
      } catch (const Error& refused) {
#pragma omp critical
        if (k < refused_) {
          refused_ = k;
          refusal_.emplace(refused.kind(), fmt::format("{}: {}", record.where(), refused.what()));
        }
        continue;
      }
      render(record, e, rendered_[k]);
    } catch (...) {
#pragma omp critical
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

void TokenizeTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (table_) return write_tsv_rows(batch.records[i], batch.encodings[i]);
  if (i == refused_) throw *refusal_;
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

void TokenizeTask::append_token_line(std::string& out, const tok::Encoding& e) const {
  append_joined(out, e.ids, output_.format == TokenizeFormat::Ids ? *ids_ : *texts_, ' ');
  out += '\n';
}

void TokenizeTask::render(const records::Record& rec, const tok::Encoding& e, std::string& out) const {
  std::string_view pair = rec.has_pair ? std::string_view(rec.text_pair) : std::string_view();
  if (output_.format == TokenizeFormat::Tokens || output_.format == TokenizeFormat::Ids) {
    // With --stride each window is a line of its own, as a model would read it; the first is the record's.
    out.clear();
    append_token_line(out, e);
    if (output_.windows)
      for (const auto& o : e.overflowing) append_token_line(out, o);
    return;
  }
  records::JsonLine j(std::move(out));
  // About what the fields take a token (offsets the most), so a long line is not copied as it grows.
  j.reserve(rec.text.size() + pair.size() + (e.size() + 1) * 48);
  j.begin_object();
  records::write_texts(j, rec);
  encoding_fields(j, *ids_, *texts_, e, rec.text, pair, output_.char_offsets);
  if (!e.overflowing.empty()) {
    j.key("overflowing").begin_array();
    for (const auto& o : e.overflowing) {
      j.begin_object();
      encoding_fields(j, *ids_, *texts_, o, rec.text, pair, output_.char_offsets);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
  out = j.take();
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
