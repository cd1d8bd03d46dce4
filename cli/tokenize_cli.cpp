// `bertkit tokenize`: flags, input records, and the four output formats.
#include "cli/app.h"
#include "records/argument_reader.h"
#include "records/json_line.h"
#include "records/open_reader.h"
#include "records/table_writer.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "cli/tokenizer_flags.h"
#include "commands/tokenize.h"
#include "core/error.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>
#include <omp.h>

#include <memory>

namespace bertkit::cli {

namespace {

enum class Format { Jsonl, Tokens, Ids, Tsv };

struct TokenizeOptions {
  std::vector<std::string> texts;
  std::vector<std::string> inputs;
  std::string output = "-";
  bool pairs = false;
  std::string input_format = "auto";
  std::string column, pair_column, field = "text", pair_field;
  TokenizerFlags tokenizer;
  std::string format = "jsonl";
  std::string offsets = "chars";
  bool count = false;
  bool decode = false;
  bool skip_special_tokens = false;
  bool strict = false;
  std::size_t batch_size = 1024;
};

Format parse_format(const std::string& s) {
  if (s == "jsonl") return Format::Jsonl;
  if (s == "tokens") return Format::Tokens;
  if (s == "ids") return Format::Ids;
  if (s == "tsv") return Format::Tsv;
  usage_error("unknown --format '{}' (expected jsonl, tokens, ids or tsv)", s);
}

// Offsets of every token in code points or bytes, each into the text its token came from.
std::vector<tok::Offsets> output_offsets(const tok::Encoding& e, std::string_view a, std::string_view b, bool chars) {
  std::vector<tok::Offsets> offsets = e.offsets;
  if (!chars) return offsets;
  std::vector<tok::Offsets> first, second;
  for (std::size_t i = 0; i < offsets.size(); ++i) (e.sequence[i] == 1 ? second : first).push_back(offsets[i]);
  tok::to_char_offsets(a, first);
  tok::to_char_offsets(b, second);
  std::size_t fi = 0, si = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = e.sequence[i] == 1 ? second[si++] : first[fi++];
  return offsets;
}

struct Renderer {
  const tok::Tokenizer& tokenizer;
  Format format;
  bool chars;
  bool count;

