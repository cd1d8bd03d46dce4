#pragma once
// The routes of `bertkit serve`: each reads its request (commands/serve_requests.h), turns it into
// records, has the batcher compute them in the lane of the model and options asked for, and answers in
// the shape of the API it belongs to: OpenAI (/v1/embeddings, /v1/models), text-embeddings-inference
// (/embed, /embed_sparse, /embed_all, /rerank, /similarity, /predict, /tokenize, /decode, /info, /health),
// Cohere/Jina (/v1/rerank), and bertkit's own (/zero-shot), with /metrics for Prometheus. Numbers are
// copied from the lines the CLI writes, so they are the CLI's to the byte.
#include "cli/serve_answers.h"
#include "cli/serve_lanes.h"
#include "commands/http_server.h"
#include "commands/serve_batcher.h"
#include "commands/serve_metrics.h"
#include "commands/serve_requests.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace bertkit::cli {

struct ServeConfig {
  std::string api_key;  // non-empty: every route but /health needs "Authorization: Bearer KEY"
  cmd::RequestLimits limits;
  cmd::BatcherLimits batcher;
  std::chrono::milliseconds timeout{60000};  // a request still waiting for the model then is answered 503
  bool auto_truncate = false;                // inputs longer than the model's limit are cut, not refused
};

class ServeApp {
 public:
  ServeApp(std::vector<std::unique_ptr<ServedModel>> models, ServeConfig config);
  cmd::HttpResponse handle(const cmd::HttpRequest& request);
  // The answer to a request the transport refuses itself (a body past the limit, too many
  // connections: cmd::HttpOptions::refusal), shaped and counted as the routes' refusals are.
  cmd::HttpResponse refusal(const std::string& path, int status, const std::string& message);
  // Finishes the requests taken; later ones are answered 503.
  void stop() { batcher_.stop(); }

 private:
  // A request as a route sees it.
  struct Call {
    const cmd::HttpRequest& request;
    std::string model_query;               // ?model= of the URL
    cmd::Batcher::Arrival* arrival;        // POST: a batch forming now waits for this request
  };
  struct Route;
  // The route of `path`, or null (the table is in cli/serve_routes.cpp).
  static const Route* find_route(const std::string& path);
  // What /metrics counts a request under: its route's path, or "other" (so no client can grow the metrics).
  static std::string route_label(const std::string& path);
  cmd::HttpResponse route(const cmd::HttpRequest& request);
  // The model a request names (none: the first); 404 naming the field otherwise.
  ServedModel& model(const std::string& name);
  // The batched part of a route: the records through `lane`, each answered line checked (an input's
  // error is a 422, an input cut short without `truncate` a 413, naming `field`[i]).
  std::vector<OutputLine> compute(const ServedModel& m, const char* field, const Call& call, cmd::BatchLane& lane,
                                  std::vector<records::Record> records, std::int64_t tokens, bool truncate);

  // The routes (cli/serve_routes.cpp, serve_embed_routes.cpp, serve_task_routes.cpp, serve_token_routes.cpp).
  cmd::HttpResponse health(const Call& call);
  cmd::HttpResponse metrics(const Call& call);
  cmd::HttpResponse models(const Call& call);
  cmd::HttpResponse info(const Call& call);
  cmd::HttpResponse embeddings(const Call& call);  // /v1/embeddings, /embed, /embed_sparse, /embed_all
  cmd::HttpResponse rerank(const Call& call);      // /rerank, /v1/rerank
  cmd::HttpResponse similarity(const Call& call);
  cmd::HttpResponse predict(const Call& call);
  cmd::HttpResponse zero_shot(const Call& call);
  cmd::HttpResponse ner(const Call& call);
  cmd::HttpResponse qa(const Call& call);
  cmd::HttpResponse tokenize(const Call& call);
  cmd::HttpResponse decode(const Call& call);

  std::vector<std::unique_ptr<ServedModel>> models_;
  ServeConfig config_;
  cmd::ServeMetrics metrics_;
  cmd::Batcher batcher_;
};

}  // namespace bertkit::cli
