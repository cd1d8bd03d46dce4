#!/bin/bash
# Issue 35: threads pinned by bertkit (a trial build that pinned OpenMP thread i to CPU i while the encoder
# ran on all CPUs, and left a placement the user chose alone) against free threads (OMP_PROC_BIND=false),
# the same binary, interleaved, 16 threads. Session 20's fourth device run, from devrun/ holding
# bertkit-new, libs.tar.xz and device/tag.py. Pinned/free 0.92-1.12x, 1.02x on average: not kept.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
DEADLINE=${DEADLINE:-110}; ok() { (( $(el) < DEADLINE - ${1:-8} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log.txt"; R="$O/results.jsonl"
for rep in 1 2; do for s in bert-base minilm-l6; do for d in bf16 int8 f32; do for e in "X=1" "OMP_PROC_BIND=false"; do
  ok && env $e timeout 20 ./bertkit-new bench --shape $s --threads 16 --workloads 1x16,16x128 --dtype $d --format jsonl --min-time 0.3 --runs 3 2>>"$L" | python3 device/tag.py "${e%%=*}-$d-r$rep" $s >> "$R"
done; done; done; done
echo "all done at $(el)s" >> "$L"
