// The record pipeline without a model: texts given as arguments, echo names, and what --on-error keeps.
#include "core/error.h"
#include "records_helpers.h"
#include "records/log.h"
#include "records/open_reader.h"
#include "records/record_pipeline.h"
#include "support.h"
#include "tokenizer/loader.h"

#include <doctest/doctest.h>

using namespace bertkit::records;
using iotest::read_all;

namespace {

bertkit::ErrorKind error_kind(const InputSpec& spec) {
  try {
    open_reader(spec);
  } catch (const bertkit::Error& e) {
    return e.kind();
  }
  return bertkit::ErrorKind::Runtime;
}

// Upper-cases each record's text into a `shout` field; a text "bad" is refused as the model would.
class ShoutTask : public RecordTask {
 public:
  std::vector<std::string> result_fields() const override { return {"shout"}; }
  bool tokenizes() const override { return false; }
  void compute(const Batch& batch) override {
    shouts_.clear();
    for (const Record& r : batch.records) {
      if (r.text == "bad") bertkit::bad_input("cannot shout that");
      std::string s = r.text;
      for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      shouts_.push_back(s);
    }
  }
  void write(const Batch& batch, std::size_t i, RecordOutput& out) override {
    out.results().begin(batch.records[i]).field("shout", shouts_[i]).end();
  }

 private:
  std::vector<std::string> shouts_;
};

}  // namespace

TEST_CASE("open_reader: texts given as arguments, two of them as one pair, and what they exclude") {
  InputSpec spec;
  spec.texts = {"a", "b"};
  auto records = read_all(*open_reader(spec));
  REQUIRE(records.size() == 2);
  CHECK(records[1].where() == "<argument>:2");
  spec.texts_pair = true;
  records = read_all(*open_reader(spec));
  REQUIRE(records.size() == 1);
  CHECK(records[0].text == "a");
  CHECK(records[0].text_pair == "b");
  spec.texts = {"a", "b", "c"};
  CHECK(error_kind(spec) == bertkit::ErrorKind::Usage);
  spec.texts = {"a"};
  spec.texts_pair = false;
  spec.paths = {"x.txt"};
  CHECK(error_kind(spec) == bertkit::ErrorKind::Usage);
  spec.paths.clear();
  spec.column = "text";
  spec.given.column = true;
  CHECK(error_kind(spec) == bertkit::ErrorKind::Usage);
  spec.column.clear();
  spec.given = {.field = true};
  CHECK(error_kind(spec) == bertkit::ErrorKind::Usage);
}

TEST_CASE("run_records: echo names, the records before a bad one kept (fail) or the bad one written with its error (skip)") {
  bktest::TempDir dir;
  const bertkit::tok::Tokenizer tokenizer(bertkit::tok::build_tokenizer_spec(bertkit::tok::builtin_tokenizer_files()));
  PipelineOptions options;
  options.input.paths = {iotest::write(dir / "in.txt", "hi\tthere\nbad\nyo\n").string()};
  options.input.pairs = false;
  options.input.options.on_bad_record = OnBadRecord::Flag;
  options.output.path = (dir / "out.jsonl").string();
  options.output.names.text = "question";
  options.output.names.pair = "context";
  options.output.names.shared_pair = "shared";
  options.batching = Batching::Full;
  ShoutTask task;
  try {
    run_records(options, tokenizer, task);
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::BadInput);
    CHECK(std::string(e.what()).ends_with("in.txt:2: cannot shout that"));
  }
  CHECK(bktest::read_file(dir / "out.jsonl") == "{\"question\":\"hi\\tthere\",\"context\":\"shared\",\"shout\":\"HI\\tTHERE\"}\n");

  options.on_error = OnError::Skip;
  set_quiet(true);
  CHECK(run_records(options, tokenizer, task) == 0);
  set_quiet(false);
  const auto lines = bktest::split_lines(bktest::read_file(dir / "out.jsonl"));
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].starts_with("{\"question\":\"bad\",\"context\":\"shared\",\"error\":\""));
  CHECK(lines[1].ends_with("in.txt:2: cannot shout that\"}"));
}
