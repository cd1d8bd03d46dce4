#pragma once
// `bertkit serve` started by a test on 127.0.0.1 (a free port it reports), and an HTTP client for it
// (Boost.Beast, as the server): each test starts its own server, bounded in time, and stops it.
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace bktest {

struct HttpReply {
  int status = 0;  // 0: no answer (the connection failed)
  std::string body;
  std::string content_type, retry_after;
};

// One HTTP/1.1 connection, kept alive across requests.
class HttpClient {
 public:
  explicit HttpClient(int port) : socket_(io_) {
    boost::beast::error_code ec;
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)}, ec);
    connected_ = !ec;
  }
  bool connected() const { return connected_; }

  HttpReply request(const std::string& method, const std::string& target, const std::string& body = "",
                    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    namespace http = boost::beast::http;
    HttpReply reply;
    if (!connected_) return reply;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    for (const auto& [name, value] : headers) req.set(name, value);
    req.body() = body;
    req.prepare_payload();
    boost::beast::error_code ec;
    http::write(socket_, req, ec);
    if (ec) return connected_ = false, reply;
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::size_t{1} << 30);
    http::read(socket_, buffer_, parser, ec);
    if (ec) return connected_ = false, reply;
    const auto& res = parser.get();
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    reply.content_type = std::string(res[http::field::content_type]);
    reply.retry_after = std::string(res[http::field::retry_after]);
    if (!res.keep_alive()) connected_ = false;
    return reply;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  bool connected_ = false;
};

// A request on a connection of its own.
inline HttpReply http_request(int port, const std::string& method, const std::string& target, const std::string& body = "",
                              const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  HttpClient client(port);
  return client.request(method, target, body, headers);
}

class ServeChild {
 public:
  // `bertkit serve ARGS --port 0`; waits (up to 60 s) for the line naming the port.
  explicit ServeChild(const std::vector<std::string>& args) {
    std::signal(SIGPIPE, SIG_IGN);
    int err[2];
    REQUIRE(pipe(err) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addclose(&actions, err[0]);
    posix_spawn_file_actions_addclose(&actions, err[1]);
    std::vector<std::string> store{BERTKIT_BINARY, "serve", "--port", "0"};
    store.insert(store.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : store) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, BERTKIT_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(err[1]);
    err_ = err[0];
    REQUIRE(rc == 0);
    const std::string marker = "listening on http://127.0.0.1:";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (port_ == 0 && read_stderr(deadline)) {
      const auto at = stderr_.find(marker);
      if (at != std::string::npos && stderr_.find(' ', at + marker.size()) != std::string::npos)
        port_ = std::stoi(stderr_.substr(at + marker.size()));
    }
    INFO("stderr: " << stderr_);
    REQUIRE(port_ > 0);
  }
  ~ServeChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (err_ >= 0) close(err_);
  }
  ServeChild(const ServeChild&) = delete;
  ServeChild& operator=(const ServeChild&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  void signal(int sig) const { kill(pid_, sig); }
  // Waits (up to `limit`) for the server to exit: its exit status, or nothing (then it is killed).
  std::optional<int> wait_exit(std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      read_stderr(std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        while (read_stderr(std::chrono::steady_clock::now() + std::chrono::milliseconds(20))) {
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return std::nullopt;
  }
  // Resident memory now, in KiB (/proc/PID/status VmRSS).
  long rss_kib() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
  }
  const std::string& stderr_text() const { return stderr_; }

 private:
  // Reads what stderr has until `deadline`; false at its end or the deadline.
  bool read_stderr(std::chrono::steady_clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{err_, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[4096];
    const ssize_t n = read(err_, buf, sizeof buf);
    if (n <= 0) return false;
    stderr_.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int err_ = -1;
  int port_ = 0;
  std::string stderr_;
};

}  // namespace bktest
