// `bertkit serve`: the models behind HTTP (cli/serve_routes.h), until SIGTERM or Ctrl-C.
#include "cli/app.h"
#include "cli/number_flags.h"
#include "cli/serve_routes.h"
#include "core/error.h"
#include "records/log.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace bertkit::cli {

namespace {

struct ServeOptions {
  std::vector<std::string> models;
  std::vector<std::string> served_names;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string api_key;
  std::optional<std::size_t> max_length;
  std::string dtype;
  std::int64_t max_batch_tokens = 16384;
  std::size_t max_batch_requests = 256;
  double batch_wait_ms = 2;
  std::size_t max_concurrent_requests = 512;
  std::size_t max_client_batch_size = 512;
  std::size_t max_body_bytes = std::size_t{8} << 20;
  std::size_t max_connections = 512;
  double request_timeout_s = 60;
  bool auto_truncate = false;
};

int run_serve(const ServeOptions& o) {
  if (!o.served_names.empty() && o.served_names.size() != o.models.size())
    usage_error("--served-name is given {} times for {} models (-m): give one per model, in the same order",
                o.served_names.size(), o.models.size());
  std::string api_key = o.api_key;
  if (api_key.empty())
    if (const char* key = std::getenv("BERTKIT_API_KEY")) api_key = key;

  std::vector<std::unique_ptr<ServedModel>> models;
  for (std::size_t i = 0; i < o.models.size(); ++i) {
    auto m = std::make_unique<ServedModel>();
    m->source = o.models[i];
    m->name = o.served_names.empty() ? o.models[i] : o.served_names[i];
    for (const auto& other : models)
      if (other->name == m->name) usage_error("two models are served as \"{}\": name them apart with --served-name", m->name);
    m->flags.model = o.models[i];
    m->flags.max_length = o.max_length;
    m->flags.dtype = o.dtype;
    m->flags.max_batch_tokens = o.max_batch_tokens;
    m->flags.on_error = "skip";
    m->model = load_embedding_model(m->flags);
    models.push_back(std::move(m));
  }

  ServeConfig config;
  config.api_key = api_key;
  config.limits.max_inputs = o.max_client_batch_size;
  config.batcher.max_batch_tokens = o.max_batch_tokens;
  config.batcher.max_batch_requests = o.max_batch_requests;
  config.batcher.wait = std::chrono::microseconds(static_cast<std::int64_t>(o.batch_wait_ms * 1000));
  config.batcher.max_queued = o.max_concurrent_requests;
  config.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.request_timeout_s * 1000));
  config.auto_truncate = o.auto_truncate;

  // SIGTERM and Ctrl-C reach one thread, which stops the server gracefully; every other thread (the
  // connections', the batcher's, OpenMP's) is made after this and inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a client that went away is a failed write, not the end of the server

  std::vector<std::string> names;
  for (const auto& m : models) names.push_back(m->name);
  ServeApp app(std::move(models), config);
  cmd::HttpOptions http;
  http.host = o.host;
  http.port = static_cast<std::uint16_t>(o.port);
  http.max_body_bytes = o.max_body_bytes;
  http.max_connections = o.max_connections;
  http.refusal = [&](const std::string& path, int status, const std::string& message) {
    return app.refusal(path, status, message);
  };
  cmd::HttpServer server(http, [&](const cmd::HttpRequest& r) { return app.handle(r); });
  const std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  fmt::print(stderr, "bertkit serve: listening on http://{}:{} ({}{})\n", host, server.port(), fmt::join(names, ", "),
             api_key.empty() ? "" : "; API key required");
  std::fflush(stderr);
  records::set_quiet(true);  // the pipeline's per-batch warnings are the requests' answers here

  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    fmt::print(stderr, "bertkit serve: {}: finishing the requests in flight\n", signal == SIGTERM ? "SIGTERM" : "interrupted");
    std::fflush(stderr);
    server.stop();
  });
  server.run();
  app.stop();
  stopper.join();
  fmt::print(stderr, "bertkit serve: stopped\n");
  return 0;
}

}  // namespace

Action add_serve(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<ServeOptions>();
  sub.add_option("-m,--model", o->models, "Model folder, converted file or cached model id (repeat for several)")
      ->required();
  sub.add_option("--served-name", o->served_names,
                 "The name requests give a model (\"model\" of OpenAI and Cohere, ?model= of the others); one per -m");
  sub.add_option("--host", o->host, "Address to listen on (0.0.0.0: every interface)")->capture_default_str();
  sub.add_option("--port", o->port, "TCP port (0: any free one, printed)")->check(whole_number(0, 65535))->capture_default_str();
  sub.add_option("--api-key", o->api_key, "Require \"Authorization: Bearer KEY\" on every route but /health (default: "
                                          "$BERTKIT_API_KEY)");
  sub.add_option("--max-length", o->max_length, "Maximum tokens per input, special tokens included (default: the model's)")
      ->check(whole_number(1, 1 << 20));
  sub.add_option("--dtype", o->dtype, "Compute type: f32, bf16 or int8 (default: the type the model file stores)")
      ->check(CLI::IsMember({"f32", "bf16", "int8"}));
  sub.add_option("--max-batch-tokens", o->max_batch_tokens, "Tokens of the requests merged into one batch")
      ->check(whole_number(1, 1 << 30))->capture_default_str();
  sub.add_option("--max-batch-requests", o->max_batch_requests, "Requests merged into one batch")
      ->check(whole_number(1, 1 << 20))->capture_default_str();
  sub.add_option("--batch-wait-ms", o->batch_wait_ms, "How long a batch that is not full waits for more requests")
      ->check(decimal_number(0, 10000))->capture_default_str();
  sub.add_option("--max-concurrent-requests", o->max_concurrent_requests,
                 "Requests waiting or computing; past it, 429 with Retry-After")
      ->check(whole_number(1, 1 << 20))->capture_default_str();
  sub.add_option("--max-client-batch-size", o->max_client_batch_size, "Inputs in one request; past it, 413")
      ->check(whole_number(1, 1 << 20))->capture_default_str();
  sub.add_option("--max-body-bytes", o->max_body_bytes, "Bytes of one request body; past it, 413")
      ->check(whole_number(1, std::int64_t{1} << 32))->capture_default_str();
  sub.add_option("--max-connections", o->max_connections, "Open connections; past it, 503")
      ->check(whole_number(1, 1 << 16))->capture_default_str();
  sub.add_option("--request-timeout", o->request_timeout_s, "Seconds a request may wait for the model; past it, 503")
      ->check(decimal_number(0.001, 86400))->capture_default_str();
  sub.add_flag("--auto-truncate", o->auto_truncate,
               "Cut inputs longer than the model's limit (default: refuse them with 413 unless the request says "
               "\"truncate\": true)");
  return [o] { return run_serve(*o); };
}

}  // namespace bertkit::cli
