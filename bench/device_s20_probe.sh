#!/bin/bash
# Issue 35, item 1: where bert-base's time goes on the 16-core Xeon (AMX). Session 20, run on the device from
# devrun/ holding bertkit-base (main at eeab204 with `bench --profile`), libs.tar.xz and this folder's
# dnnl_verbose_summary.py: per-op profiles at 1/4/16 threads, oneDNN's kernel choices at 16 threads, thread
# placement and waiting, and a thread sweep at 1x16. Figures in the session-20 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
ok() { (( $(el) < ${DEADLINE:-150} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
BK=./bertkit-base; L="$O/log.txt"; B="$O/bench.jsonl"
{ lscpu; nproc; grep -c processor /proc/cpuinfo; head -3 /proc/meminfo; which perf numactl; "$BK" --version; } > "$O/env.txt" 2>&1
tag() { python3 -c "import sys,json
for l in sys.stdin:
  l=l.strip()
  if l.startswith('{'):
    j=json.loads(l); j['tag']='$1'; print(json.dumps(j), flush=True)"; }
# Per-op profiles (bench --profile): which ops grow their share from 4 to 16 threads.
for d in f32 bf16 int8; do
  ok && timeout 40 $BK bench --shape bert-base --threads 4,16 --workloads 16x128 --dtype $d --profile --runs 2 --min-time 0.5 >> "$O/profile.txt" 2>&1
  ok && timeout 30 $BK bench --shape bert-base --threads 1,16 --workloads 1x16,1x128 --dtype $d --profile --runs 3 --min-time 0.3 >> "$O/profile.txt" 2>&1
done
echo "profiles done at $(el)s" >> "$L"
# oneDNN's implementations and times at 16 threads.
for d in f32 bf16 int8; do for w in 1x16 16x128; do
  ok && ONEDNN_VERBOSE=1 DNNL_VERBOSE=1 timeout 30 $BK bench --shape bert-base --threads 16 --workloads $w --dtype $d --runs 2 --min-time 0 2>&1 | python3 dnnl_verbose_summary.py > "$O/verbose-$d-$w.txt"
done; done
echo "verbose done at $(el)s" >> "$L"
# Placement and waiting: f32 and bf16 16x128 and 1x16 at 16 threads.
for e in "X=1" "OMP_PROC_BIND=close OMP_PLACES=cores" "OMP_WAIT_POLICY=passive"; do
  for d in f32 bf16; do
    ok && env $e timeout 30 $BK bench --shape bert-base --threads 16 --workloads 1x16,16x128 --dtype $d --format jsonl --runs 3 --min-time 0.5 2>>"$L" | tag "$e" >> "$B"
  done
done
echo "placement done at $(el)s" >> "$L"
# Thread sweep at 1x16 and minilm-l6 16x128.
for d in f32 bf16 int8; do
  ok && timeout 30 $BK bench --shape bert-base --threads 1,2,4,8,16 --workloads 1x16 --dtype $d --format jsonl --runs 3 --min-time 0.2 2>>"$L" | tag sweep >> "$B"
  [[ $d != bf16 ]] && ok && timeout 30 $BK bench --shape minilm-l6 --threads 4,16 --workloads 16x128 --dtype $d --profile --runs 3 --min-time 0.3 >> "$O/profile-minilm.txt" 2>&1
done
echo "sweep done at $(el)s" >> "$L"
ok && which perf > /dev/null 2>&1 && { timeout 40 perf record -o /tmp/p.data $BK bench --shape bert-base --threads 16 --workloads 16x128 --dtype bf16 --min-time 2 --runs 2 > /dev/null 2>&1; perf report -i /tmp/p.data --no-children --sort dso,symbol 2>/dev/null | grep "%" | head -60 > "$O/perf-bf16.txt"; }
echo "all done at $(el)s" >> "$L"
