// Inputs that are not plain text: gzip is read through (any reader, file or pipe), other binary formats
// are refused by name instead of being tokenized as U+FFFD garbage.
#include "records/input_signature.h"
#include "records/open_reader.h"
#include "core/error.h"
#include "fuzz/gzip_bytes.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>

#include <thread>

using namespace bertkit::records;
using iotest::read_all;
using bkfuzz::gzip_bytes;
using iotest::write;

namespace {

std::vector<std::string> texts_of(const std::vector<Record>& records) {
  std::vector<std::string> texts;
  for (const Record& r : records) texts.push_back(r.text);
  return texts;
}

std::string error_of(const InputSpec& spec, bertkit::ErrorKind& kind) {
  try {
    auto reader = open_reader(spec);
    read_all(*reader);
  } catch (const bertkit::Error& e) {
    kind = e.kind();
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sniff_input: whole signatures decide, text that begins like one is text") {
  CHECK(sniff_input("\x1f\x8b\x08\x00").kind == InputKind::Gzip);
  CHECK(sniff_input(std::string_view("\x28\xb5\x2f\xfd\x04", 5)).format == "zstd-compressed data");
  CHECK(sniff_input(std::string_view("\xfd\x37\x7a\x58\x5a\x00\x00", 7)).format == "xz-compressed data");
  CHECK(sniff_input("BZh91AY&SY\x12").format == "bzip2-compressed data");
  CHECK(sniff_input("BZh9\x17\x72\x45\x38\x50\x90").format == "bzip2-compressed data");  // empty bzip2
  CHECK(sniff_input("PK\x03\x04\x14").format == "a zip archive (or .npz, .xlsx, .docx)");
  CHECK(sniff_input("PAR1\x15\x04").format == "a Parquet file");
  CHECK(sniff_input("\x93NUMPY\x01\x00").format == "a NumPy array (.npy)");
  CHECK(sniff_input("PAR1\x15").kind == InputKind::Binary);

  CHECK(sniff_input("PAR1 is a gene\n").kind == InputKind::Text);
  CHECK(sniff_input("BZh9 is not bzip2\n").kind == InputKind::Text);
  CHECK(sniff_input("Hello, world!\n").kind == InputKind::Text);
  CHECK(sniff_input("P\n").kind == InputKind::Text);
  CHECK(sniff_input("").kind == InputKind::Text);
  // Too short to tell: the caller reads more (or, at the end of the input, takes it as text).
  CHECK(sniff_input("PAR").kind == InputKind::NeedMore);
  CHECK(sniff_input("BZh9").kind == InputKind::NeedMore);
  CHECK(sniff_input("\x1f").kind == InputKind::NeedMore);
}

TEST_CASE("a gzip input reads as its text: lines, CSV by its .csv.gz name, concatenated members, chunks") {
  bktest::TempDir dir;
  std::vector<std::string> lines;
  std::string text;
  for (int i = 0; i < 40000; ++i) {  // ~0.9 MB of text: several buffers, compressed and not
    lines.push_back("line " + std::to_string(i) + " of text, caf\xc3\xa9");
    text += lines.back() + "\n";
  }
  InputSpec spec;
  spec.paths = {write(dir / "a.txt.gz", gzip_bytes(text)).string()};
  CHECK(texts_of(read_all(*open_reader(spec))) == lines);

  std::string half = text.substr(0, text.size() / 2);
  half.resize(half.rfind('\n') + 1);
  spec.paths = {write(dir / "two.gz", gzip_bytes(half) + gzip_bytes(text.substr(half.size()))).string()};
  CHECK(texts_of(read_all(*open_reader(spec))) == lines);

  spec = {};
  spec.paths = {write(dir / "t.CSV.gz", gzip_bytes("id,text\n1,\"a, b\"\n2,c\n")).string()};
  spec.column = "text";
  auto csv = open_reader(spec);
  REQUIRE(csv->table() != nullptr);
  CHECK(texts_of(read_all(*csv)) == std::vector<std::string>{"a, b", "c"});
}

TEST_CASE("a gzip input on stdin (a pipe) reads as its text") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::string bytes = gzip_bytes("first\nsecond\n");
  std::thread writer([&] {
    CHECK(::write(fds[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    ::close(fds[1]);
  });
  {
    iotest::StdinFrom stdin_from(fds[0]);
    InputSpec spec;
    CHECK(texts_of(read_all(*open_reader(spec))) == std::vector<std::string>{"first", "second"});
  }
  writer.join();
  ::close(fds[0]);
}

TEST_CASE("damaged or truncated gzip, and binary formats, are bad input naming the file and what it is") {
  bktest::TempDir dir;
  std::string good = gzip_bytes("some text\nmore text\n");
  bertkit::ErrorKind kind{};
  InputSpec spec;

  spec.paths = {write(dir / "cut.gz", good.substr(0, good.size() - 6)).string()};
  CHECK(error_of(spec, kind) == spec.paths[0] + ": the gzip data ends before its end (is the file truncated?)");
  CHECK(kind == bertkit::ErrorKind::BadInput);

  std::string damaged = good;
  damaged[12] = static_cast<char>(damaged[12] ^ 0x55);
  damaged[13] = static_cast<char>(damaged[13] ^ 0x55);
  spec.paths = {write(dir / "bad.gz", damaged).string()};
  CHECK(error_of(spec, kind).starts_with(spec.paths[0] + ": damaged gzip data ("));
  CHECK(kind == bertkit::ErrorKind::BadInput);

  spec.paths = {write(dir / "tail.gz", good + "not gzip").string()};
  CHECK(error_of(spec, kind).starts_with(spec.paths[0] + ": damaged gzip data ("));

  spec.paths = {write(dir / "data.parquet", std::string("PAR1\x15\x04\x15\x80\x01PAR1", 13)).string()};
  CHECK(error_of(spec, kind) ==
        spec.paths[0] + ": this is a Parquet file, not text: export the text column first (e.g. to CSV or JSONL)");
  CHECK(kind == bertkit::ErrorKind::BadInput);

  spec.paths = {write(dir / "x.zst", std::string("\x28\xb5\x2f\xfd\x24\x00", 6)).string()};
  CHECK(error_of(spec, kind) ==
        spec.paths[0] + ": this is zstd-compressed data, not text: decompress it first (zstd -dc FILE | bertkit ...)");

  spec.paths = {write(dir / "gene.txt", "PAR1 is a gene\n").string()};
  CHECK(texts_of(read_all(*open_reader(spec))) == std::vector<std::string>{"PAR1 is a gene"});
}
