#!/usr/bin/env python3
"""Sums oneDNN's verbose lines (ONEDNN_VERBOSE=1) read on stdin: for each executed primitive (kind,
implementation, shapes, post-ops), its calls and milliseconds, the costliest first. Used by bench/device_s20_probe.sh to see oneDNN's kernel choices."""
import collections
import sys

executed = collections.defaultdict(lambda: [0, 0.0])
for line in sys.stdin:
    f = line.rstrip("\n").split(",")
    if len(f) < 4 or not f[0].endswith("_verbose"):
        continue
    # onednn_verbose,exec,cpu,KIND,IMPL,PROP,MEMORY...,ATTR,AUX,SHAPES,MS (2.6's order)
    if f[1] == "exec" and len(f) >= 10:
        try:
            ms = float(f[-1])
        except ValueError:
            continue
        key = (f[3], f[4], f[-2], f[-4][:80])
        executed[key][0] += 1
        executed[key][1] += ms
total = sum(ms for _, ms in executed.values())
print(f"executed: {total:.3f} ms in all")
for (kind, impl, shapes, attr), (calls, ms) in sorted(executed.items(), key=lambda kv: -kv[1][1]):
    print(f"{ms:10.3f} ms {calls:5d} x  {kind:10s} {impl:28s} {shapes:36s} {attr}")
