// `bertkit serve`'s batcher and HTTP transport in one process, with many threads (doctest suite
// "threads": also run under ThreadSanitizer): requests submitted together are computed together and each
// gets its own lines back; a full queue refuses at once; a request waiting past its timeout leaves the
// queue; stop() finishes what was taken; the HTTP server answers concurrent keep-alive clients and its
// stop() ends run() with every request answered.
#include "cli/serve_child.h"
#include "commands/http_server.h"
#include "commands/serve_batcher.h"

#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

using bertkit::cmd::Batcher;
using bertkit::cmd::BatcherLimits;
using bertkit::cmd::BatchLane;
using bertkit::cmd::BatchOutcome;
using bertkit::cmd::BatchResult;

namespace {

// Writes each record's text back with the size of the run it was computed in; can be held closed so
// that the worker stays busy.
class EchoLane : public BatchLane {
 public:
  void run(std::vector<bertkit::records::Record>& records, std::string& lines) override {
    {
      std::unique_lock lock(mutex_);
      busy_ = true;
      busy_changed_.notify_all();
      open_changed_.wait(lock, [&] { return open_; });
    }
    ++runs;
    for (const auto& r : records) lines += r.text + " of " + std::to_string(records.size()) + "\n";
    std::lock_guard lock(mutex_);
    busy_ = false;
  }
  void hold() {
    std::lock_guard lock(mutex_);
    open_ = false;
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    open_changed_.notify_all();
  }
  void wait_busy() {
    std::unique_lock lock(mutex_);
    busy_changed_.wait(lock, [&] { return busy_; });
  }
  std::atomic<int> runs{0};

 private:
  std::mutex mutex_;
  std::condition_variable open_changed_, busy_changed_;
  bool open_ = true, busy_ = false;
};

std::vector<bertkit::records::Record> batcher_records(const std::string& text) {
  std::vector<bertkit::records::Record> records(1);
  records[0].text = text;
  return records;
}

BatchResult submit_one(Batcher& batcher, EchoLane& lane, const std::string& text, std::chrono::milliseconds timeout) {
  Batcher::Arrival arrival(batcher);
  return batcher.submit(lane, batcher_records(text), 1, timeout, arrival);
}

}  // namespace

TEST_CASE("serve batcher: concurrent requests are computed together, each gets its own lines" * doctest::test_suite("threads")) {
  BatcherLimits limits;
  limits.wait = std::chrono::milliseconds(20);
  Batcher batcher(limits, {});
  EchoLane lane;
  lane.hold();  // the first request's batch waits until every request is queued behind it
  std::vector<std::future<BatchResult>> results;
  for (int i = 0; i < 24; ++i)
    results.push_back(std::async(std::launch::async, [&, i] { return submit_one(batcher, lane, "t" + std::to_string(i), std::chrono::seconds(30)); }));
  while (batcher.depth() < 24) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  lane.release();
  for (int i = 0; i < 24; ++i) {
    const BatchResult r = results[static_cast<std::size_t>(i)].get();
    REQUIRE(r.outcome == BatchOutcome::Done);
    REQUIRE(r.lines.size() == 1);
    CHECK(r.lines[0].rfind("t" + std::to_string(i) + " of ", 0) == 0);
  }
  CHECK(lane.runs < 24);  // merged
  CHECK(lane.runs >= 1);
}

TEST_CASE("serve batcher: a full queue refuses at once, a request waiting too long times out, stop finishes the rest" *
          doctest::test_suite("threads")) {
  BatcherLimits limits;
  limits.max_queued = 2;
  auto batcher = std::make_unique<Batcher>(limits, nullptr);
  EchoLane lane;
  lane.hold();
  auto first = std::async(std::launch::async, [&] { return submit_one(*batcher, lane, "first", std::chrono::seconds(30)); });
  lane.wait_busy();  // computing: it is never cut short
  const BatchResult late = submit_one(*batcher, lane, "late", std::chrono::milliseconds(20));
  CHECK(late.outcome == BatchOutcome::TimedOut);
  auto second = std::async(std::launch::async, [&] { return submit_one(*batcher, lane, "second", std::chrono::seconds(30)); });
  while (batcher->depth() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(submit_one(*batcher, lane, "third", std::chrono::seconds(30)).outcome == BatchOutcome::Overloaded);
  lane.release();
  auto stopper = std::async(std::launch::async, [&] { batcher->stop(); });
  CHECK(first.get().outcome == BatchOutcome::Done);
  CHECK(second.get().outcome == BatchOutcome::Done);
  stopper.get();
  CHECK(submit_one(*batcher, lane, "after", std::chrono::seconds(1)).outcome == BatchOutcome::Stopping);
}

TEST_CASE("serve transport: concurrent keep-alive clients are answered, stop() ends run()" * doctest::test_suite("threads")) {
  std::atomic<int> handled{0};
  bertkit::cmd::HttpOptions options;
  options.port = 0;
  bertkit::cmd::HttpServer server(options, [&](const bertkit::cmd::HttpRequest& r) {
    ++handled;
    bertkit::cmd::HttpResponse response;
    response.body = r.method + " " + r.path + " " + r.body;
    return response;
  });
  std::thread runner([&] { server.run(); });
  std::vector<std::thread> clients;
  std::atomic<int> right{0};
  for (int c = 0; c < 8; ++c)
    clients.emplace_back([&, c] {
      bktest::HttpClient client(server.port());
      for (int i = 0; i < 20; ++i) {
        const std::string body = std::to_string(c) + "/" + std::to_string(i);
        const bktest::HttpReply reply = client.request("POST", "/echo?x=1", body);
        if (reply.status == 200 && reply.body == "POST /echo " + body) ++right;
      }
    });
  for (auto& t : clients) t.join();
  CHECK(right == 160);
  CHECK(handled == 160);
  const bktest::HttpReply big = bktest::http_request(server.port(), "POST", "/echo", std::string(options.max_body_bytes + 1, 'x'));
  CHECK(big.status == 413);
  server.stop();
  runner.join();
  CHECK(handled == 160);  // the 413 never reached the handler
}
