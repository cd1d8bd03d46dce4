#!/usr/bin/env python3
"""Summarises bench/interleaved_shapes.sh's rows: per (shape, dtype, threads, workload), the old and new
sequences/s of every repetition, the ratio of their medians and of their bests, then the median ratio.

    bench/interleaved_summary.py rows.jsonl
"""
import collections
import json
import statistics
import sys

rows = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    row = json.loads(line)
    key = (row["model"], row["dtype"], row["threads"], f"{row['batch']}x{row['length']}")
    rows[key][row["bin"]].append(row["sequences_per_second"])
ratios = []
for (shape, dtype, threads, workload), runs in rows.items():
    old, new = runs.get("old", []), runs.get("new", [])
    if not old or not new:
        continue
    median = statistics.median(new) / statistics.median(old)
    ratios.append(median)
    print(f"{shape:18} {dtype:5} t{threads} {workload:7} old {' '.join(f'{x:8.2f}' for x in old)} | "
          f"new {' '.join(f'{x:8.2f}' for x in new)} | median {median:.3f} best {max(new) / max(old):.3f}")
if ratios:
    print(f"median ratio over {len(ratios)} rows: {statistics.median(ratios):.3f}")