  void encoding_fields(records::JsonLine& j, const tok::Encoding& e, std::string_view a, std::string_view b) const {
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

  std::string render(const records::Record& rec, const tok::Encoding& e) const {
    std::string_view pair = rec.has_pair ? std::string_view(rec.text_pair) : std::string_view();
    if (count) {
      if (format != Format::Jsonl) return fmt::format("{}\n", e.size());
      records::JsonLine j;
      j.begin_object().field("text", rec.text);
      if (rec.has_pair) j.field("text_pair", rec.text_pair);
      j.field("count", e.size());
      return std::string(j.end_object().line());
    }
    switch (format) {
      case Format::Tokens:
      case Format::Ids: {
        std::string line;
        for (std::size_t i = 0; i < e.ids.size(); ++i) {
          if (i) line += ' ';
          if (format == Format::Ids) line += std::to_string(e.ids[i]);
          else line += tokenizer.token(e.ids[i]);
        }
        line += '\n';
        return line;
      }
      case Format::Tsv:
        return {};  // written through TableWriter
      case Format::Jsonl: {
        records::JsonLine j;
        j.begin_object().field("text", rec.text);
        if (rec.has_pair) j.field("text_pair", rec.text_pair);
        encoding_fields(j, e, rec.text, pair);
        if (!e.overflowing.empty()) {
          j.key("overflowing").begin_array();
          for (const auto& o : e.overflowing) {
            j.begin_object();
            encoding_fields(j, o, rec.text, pair);
            j.end_object();
          }
          j.end_array();
        }
        return std::string(j.end_object().line());
      }
    }
    return {};
  }
};

void write_tsv_row(records::TableWriter& table, const records::Record& rec, const tok::Encoding& e, const tok::Tokenizer& tokenizer,
                   bool chars) {
  std::string ids, tokens, offsets;
  auto offs = output_offsets(e, rec.text, rec.text_pair, chars);
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    const char* sep = i ? " " : "";
    ids += sep + std::to_string(e.ids[i]);
    tokens += sep + std::string(tokenizer.token(e.ids[i]));
    offsets += fmt::format("{}{}:{}", sep, offs[i].begin, offs[i].end);
  }
  table.begin_row(rec).cell(rec.text);
  if (rec.has_pair) table.cell(rec.text_pair);
  table.cell(ids).cell(tokens).cell(offsets).end_row();
}

int run_decode(const TokenizeOptions& o, const tok::Tokenizer& tokenizer, records::RecordReader& reader, records::RecordWriter& out,
               Format format) {
  records::Record rec;
  while (reader.next(rec)) {
    std::vector<std::int32_t> ids;
    try {
      ids = cmd::parse_ids(rec.text);
      std::string text = tokenizer.decode(ids, o.skip_special_tokens);
      if (format == Format::Jsonl) {
        records::JsonLine j;
        j.begin_object().key("ids").begin_array();
        for (auto id : ids) j.value(id);
        j.end_array().field("text", text);
        out.write(j.end_object().line());
      } else {
        out.write(text + "\n");
      }
    } catch (const Error& e) {
      bad_input("{}: {}", rec.where(), e.what());
    }
    if (!reader.total_bytes()) out.flush();
  }
  out.flush();
  return 0;
}

int run_tokenize(const TokenizeOptions& o) {
  Format format = parse_format(o.format);
  if (o.offsets != "chars" && o.offsets != "bytes") usage_error("--offsets must be chars or bytes, not '{}'", o.offsets);
  if (!o.texts.empty() && !o.inputs.empty()) usage_error("give texts as arguments or files with -i, not both");

  auto tokenizer = build_tokenizer(o.tokenizer);
  records::TokenizeOptions topts = tokenize_options(o.tokenizer, *tokenizer);

  records::InputSpec spec;
  spec.paths = o.inputs;
  spec.pairs = o.pairs;
  spec.format = parse_input_format(o.input_format);
  spec.column = o.column;
  spec.pair_column = o.pair_column;
  spec.field = o.field;
  spec.pair_field = o.pair_field;
  spec.options.strict_utf8 = o.strict;
  std::unique_ptr<records::RecordReader> reader;
  if (o.texts.empty()) reader = records::open_reader(spec);
  else reader = std::make_unique<records::ArgumentReader>(o.texts, o.pairs, o.strict);

  records::RecordWriter out(o.output);
  if (o.decode) return run_decode(o, *tokenizer, *reader, out, format);

  Renderer renderer{*tokenizer, format, o.offsets == "chars", o.count};
  std::unique_ptr<records::TableWriter> table;
  if (format == Format::Tsv && !o.count) {
    table = std::make_unique<records::TableWriter>(out, '\t', reader->table());
    std::vector<std::string> columns{"text"};
    if (o.pairs || !o.pair_column.empty() || !o.pair_field.empty()) columns.push_back("text_pair");
    for (const char* c : {"ids", "tokens", "offsets"}) columns.emplace_back(c);
    table->header(columns);
  }

  // Files are read in large batches for the threads; a pipe or terminal line by line, so results
  // appear as input arrives.
  const std::size_t batch_size = reader->total_bytes() ? std::max<std::size_t>(o.batch_size, 1) : 1;
  std::vector<records::Record> batch(batch_size);
  std::vector<records::TextInput> inputs;
  std::vector<std::string> rendered;
  bool more = true;
  while (more) {
    std::size_t n = 0;
    while (n < batch_size && (more = reader->next(batch[n]))) ++n;
    if (n == 0) break;
    inputs.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const records::Record& r = batch[i];
      inputs.push_back({r.text, r.has_pair ? std::optional<std::string_view>(r.text_pair) : std::nullopt});
    }
    std::vector<tok::Encoding> encodings;
    try {
      encodings = records::tokenize_batch(*tokenizer, topts, inputs);
    } catch (const Error& e) {
      // Name the record: re-run one at a time to find it.
      for (std::size_t i = 0; i < n; ++i) {
        try {
          records::tokenize_batch(*tokenizer, topts, std::span(inputs).subspan(i, 1));
        } catch (const Error& inner) {
          throw Error(inner.kind(), fmt::format("{}: {}", batch[i].where(), inner.what()));
        }
      }
      throw;
    }
    if (table) {
      for (std::size_t i = 0; i < n; ++i) write_tsv_row(*table, batch[i], encodings[i], *tokenizer, renderer.chars);
    } else {
      rendered.assign(n, {});
      const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(dynamic, 16) if (count > 64)
      for (std::ptrdiff_t i = 0; i < count; ++i)
        rendered[static_cast<std::size_t>(i)] = renderer.render(batch[static_cast<std::size_t>(i)], encodings[static_cast<std::size_t>(i)]);
      for (const std::string& r : rendered) out.write(r);
    }
    out.flush();
  }
  const records::Utf8Report& utf8 = reader->utf8_report();
  if (utf8.records)
    records::warn("{}:{}: invalid UTF-8 replaced by U+FFFD ({} line{} in all; --strict refuses it)", utf8.first_source,
         utf8.first_line, utf8.records, utf8.records == 1 ? "" : "s");
  return 0;
}

}  // namespace

Action add_tokenize(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<TokenizeOptions>();
  sub.add_option("texts", o->texts, "Texts to tokenize (default: one per line from -i files or stdin)");
  // One file per -i, so a text after it is a text, not another file.
  sub.add_option("-i,--input", o->inputs, "Input file, one text per line (repeatable; - = stdin)")->allow_extra_args(false);
  sub.add_option("-o,--output", o->output, "Output file (- = stdout)")->capture_default_str();
  sub.add_flag("--pairs", o->pairs, "Each line is text<TAB>text_pair");
  sub.add_option("--input-format", o->input_format, "lines, csv, tsv, jsonl or auto (from the file name)")
      ->capture_default_str();
  sub.add_option("--column", o->column, "CSV/TSV column holding the text");
  sub.add_option("--pair-column", o->pair_column, "CSV/TSV column holding the second text");
  sub.add_option("--field", o->field, "JSONL field holding the text")->capture_default_str();
  sub.add_option("--pair-field", o->pair_field, "JSONL field holding the second text");
  add_tokenizer_flags(sub, o->tokenizer);
  sub.add_option("--format", o->format, "jsonl, tokens, ids or tsv")->capture_default_str();
  sub.add_option("--offsets", o->offsets, "Offsets in chars (code points) or bytes (UTF-8)")->capture_default_str();
  sub.add_flag("--count", o->count, "Print only the number of tokens of each input");
  sub.add_flag("--decode", o->decode, "Read ids (one sequence per line) and print the text");
  sub.add_flag("--skip-special-tokens", o->skip_special_tokens, "With --decode: leave out special tokens");
  sub.add_flag("--strict", o->strict, "Stop at invalid UTF-8 instead of replacing it");
  sub.add_option("--batch-size", o->batch_size, "Lines per batch (threads share a batch; --padding longest pads within it)")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  return [o] { return run_tokenize(*o); };
}

}  // namespace bertkit::cli
