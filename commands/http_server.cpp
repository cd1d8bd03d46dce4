#include "commands/http_server.h"

#include "core/error.h"
#include "core/setting.h"
#include "records/json_line.h"

#include <fmt/format.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <thread>

namespace bertkit::cmd {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t kHeaderLimit = 16 * 1024;

void set_timeouts(int fd, int seconds) {
  timeval tv{};
  tv.tv_sec = seconds;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

http::response<http::string_body> to_beast(const HttpResponse& r, unsigned version, bool keep_alive) {
  http::response<http::string_body> out{static_cast<http::status>(r.status), version};
  out.set(http::field::server, "bertkit");
  if (!r.content_type.empty()) out.set(http::field::content_type, r.content_type);
  for (const auto& [name, value] : r.headers) out.set(name, value);
  out.body() = r.body;
  out.keep_alive(keep_alive);
  out.prepare_payload();
  return out;
}

// A refusal when no HttpOptions::refusal shapes it: TEI's error shape.
HttpResponse plain_error(int status, const std::string& message) {
  HttpResponse r;
  r.status = status;
  records::JsonLine j;
  j.begin_object().field("error", message).field("error_type", status == 503 ? "Overloaded" : "Validation").end_object();
  r.body = std::string(j.line());
  if (r.body.back() == '\n') r.body.pop_back();
  if (status == 503) r.headers.emplace_back("Retry-After", "1");
  return r;
}

// Answers and closes: the client may still be sending a body nobody will read, so the connection is
// shut for writing and what comes is read away (briefly), or a reset could destroy the answer unread.
void answer_and_close(tcp::socket& socket, const HttpResponse& response) {
  beast::error_code ec;
  http::write(socket, to_beast(response, 11, false), ec);
  socket.shutdown(tcp::socket::shutdown_send, ec);
  set_timeouts(socket.native_handle(), 1);
  char sink[16384];
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < until && socket.read_some(asio::buffer(sink), ec) > 0 && !ec) {
  }
}

}  // namespace

struct HttpServer::Connection {
  tcp::socket socket;
};

struct HttpServer::Listener {
  asio::io_context io;
  tcp::acceptor acceptor{io};
};

HttpServer::HttpServer(HttpOptions options, HttpHandler handler)
    : options_(std::move(options)), handler_(std::move(handler)), listener_(std::make_unique<Listener>()) {
  beast::error_code ec;
  const auto address = asio::ip::make_address(options_.host, ec);
  if (ec) usage_error("{} {}: not an IP address ({})", Setting::Host, options_.host, ec.message());
  const tcp::endpoint endpoint(address, options_.port);
  tcp::acceptor& a = listener_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) runtime_error("cannot listen on {}:{}: {}", options_.host, options_.port, ec.message());
  port_ = a.local_endpoint().port();
  listen_fd_ = a.native_handle();
}

HttpServer::~HttpServer() = default;

void HttpServer::run() {
  tcp::acceptor& acceptor = listener_->acceptor;
  while (!stopping_) {
    tcp::socket socket(listener_->io);
    beast::error_code ec;
    acceptor.accept(socket, ec);
    if (stopping_) break;
    if (ec) {
      // Out of descriptors or a connection reset before it was taken: wait a moment, go on.
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const int fd = socket.native_handle();
    {
      std::lock_guard lock(mutex_);
      if (open_.size() < options_.max_connections) {
        open_.insert(fd);
        std::thread([this, c = Connection{std::move(socket)}]() mutable {
          const int own = c.socket.native_handle();
          serve_connection(c);
          beast::error_code ignored;
          c.socket.shutdown(tcp::socket::shutdown_both, ignored);
          c.socket.close(ignored);
          end_connection(own);
        }).detach();
        continue;
      }
    }
    const std::string message = fmt::format("too many connections (at most {})", options_.max_connections);
    answer_and_close(socket, options_.refusal ? options_.refusal("", 503, message) : plain_error(503, message));
  }
  // The acceptor stays open until the destructor: stop() may still be shutting its descriptor.
  std::unique_lock lock(mutex_);
  ended_.wait(lock, [&] { return open_.empty(); });
}

void HttpServer::stop() {
  stopping_ = true;
  // Wakes the blocked accept(); the connections' blocked reads end, their answers still go out.
  ::shutdown(listen_fd_, SHUT_RDWR);
  std::lock_guard lock(mutex_);
  for (int fd : open_) ::shutdown(fd, SHUT_RD);
}

void HttpServer::end_connection(int fd) {
  std::lock_guard lock(mutex_);
  open_.erase(fd);
  ended_.notify_all();
}

void HttpServer::serve_connection(Connection& connection) {
  tcp::socket& socket = connection.socket;
  beast::error_code ec;
  set_timeouts(socket.native_handle(), options_.read_timeout_s);
  beast::flat_buffer buffer;
  while (!stopping_) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(options_.max_body_bytes);
    http::read_header(socket, buffer, parser, ec);
    const std::string body_limit_message =
        fmt::format("request body larger than the server's limit of {} bytes ({})", options_.max_body_bytes, Setting::MaxBodyBytes);
    auto refuse = [&](int status, const std::string& message) {
      if (!options_.refusal) return answer_and_close(socket, plain_error(status, message));
      const auto target = parser.get().target();  // read with the request line, before the limits' checks
      const std::string_view t(target.data(), target.size());
      answer_and_close(socket, options_.refusal(std::string(t.substr(0, t.find('?'))), status, message));
    };
    if (ec == http::error::body_limit) {
      refuse(413, body_limit_message);
      break;
    }
    if (ec == http::error::header_limit) {
      refuse(431, "request headers too large");
      break;
    }
    if (ec) {
      if (ec != http::error::end_of_stream && ec != asio::error::eof && buffer.size() > 0) refuse(400, "malformed HTTP request");
      break;
    }
    if (beast::iequals(parser.get()[http::field::expect], "100-continue")) {
      http::response<http::empty_body> go{http::status::continue_, 11};
      http::write(socket, go, ec);
      if (ec) break;
    }
    http::read(socket, buffer, parser, ec);
    if (ec == http::error::body_limit) {
      refuse(413, body_limit_message);
      break;
    }
    if (ec) {
      if (ec != http::error::end_of_stream && ec != asio::error::eof) refuse(400, "malformed HTTP request");
      break;
    }
    http::request<http::string_body> request = parser.release();
    HttpRequest r;
    r.method = std::string(request.method_string());
    const std::string_view target(request.target().data(), request.target().size());
    const std::size_t q = target.find('?');
    r.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) r.query = std::string(target.substr(q + 1));
    r.authorization = std::string(request[http::field::authorization]);
    r.content_type = std::string(request[http::field::content_type]);
    r.body = std::move(request.body());
    HttpResponse response;
    try {
      response = handler_(r);
    } catch (const std::exception&) {
      response = plain_error(500, "internal error");
    }
    const bool keep_alive = request.keep_alive() && !stopping_;
    auto out = to_beast(response, request.version(), keep_alive);
    if (request.method() == http::verb::head) out.body().clear();  // the headers of GET's answer, Content-Length included
    http::write(socket, out, ec);
    if (ec || !keep_alive) break;
  }
}

const char* http_reason(int status) {
  return http::obsolete_reason(static_cast<http::status>(status)).data();
}

}  // namespace bertkit::cmd
