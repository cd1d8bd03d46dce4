#!/bin/bash
# Issue 35: old (eeab204 with bench --profile) against new, interleaved twice at 4 and 16 threads, then
# thread placement (OMP_PROC_BIND=close OMP_PLACES=cores against none) with the new binary. Session 20,
# the last of its three device runs, from devrun/ holding bertkit-old, bertkit-new, libs.tar.xz and
# device/tag.py (a copy of ../shared/bench/device/tag.py). Figures in the session-20 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
DEADLINE=${DEADLINE:-200}; ok() { (( $(el) < DEADLINE - ${1:-15} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log.txt"; R="$O/results.jsonl"
for rep in 1 2; do
  for s in bert-base minilm-l6; do for d in int8 bf16 f32; do for b in old new; do
    ok && timeout 30 ./bertkit-$b bench --shape $s --threads 4,16 --workloads 1x16,1x128,16x128 --dtype $d --format jsonl --min-time 0.3 --runs 3 2>>"$L" | python3 device/tag.py bertkit-$b-$d-r$rep $s >> "$R"
  done; done; done
  echo "rep $rep done at $(el)s" >> "$L"
done
for rep in 1 2; do for d in int8 bf16 f32; do for e in "X=1" "OMP_PROC_BIND=close OMP_PLACES=cores"; do
  ok && env $e timeout 30 ./bertkit-new bench --shape bert-base --threads 16 --workloads 1x16,16x128 --dtype $d --format jsonl --min-time 0.3 --runs 3 2>>"$L" | python3 device/tag.py "bind-${e%% *}-$d-r$rep" bert-base >> "$R"
done; done; done
echo "all done at $(el)s" >> "$L"
