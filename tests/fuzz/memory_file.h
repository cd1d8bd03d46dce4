#pragma once
// The fuzz input as a file the readers can open by path: an in-memory file (memfd), named through
// /proc/self/fd, so each run costs no disk.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace bkfuzz {

class MemoryFile {
 public:
  MemoryFile(const std::uint8_t* data, std::size_t size) : fd_(::memfd_create("bertkit-fuzz", 0)) {
    if (fd_ < 0) std::abort();
    for (std::size_t done = 0; done < size;) {
      ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

// A reader target's input: its first byte is the knobs that pick the options, the rest the file read.
// Call with size > 0.
struct KnobbedFile {
  KnobbedFile(const std::uint8_t* data, std::size_t size) : knobs(data[0]), file(data + 1, size - 1) {}
  const std::uint8_t knobs;
  MemoryFile file;
};

}  // namespace bkfuzz
