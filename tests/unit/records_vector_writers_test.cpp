#include "records/vector_writers.h"
#include "core/error.h"
#include "support.h"

#include <doctest/doctest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstring>
#include <regex>
#include <vector>

using namespace bertkit::records;
using bertkit::records::RecordWriter;

namespace {

// A minimal .npy reader, written from the format description, to check what NpyWriter produces.
struct WrittenNpy {
  std::vector<std::size_t> shape;
  std::vector<float> data;
};

WrittenNpy parse_written_npy(const std::string& bytes) {
  REQUIRE(bytes.size() >= 10);
  REQUIRE(bytes.substr(0, 6) == "\x93NUMPY");
  CHECK(bytes[6] == 1);  // version 1.0
  CHECK(bytes[7] == 0);
  std::size_t header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
  std::size_t data_start = 10 + header_len;
  CHECK(data_start % 64 == 0);
  REQUIRE(bytes.size() >= data_start);
  std::string dict = bytes.substr(10, header_len);
  CHECK(dict.back() == '\n');
  std::smatch m;
  REQUIRE(std::regex_match(dict, m,
                           std::regex(R"(\{'descr': '<f4', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \} *\n)")));
  WrittenNpy npy;
  npy.shape = {std::stoul(m[1]), std::stoul(m[2])};
  std::size_t count = npy.shape[0] * npy.shape[1];
  REQUIRE(bytes.size() - data_start >= count * 4);  // trailing bytes past the header's rows are ignored
  npy.data.resize(count);
  if (count) std::memcpy(npy.data.data(), bytes.data() + data_start, count * 4);
  return npy;
}

std::vector<float> row(std::size_t i, std::size_t dim) {
  std::vector<float> v(dim);
  for (std::size_t k = 0; k < dim; ++k) v[k] = static_cast<float>(i) + static_cast<float>(k) / 8.0f;
  return v;
}

}  // namespace

TEST_CASE("npy writer: a valid (N, D) float32 file after every flush") {
  bktest::TempDir dir;
  auto path = dir / "emb.npy";
  const std::size_t dim = 5;
  {
    RecordWriter out(path.string());
    NpyWriter npy(out, dim);
    WrittenNpy empty = parse_written_npy(bktest::read_file(path));
    CHECK(empty.shape == std::vector<std::size_t>{0, dim});
    for (std::size_t batch = 0; batch < 3; ++batch) {
      for (std::size_t i = 0; i < 4; ++i) npy.append(row(batch * 4 + i, dim));
      npy.flush();
      WrittenNpy now = parse_written_npy(bktest::read_file(path));
      CHECK(now.shape == std::vector<std::size_t>{(batch + 1) * 4, dim});
    }
    npy.append(row(12, dim));  // written by the destructors
  }
  WrittenNpy final = parse_written_npy(bktest::read_file(path));
  REQUIRE(final.shape == std::vector<std::size_t>{13, dim});
  for (std::size_t i = 0; i < 13; ++i)
    CHECK(std::vector<float>(final.data.begin() + i * dim, final.data.begin() + (i + 1) * dim) == row(i, dim));
  CHECK(std::filesystem::file_size(path) == 128 + 13 * dim * 4);
}

TEST_CASE("npy writer: the header holds large shapes and refuses stdout") {
  std::string h = NpyWriter::header(18446744073709551615u, 18446744073709551615u);
  CHECK(h.size() == 128);
  CHECK(h.find("'shape': (18446744073709551615, 18446744073709551615), }") != std::string::npos);
  CHECK(h.back() == '\n');
  CHECK(parse_written_npy(NpyWriter::header(0, 768)).shape == std::vector<std::size_t>{0, 768});
  RecordWriter out("-");
  try {
    NpyWriter npy(out, 4);
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::Usage);
  }
}

TEST_CASE("npy writer: a full disk leaves a valid file with the complete rows") {
  bktest::TempDir dir;
  auto path = dir / "full.npy";
  const std::size_t dim = 256;  // 1 KiB rows
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // past the limit write() fails with EFBIG
  rlimit old_limit{};
  getrlimit(RLIMIT_FSIZE, &old_limit);
  rlimit limit = old_limit;
  limit.rlim_cur = 128 + 1024 * 10 + 100;  // room for 10 rows and a bit
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
  std::string message;
  {
    RecordWriter out(path.string());
    NpyWriter npy(out, dim);
    try {
      for (std::size_t batch = 0; batch < 10; ++batch) {
        for (std::size_t i = 0; i < 4; ++i) npy.append(row(batch * 4 + i, dim));
        npy.flush();
      }
    } catch (const bertkit::Error& e) {
      message = e.what();
    }
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK(message.find("cannot write " + path.string()) == 0);
  WrittenNpy npy = parse_written_npy(bktest::read_file(path));
  CHECK(npy.shape == std::vector<std::size_t>{8, dim});  // two whole batches fit, the third did not
  CHECK(std::filesystem::file_size(path) == 128 + 8 * 1024);
  for (std::size_t i = 0; i < 8; ++i)
    CHECK(std::vector<float>(npy.data.begin() + i * dim, npy.data.begin() + (i + 1) * dim) == row(i, dim));
}

TEST_CASE("raw f32 writer: rows of little-endian floats, nothing else") {
  bktest::TempDir dir;
  auto path = dir / "emb.f32";
  {
    RecordWriter out(path.string());
    RawF32Writer f32(out, 3);
    f32.append(row(0, 3));
    f32.append(row(1, 3));
  }
  std::string bytes = bktest::read_file(path);
  REQUIRE(bytes.size() == 24);
  std::vector<float> back(6);
  std::memcpy(back.data(), bytes.data(), 24);
  CHECK(std::vector<float>(back.begin(), back.begin() + 3) == row(0, 3));
  CHECK(std::vector<float>(back.begin() + 3, back.end()) == row(1, 3));
  CHECK(bytes.substr(0, 4) == std::string("\x00\x00\x00\x00", 4));
  CHECK(bytes.substr(4, 4) == std::string("\x00\x00\x00\x3e", 4));  // 0.125f, little-endian
}
