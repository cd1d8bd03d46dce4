#include "commands/serve_batcher.h"

#include "core/error.h"

#include <algorithm>
#include <exception>

namespace bertkit::cmd {

struct Batcher::Job {
  BatchLane* lane;
  std::vector<records::Record> records;  // moved into the batch's run
  std::size_t count;                     // how many
  std::int64_t tokens;
  std::chrono::steady_clock::time_point arrived;
  bool done = false;
  BatchResult result;
};

Batcher::Arrival::Arrival(Batcher& batcher) : batcher_(batcher) {
  std::lock_guard lock(batcher_.mutex_);
  ++batcher_.arriving_;
}

Batcher::Arrival::~Arrival() {
  if (submitted_) return;
  {
    std::lock_guard lock(batcher_.mutex_);
    --batcher_.arriving_;
  }
  batcher_.arrived_.notify_all();  // a batch waiting for this request need not
}

Batcher::Batcher(BatcherLimits limits, std::function<void(const BatchReport&)> report)
    : limits_(limits), report_(std::move(report)), worker_([this] { work(); }) {}

Batcher::~Batcher() { stop(); }

std::size_t Batcher::depth() const {
  std::lock_guard lock(mutex_);
  return waiting_.size() + running_;
}

void Batcher::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  arrived_.notify_all();
  if (worker_.joinable()) worker_.join();
}

BatchResult Batcher::submit(BatchLane& lane, std::vector<records::Record> records, std::int64_t tokens,
                            std::chrono::milliseconds timeout, Arrival& arrival) {
  const std::size_t count = records.size();
  Job job{&lane, std::move(records), count, tokens, std::chrono::steady_clock::now(), false, {}};
  std::unique_lock lock(mutex_);
  arrival.submitted_ = true;
  --arriving_;
  arrived_.notify_all();
  if (stopping_) return {BatchOutcome::Stopping, {}, {}};
  if (waiting_.size() + running_ >= limits_.max_queued) return {BatchOutcome::Overloaded, {}, {}};
  waiting_.push_back(&job);
  arrived_.notify_all();
  if (!finished_.wait_until(lock, job.arrived + timeout, [&] { return job.done; })) {
    const auto at = std::find(waiting_.begin(), waiting_.end(), &job);
    if (at != waiting_.end()) {  // not taken yet: it leaves the queue unanswered by the model
      waiting_.erase(at);
      return {BatchOutcome::TimedOut, {}, {}};
    }
    finished_.wait(lock, [&] { return job.done; });  // computing: a batch is not cut short
  }
  return std::move(job.result);
}

std::vector<Batcher::Job*> Batcher::take_batch() {
  std::vector<Job*> batch;
  BatchLane* lane = waiting_.front()->lane;
  std::int64_t tokens = 0;
  for (auto it = waiting_.begin(); it != waiting_.end() && batch.size() < limits_.max_batch_requests;) {
    Job* job = *it;
    if (job->lane != lane || (!batch.empty() && tokens + job->tokens > limits_.max_batch_tokens)) {
      ++it;
      continue;
    }
    tokens += job->tokens;
    batch.push_back(job);
    it = waiting_.erase(it);
  }
  return batch;
}

void Batcher::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    arrived_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) return;  // stopping, and nothing is left
    // A batch that is not full waits a moment for the requests arriving with it (none: it starts).
    const auto until = std::chrono::steady_clock::now() + limits_.wait;
    BatchLane* lane = waiting_.front()->lane;
    auto full = [&] {
      std::int64_t tokens = 0;
      std::size_t n = 0;
      for (const Job* j : waiting_)
        if (j->lane == lane) tokens += j->tokens, ++n;
      return tokens >= limits_.max_batch_tokens || n >= limits_.max_batch_requests;
    };
    while (!stopping_ && arriving_ > 0 && !full() && arrived_.wait_until(lock, until) != std::cv_status::timeout) {
    }
    if (waiting_.empty()) continue;  // the requests timed out meanwhile
    std::vector<Job*> batch = take_batch();
    running_ = batch.size();
    lock.unlock();
    compute(batch);
    lock.lock();
    running_ = 0;
    for (Job* job : batch) job->done = true;
    finished_.notify_all();
  }
}

void Batcher::compute(std::vector<Job*>& jobs) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<records::Record> records;
  BatchReport report;
  report.requests = jobs.size();
  for (Job* job : jobs) {
    report.tokens += job->tokens;
    for (records::Record& r : job->records) records.push_back(std::move(r));
  }
  report.records = records.size();
  std::string lines;
  try {
    jobs.front()->lane->run(records, lines);
  } catch (const std::exception& e) {
    for (Job* job : jobs) job->result = {BatchOutcome::Failed, {}, e.what()};
    return;
  }
  // One line per record, in the order the jobs gave them.
  std::size_t at = 0;
  for (Job* job : jobs) {
    job->result.outcome = BatchOutcome::Done;
    for (std::size_t i = 0; i < job->count; ++i) {
      const std::size_t end = lines.find('\n', at);
      if (end == std::string::npos) {
        job->result = {BatchOutcome::Failed, {}, "internal error: the pipeline wrote fewer lines than records"};
        break;
      }
      job->result.lines.emplace_back(lines, at, end - at);
      at = end + 1;
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report_) report_(report);
}

}  // namespace bertkit::cmd
