#pragma once
// Helpers for the records/ tests: files with given bytes, stdin redirected, all records of a reader, the
// message of a bad-input error.
#include "records/record_reader.h"
#include "core/error.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace iotest {

inline std::filesystem::path write(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path.string());
  return path;
}

inline std::vector<bertkit::records::Record> read_all(bertkit::records::RecordReader& reader) {
  std::vector<bertkit::records::Record> records;
  bertkit::records::Record record;
  while (reader.next(record)) records.push_back(record);
  return records;
}

// What f throws, which must be bad input; "(no error)" when it throws nothing.
inline std::string bad_input_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::BadInput);
    return e.what();
  }
  return "(no error)";
}

// Points fd 0 at another descriptor for the lifetime of the object.
class StdinFrom {
 public:
  explicit StdinFrom(int fd) : saved_(::dup(0)) {
    if (saved_ < 0 || ::dup2(fd, 0) < 0) throw std::runtime_error("cannot redirect stdin");
  }
  ~StdinFrom() {
    ::dup2(saved_, 0);
    ::close(saved_);
  }
  StdinFrom(const StdinFrom&) = delete;
  StdinFrom& operator=(const StdinFrom&) = delete;

 private:
  int saved_;
};

}  // namespace iotest
