#pragma once
// Dynamic batching for `bertkit serve`: requests that arrive together are computed together. Each
// request names a lane (a model and what it computes: embeddings with these options, rerank scores,
// ...); one worker thread takes the oldest request, adds the other waiting requests of its lane while
// their tokens fit --max-batch-tokens, computes them as one run of the record pipeline, and hands each
// request its own output lines. A batch that is not full waits for the requests that are arriving
// (read, being parsed and tokenized: an Arrival each), for --batch-wait-ms at most; with none arriving it
// starts at once, so a lone client's requests never wait. The encoder packs sequences without padding, so a record's output does
// not depend on the others of its batch: what a request gets is what the CLI writes for its inputs.
//
// Bounded: past max_queued requests waiting or running, submit() answers Overloaded at once; a request
// still waiting when its timeout passes is taken out (TimedOut). stop() finishes every request taken.
#include "records/record.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bertkit::cmd {

// What one lane computes: records in, one JSON line per record appended to `lines`, in order (the
// record pipeline's output, with --on-error skip: a bad record's line carries its `error`).
class BatchLane {
 public:
  virtual ~BatchLane() = default;
  virtual void run(std::vector<records::Record>& records, std::string& lines) = 0;
};

struct BatcherLimits {
  std::int64_t max_batch_tokens = 16384;
  std::size_t max_batch_requests = 256;
  std::chrono::microseconds wait{2000};  // how long a batch that is not full waits for more
  std::size_t max_queued = 512;          // requests waiting or computing; past it, Overloaded
};

// What the worker reports of each batch it computed (for /metrics).
struct BatchReport {
  std::size_t requests = 0, records = 0;
  std::int64_t tokens = 0;
  double seconds = 0;
};

enum class BatchOutcome { Done, Overloaded, TimedOut, Stopping, Failed };

struct BatchResult {
  BatchOutcome outcome = BatchOutcome::Done;
  std::vector<std::string> lines;  // Done: one per record
  std::string error;               // Failed: what went wrong
};

class Batcher {
 public:
  // A request on its way to submit(): made when it is read, so that a batch waits for it.
  class Arrival {
   public:
    explicit Arrival(Batcher& batcher);
    ~Arrival();
    Arrival(const Arrival&) = delete;
    Arrival& operator=(const Arrival&) = delete;

   private:
    friend class Batcher;
    Batcher& batcher_;
    bool submitted_ = false;
  };

  Batcher(BatcherLimits limits, std::function<void(const BatchReport&)> report);
  ~Batcher();
  Batcher(const Batcher&) = delete;
  Batcher& operator=(const Batcher&) = delete;

  // Computes `records` (`tokens`: what they count, for the budget) in `lane`; blocks until they are
  // computed, refused or timed out.
  BatchResult submit(BatchLane& lane, std::vector<records::Record> records, std::int64_t tokens,
                     std::chrono::milliseconds timeout, Arrival& arrival);
  // Requests waiting or computing now.
  std::size_t depth() const;
  // Refuses new requests (Stopping), computes those taken, and ends the worker.
  void stop();

 private:
  struct Job;
  void work();
  // The jobs of the batch that starts with the oldest: same lane, within the budget (lock held).
  std::vector<Job*> take_batch();
  void compute(std::vector<Job*>& jobs);

  BatcherLimits limits_;
  std::function<void(const BatchReport&)> report_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_, finished_;
  std::deque<Job*> waiting_;
  std::size_t running_ = 0;  // jobs taken by the worker, not yet finished
  std::size_t arriving_ = 0;  // Arrivals not yet submitted
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace bertkit::cmd
