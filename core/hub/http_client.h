#pragma once
// HTTP(S) requests through libcurl (the system's CA certificates): one request, its status and
// headers, the body kept or streamed. What the Hub download needs and no more.
#include "core/error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace bertkit::core {

// No answer at all (no network, refused, timed out) or a transfer broken part way; Runtime (exit 1).
class NetworkError : public Error {
 public:
  NetworkError(std::string message, bool broken_transfer)
      : Error(ErrorKind::Runtime, std::move(message)), broken_transfer_(broken_transfer) {}
  bool broken_transfer() const { return broken_transfer_; }  // bytes came, then the connection failed

 private:
  bool broken_transfer_;
};

struct HttpRequest {
  std::string url;
  bool head = false;
  bool follow_redirects = false;
  std::vector<std::string> headers;  // "Name: value"
  std::uint64_t range_from = 0;      // > 0: "Range: bytes=N-"
  long stall_seconds = 10;           // no byte for this long fails the request
  // The body of a 2xx answer goes here when set (with the status: 200 or 206); else into HttpReply::body.
  std::function<void(std::span<const std::byte> bytes, long status)> sink;
};

struct HttpReply {
  long status = 0;
  std::map<std::string, std::string> headers;  // of the last response, names in lower case
  std::string body;
  std::string header(const std::string& lower_name) const;  // "" when absent
};

// Throws NetworkError when no complete answer came.
HttpReply http_send(const HttpRequest& request);

// `text` with every byte but A-Z a-z 0-9 - . _ ~ (and '/' when `keep_slash`) written as %XX.
std::string url_quote(std::string_view text, bool keep_slash);

}  // namespace bertkit::core
