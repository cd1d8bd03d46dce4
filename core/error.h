#pragma once
// One error type for the whole program. The kind decides the exit code, so every layer can report a
// failure where it finds it and the CLI maps it without guessing.
#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace bertkit {

enum class ErrorKind : int {
  Runtime = 1,   // the machine or the environment failed (I/O error, out of memory, ...)
  Usage = 2,     // the command line is wrong
  BadInput = 3,  // a file, record or model the user gave is malformed or unsupported
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  int exit_code() const noexcept { return static_cast<int>(kind_); }

 private:
  ErrorKind kind_;
};

template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(kind, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
[[noreturn]] void bad_input(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(ErrorKind::BadInput, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
[[noreturn]] void usage_error(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(ErrorKind::Usage, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
[[noreturn]] void runtime_error(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(ErrorKind::Runtime, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace bertkit
