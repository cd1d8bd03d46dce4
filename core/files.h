#pragma once
// Reading whole files, mapping them into memory, writing them atomically; errors name the file.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bertkit::core {

// The whole file as bytes; BadInput naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

// A read-only memory map of a whole file. Held through shared_ptr so tensor views can keep it alive.
class MappedFile {
 public:
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  MappedFile(std::filesystem::path path, const std::byte* data, std::size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  std::filesystem::path path_;
  const std::byte* data_;
  std::size_t size_;
};

// What a file renamed into place may replace: nothing, or a regular file (or a link to one). A device,
// FIFO, socket or folder there is refused (a usage error naming it) before anything is written: the
// rename would put a regular file in its place (as root, `bertkit convert M /dev/null` would replace
// the system's /dev/null).
void refuse_replacing_special_file(const std::filesystem::path& destination);

// An output file written completely or not at all: bytes go to a temporary file in the destination's
// folder, which commit() renames over the destination. Destroyed without commit(), or interrupted by
// SIGINT/SIGTERM/SIGHUP, it removes the temporary file; an existing destination is never touched, and
// one that is not a regular file is refused (refuse_replacing_special_file).
//
// Bytes reach the file in whole 2 MiB chunks at 2 MiB-aligned offsets: the page cache then holds the
// file in huge folios, and a process that maps it later faults it in 2 MiB at a time instead of 4 KiB
// (measured: touching all of a 134 MB model costs 2-5 ms instead of 60-130).
class AtomicFile {
 public:
  explicit AtomicFile(const std::filesystem::path& destination);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::span<const std::byte> bytes);
  std::uint64_t size() const { return written_ + chunk_.size(); }
  void commit();

 private:
  void flush();  // writes the pending chunk

  std::filesystem::path destination_;
  std::filesystem::path temp_;
  int fd_ = -1;
  std::uint64_t written_ = 0;  // by write(2)
  std::vector<std::byte> chunk_;  // the bytes not yet written, fewer than one chunk
};

}  // namespace bertkit::core
