#!/usr/bin/env python3
"""`bertkit serve` throughput and latency (issue 37's benchmark), on this machine, over keep-alive connections.

usage: bench/serve_throughput.py [BERTKIT] [--rounds N] [--rate R] [--wait-ms W] [--threads T]

A random-weight MiniLM-L6-shaped model (`bertkit bench --shape minilm-l6 --save`) is served on 127.0.0.1.
For 32 single-sentence texts it times, alternating each round:
  one-batch   one /embed request holding all 32 (the batch the CLI computes: `bertkit embed` of 32 lines)
  concurrent  32 /embed requests of one sentence each, sent at once on 32 connections
  sequential  the same 32 requests one after another on one connection
and `bertkit embed` of the 32 lines as one process (start-up and loading included).
Then p50/p99 latency of single-sentence requests sent at a fixed rate (open loop) for 5 s.
Medians over the rounds; every answer is checked equal to the one-batch answer's row.
"""
import argparse, http.client, json, os, statistics, subprocess, sys, tempfile, threading, time

p = argparse.ArgumentParser()
p.add_argument("bertkit", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "build", "bertkit"))
p.add_argument("--rounds", type=int, default=15)
p.add_argument("--rate", type=float, default=100.0)
p.add_argument("--wait-ms", default=None)
p.add_argument("--threads", default=None)
a = p.parse_args()

WORDS = ("the quick brown fox jumps over a lazy dog while seven cats watch from the old garden wall near "
         "our house in town today").split()
texts = [" ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(10 + i % 6)) for i in range(32)]

tmp = tempfile.mkdtemp()
model = os.path.join(tmp, "minilm-l6")
subprocess.run([a.bertkit, "bench", "--shape", "minilm-l6", "--save", model], check=True, capture_output=True)
args = [a.bertkit] + (["--threads", a.threads] if a.threads else []) + ["serve", "-m", model, "--port", "0"]
if a.wait_ms is not None:
    args += ["--batch-wait-ms", a.wait_ms]
server = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
line = server.stderr.readline()
port = int(line.split("127.0.0.1:")[1].split()[0])


def post(conn, body):
    conn.request("POST", "/embed", body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    assert r.status == 200, (r.status, data)
    return json.loads(data)


def connect():
    return http.client.HTTPConnection("127.0.0.1", port)


main = connect()
want = post(main, {"inputs": texts})
conns = [connect() for _ in texts]
for c, t in zip(conns, texts):  # open and warm every connection
    post(c, {"inputs": t})


def one_batch():
    t0 = time.perf_counter()
    assert post(main, {"inputs": texts}) == want
    return time.perf_counter() - t0


def concurrent():
    out = [None] * len(texts)
    go = threading.Barrier(len(texts) + 1)

    def run(i):
        go.wait()
        out[i] = post(conns[i], {"inputs": texts[i]})[0]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    go.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    assert out == want
    return elapsed


def sequential():
    t0 = time.perf_counter()
    out = [post(main, {"inputs": t})[0] for t in texts]
    elapsed = time.perf_counter() - t0
    assert out == want
    return elapsed


def cli():
    lines = "".join(t + "\n" for t in texts)
    t0 = time.perf_counter()
    subprocess.run([a.bertkit] + (["--threads", a.threads] if a.threads else []) + ["embed", "-m", model, "--batch-size", "32"],
                   input=lines, text=True, check=True, capture_output=True)
    return time.perf_counter() - t0


times = {"one-batch": [], "concurrent": [], "sequential": [], "cli process": []}
for _ in range(a.rounds):
    times["one-batch"].append(one_batch())
    times["concurrent"].append(concurrent())
    times["sequential"].append(sequential())
    times["cli process"].append(cli())
ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
print(f"{os.cpu_count()} CPUs, threads {a.threads or 'all'}, batch wait {a.wait_ms or 'default'} ms, "
      f"32 sentences of 12-17 words, median of {a.rounds} rounds:")
for k, v in ms.items():
    print(f"  {k:12s} {v:8.2f} ms")
print(f"  concurrent / one-batch = {ms['concurrent'] / ms['one-batch']:.2f}; "
      f"sequential / concurrent = {ms['sequential'] / ms['concurrent']:.2f}")

# Open loop: a request every 1/rate s, each on a free connection of a pool, for 5 s.
latencies, lock = [], threading.Lock()
pool = [connect() for _ in range(64)]
free = list(range(64))


def fire(i, k):
    t0 = time.perf_counter()
    assert post(pool[k], {"inputs": texts[i % len(texts)]})[0] == want[i % len(texts)]
    with lock:
        latencies.append(time.perf_counter() - t0)
        free.append(k)


threads, start, n = [], time.perf_counter(), int(5 * a.rate)
for i in range(n):
    time.sleep(max(0.0, start + i / a.rate - time.perf_counter()))
    with lock:
        k = free.pop() if free else None
    if k is None:
        print("  more than 64 requests in flight: the server cannot keep this rate")
        break
    t = threading.Thread(target=fire, args=(i, k))
    t.start()
    threads.append(t)
for t in threads:
    t.join()
latencies.sort()
q = lambda f: latencies[min(len(latencies) - 1, int(f * len(latencies)))] * 1000
print(f"  fixed rate {a.rate:.0f} req/s for 5 s ({len(latencies)} requests): p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms, "
      f"max {latencies[-1] * 1000:.2f} ms")
server.terminate()
server.wait(timeout=30)
subprocess.run(["rm", "-rf", tmp])
