#!/bin/bash
# Issue 35, prepared in session 22 (which had no device) for the next session that has one: old (2d78cc3)
# against new (the gated feed-forward's product in the matmul's epilogue, int8's own epilogue with the
# LayerNorm in its pass), interleaved twice at 4 and 16 threads for bert-base, nomic-embed-text and
# modernbert-base, then each one's profile at 16 threads (1x16, where the epilogue and norm passes weighed
# most: 22% and 14% of bert-base int8 in session 20's profile). Run from devrun/ holding bertkit-old,
# bertkit-new, libs.tar.xz and device/tag.py (see bench/device_s20_table.sh for making devrun/).
# Session 24 (no device either) added deberta-v3-base last: its terms kernel on the AMX Xeon, whose
# products stay on sgemm (the bf16 attention kernel is off there); skipped if the deadline comes first.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
DEADLINE=${DEADLINE:-300}; ok() { (( $(el) < DEADLINE - ${1:-15} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log.txt"; R="$O/results.jsonl"
for rep in 1 2; do
  for s in bert-base nomic-embed-text modernbert-base deberta-v3-base; do for d in int8 bf16; do for b in old new; do
    ok && timeout 40 ./bertkit-$b bench --shape $s --threads 4,16 --workloads 1x16,1x128,16x128 --dtype $d --format jsonl --min-time 0.3 --runs 3 2>>"$L" | python3 device/tag.py bertkit-$b-$d-r$rep $s >> "$R"
  done; done; done
  echo "rep $rep done at $(el)s" >> "$L"
done
for s in bert-base nomic-embed-text; do for d in int8 bf16; do for b in old new; do
  ok && timeout 30 ./bertkit-$b bench --shape $s --threads 16 --workloads 1x16,16x128 --dtype $d --profile --min-time 0.3 --runs 3 >> "$O/profile-$b.txt" 2>&1
done; done; done
echo "all done at $(el)s" >> "$L"
