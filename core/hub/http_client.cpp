#include "core/hub/http_client.h"

#include "core/hub/curl_library.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <memory>

namespace bertkit::core {

namespace {

struct Transfer {
  const CurlLibrary* lib;
  const HttpRequest* request;
  HttpReply* reply;
  CURL* curl;
  std::uint64_t body_bytes = 0;
  std::exception_ptr failure;  // of the sink
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.starts_with("HTTP/")) {
    t->reply->headers.clear();  // a redirect's headers make way for the next response's
  } else if (auto colon = line.find(':'); colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::size_t start = colon + 1;
    while (start < line.size() && line[start] == ' ') ++start;
    t->reply->headers[name] = line.substr(start);
  }
  return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  long status = 0;
  t->lib->easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
  const std::size_t n = size * count;
  try {
    if (t->request->sink && status >= 200 && status < 300)
      t->request->sink(std::as_bytes(std::span(data, n)), status);
    else
      t->reply->body.append(data, n);
  } catch (...) {
    t->failure = std::current_exception();  // a failing sink (full disk) ends the transfer
    return 0;
  }
  t->body_bytes += n;
  return n;
}

}  // namespace

std::string HttpReply::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string url_quote(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || (keep_slash && c == '/')) out += static_cast<char>(c);
    else out += {'%', kHex[c >> 4], kHex[c & 15]};
  }
  return out;
}

HttpReply http_send(const HttpRequest& request) {
  const CurlLibrary& lib = curl_library();
  std::unique_ptr<CURL, void (*)(CURL*)> curl(lib.easy_init(), lib.easy_cleanup);
  if (!curl) runtime_error("cannot start libcurl");
  HttpReply reply;
  Transfer t{&lib, &request, &reply, curl.get(), 0, nullptr};
  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = lib.slist_append(headers, h.c_str());
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(headers, lib.slist_free_all);
  char error[CURL_ERROR_SIZE] = "";

  CURL* c = curl.get();
  lib.easy_setopt(c, CURLOPT_URL, request.url.c_str());
  lib.easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  lib.easy_setopt(c, CURLOPT_USERAGENT, "bertkit/" BERTKIT_VERSION);
  lib.easy_setopt(c, CURLOPT_NOBODY, request.head ? 1L : 0L);
  // Redirects to another host (the Hub's large files) do not carry the Authorization header: libcurl
  // sends custom credentials to the first host only.
  lib.easy_setopt(c, CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
  lib.easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
  lib.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, request.stall_seconds);
  lib.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  lib.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, request.stall_seconds);
  lib.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  lib.easy_setopt(c, CURLOPT_HEADERDATA, &t);
  lib.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  lib.easy_setopt(c, CURLOPT_WRITEDATA, &t);
  lib.easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  lib.easy_setopt(c, CURLOPT_BUFFERSIZE, 512L * 1024);
  const std::string range = std::to_string(request.range_from) + "-";
  if (request.range_from > 0) lib.easy_setopt(c, CURLOPT_RANGE, range.c_str());

  const CURLcode code = lib.easy_perform(c);
  lib.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  if (code != CURLE_OK) {
    std::string why = *error ? error : lib.easy_strerror(code);
    const bool broken = t.body_bytes > 0 || code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR;
    if (t.failure) std::rethrow_exception(t.failure);
    throw NetworkError(why, broken);
  }
  return reply;
}

}  // namespace bertkit::core
