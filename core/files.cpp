#include "core/files.h"

#include "core/error.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

namespace bertkit::core {

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) bad_input("{}: is a folder, not a file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) bad_input("{}: cannot open: {}", path.string(), std::strerror(errno));
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) runtime_error("{}: cannot read", path.string());
  return std::move(out).str();
}

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) bad_input("{}: cannot open: {}", path.string(), std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    bad_input("{}: not a regular file", path.string());
  }
  auto size = static_cast<std::size_t>(st.st_size);
  const std::byte* data = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      runtime_error("{}: cannot map into memory: {}", path.string(), std::strerror(err));
    }
    // Read from disk, the file then lands in the page cache as huge folios (see AtomicFile), which the
    // next process maps 2 MiB at a time instead of 4 KiB. Only advice: no error.
    ::madvise(p, size, MADV_HUGEPAGE);
    data = static_cast<const std::byte*>(p);
  }
  ::close(fd);  // the mapping stays valid without the descriptor
  return std::shared_ptr<const MappedFile>(new MappedFile(path, data, size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

namespace {

// The temporary file being written, for the signal handler (one AtomicFile at a time is enough for the
// CLI). A fixed buffer: the handler may only call async-signal-safe functions.
char g_temp_path[PATH_MAX];
std::atomic<bool> g_temp_active{false};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3];

// Removes the partial file, then dies of the signal as the default action would.
extern "C" void remove_temp_and_reraise(int sig) {
  if (g_temp_active.load()) ::unlink(g_temp_path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void set_cleanup(const std::filesystem::path& temp) {
  std::string s = temp.string();
  if (s.size() >= sizeof g_temp_path) return;
  std::memcpy(g_temp_path, s.c_str(), s.size() + 1);
  g_temp_active = true;
  struct sigaction action {};
  action.sa_handler = remove_temp_and_reraise;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &action, &g_previous[i]);
}

// Puts back whatever handlers the program had (the CLI's own Ctrl-C handling, for instance).
void clear_cleanup() {
  if (!g_temp_active.exchange(false)) return;
  for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
}

}  // namespace

void refuse_replacing_special_file(const std::filesystem::path& destination) {
  struct stat st {};
  if (::stat(destination.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode)                            ? "a folder"
                     : S_ISFIFO(st.st_mode)                         ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                    : "not a regular file";
  usage_error("{} is {}: a file is written aside and renamed into place, which would replace it; write to a "
              "regular file", destination.string(), kind);
}

AtomicFile::AtomicFile(const std::filesystem::path& destination) : destination_(destination) {
  refuse_replacing_special_file(destination);
  auto folder = destination.parent_path().empty() ? std::filesystem::path(".") : destination.parent_path();
  std::string name = destination.filename().string();
  name.insert(0, 1, '.');  // not "." + name: GCC 12 gives a false -Wrestrict warning on that
  std::string pattern = (folder / (name + ".tmp-XXXXXX")).string();
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) runtime_error("{}: cannot create a temporary file in {}: {}", destination.string(), folder.string(), std::strerror(errno));
  temp_ = pattern;
  ::fchmod(fd_, 0644);
  set_cleanup(temp_);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
    clear_cleanup();
  }
}

namespace {
constexpr std::size_t kChunkBytes = std::size_t{2} << 20;
}  // namespace

void AtomicFile::write(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const std::size_t n = std::min(bytes.size(), kChunkBytes - chunk_.size());
    chunk_.insert(chunk_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    bytes = bytes.subspan(n);
    if (chunk_.size() == kChunkBytes) flush();
  }
}

void AtomicFile::flush() {
  const std::byte* p = chunk_.data();
  std::size_t n = chunk_.size();
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) runtime_error("{}: write failed: {}", destination_.string(), std::strerror(errno));
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  written_ += chunk_.size();
  chunk_.clear();
}

void AtomicFile::commit() {
  flush();
  if (::fsync(fd_) != 0) runtime_error("{}: cannot flush to disk: {}", destination_.string(), std::strerror(errno));
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(temp_.c_str());
    clear_cleanup();
    runtime_error("{}: cannot close: {}", destination_.string(), std::strerror(errno));
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), destination_.c_str()) != 0) {
    int err = errno;
    ::unlink(temp_.c_str());
    clear_cleanup();
    runtime_error("{}: cannot rename the finished file into place: {}", destination_.string(), std::strerror(err));
  }
  clear_cleanup();
}

}  // namespace bertkit::core
