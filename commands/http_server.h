#pragma once
// The HTTP/1.1 transport of `bertkit serve` (Boost.Beast, header-only: nothing is loaded at start-up
// by the commands that do not serve). A thread per connection (at most max_connections; past it a
// connection gets 503 and is closed), keep-alive, a body limit (413 past it, before the body is
// read), a read timeout against clients that stall, and a graceful stop: no new connection or
// request is taken, every request already read is answered, then run() returns.
//
//   HttpServer server({.host = "127.0.0.1", .port = 8080}, [&](const HttpRequest& r) { ... });
//   std::thread stopper([&] { wait_for_sigterm(); server.stop(); });
//   server.run();
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::cmd {

struct HttpRequest {
  std::string method;   // GET, POST, ...
  std::string path;     // the target without its query string
  std::string query;    // after '?', as sent
  std::string authorization;  // the Authorization header, as sent
  std::string content_type;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type and Content-Length
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (port() tells which)
  std::size_t max_body_bytes = std::size_t{2} << 20;
  std::size_t max_connections = 512;
  int read_timeout_s = 60;  // a connection silent this long (idle keep-alive, a stalled body) is closed
  // Builds the answer to each request the transport refuses itself (413 for a body past the limit, 400
  // for a malformed request, 431, 503 past max_connections) from its path (empty when unread), status and
  // message, so the application shapes and counts it as its own refusals; unset: {"error", "error_type"}.
  std::function<HttpResponse(const std::string& path, int status, const std::string& message)> refusal;
};

class HttpServer {
 public:
  // Binds and listens (a runtime error naming the address when it cannot).
  HttpServer(HttpOptions options, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  // Serves until stop(); returns once every connection has ended.
  void run();
  // From any thread: stop taking connections and requests; requests read already are answered.
  void stop();

 private:
  struct Connection;  // a connected socket
  void serve_connection(Connection& connection);
  // Counts a connection's thread out; run() waits for the last.
  void end_connection(int fd);

  HttpOptions options_;
  HttpHandler handler_;
  struct Listener;
  std::unique_ptr<Listener> listener_;
  std::uint16_t port_ = 0;
  int listen_fd_ = -1;  // the acceptor's descriptor, which stop() shuts from another thread
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable ended_;
  std::set<int> open_;  // the sockets of live connections, shut for reading by stop()
};

// The reason phrase of a status code ("Too Many Requests").
const char* http_reason(int status);

}  // namespace bertkit::cmd
