#pragma once
// What the interactive prompts' tests (fill-mask, ner) share: bertkit run on a pseudo-terminal.
#include <doctest/doctest.h>

#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace bktest {

// A child process on a pseudo-terminal: what it prints is collected until a marker appears.
class PtyChild {
 public:
  explicit PtyChild(const std::vector<std::string>& args) {
    std::vector<std::string> store{BERTKIT_BINARY};
    store.insert(store.end(), args.begin(), args.end());
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      std::vector<char*> argv;
      for (auto& a : store) argv.push_back(a.data());
      argv.push_back(nullptr);
      setenv("TERM", "dumb", 1);
      execv(BERTKIT_BINARY, argv.data());
      _exit(127);
    }
  }
  ~PtyChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  // Keys typed before the line editor has put the terminal in raw mode would be read by the
  // kernel's canonical line discipline instead (its own erase and echo): wait for raw mode first.
  void type(const std::string& keys) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    termios mode{};
    while (tcgetattr(fd_, &mode) == 0 && (mode.c_lflag & ICANON) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(write(fd_, keys.data(), keys.size()) == static_cast<ssize_t>(keys.size()));
  }

  // Reads until `marker` has appeared `times` times in everything read so far (or the child ends).
  // The deadline only stops a hung child from hanging the test suite.
  bool wait_for(const std::string& marker, std::size_t times = 1) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (count(marker) < times) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      char buf[4096];
      ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) return count(marker) >= times;  // EIO: the child closed the terminal
      seen_.append(buf, static_cast<std::size_t>(n));
    }
    return true;
  }

  int exit_code() {
    int status = 0;
    REQUIRE(waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  const std::string& seen() const { return seen_; }

 private:
  std::size_t count(const std::string& marker) const {
    std::size_t n = 0;
    for (auto at = seen_.find(marker); at != std::string::npos; at = seen_.find(marker, at + 1)) ++n;
    return n;
  }

  int fd_ = -1;
  pid_t pid_ = -1;
  std::string seen_;
};

}  // namespace bktest
