#!/bin/bash
# Issue 31 profile: where does ModernBERT-base 8x512 f32 lose time at 16 threads?
# Session 16, run on the 16-core device from a folder holding bertkit-old/-mid/-new, bertkit_tests, libs.tar.xz and
# shared/ (as bench/device_wave3.sh); figures in the session-16 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log4.txt"; B="$O/bench4.jsonl"
{ lscpu; nproc; which perf; } > "$O/env4.txt" 2>&1
rss() { python3 -c "import resource,subprocess,sys
r=subprocess.run(sys.argv[1:],capture_output=True,text=True); sys.stdout.write(r.stdout); sys.stderr.write(r.stderr)
print('{\"maxrss_kb\": %d, \"cmd\": \"%s\"}' % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, ' '.join(sys.argv[3:])))" "$@"; }
for t in 16 1 4; do
  for s in modernbert-base bert-base; do
    timeout 60 ./bertkit-new bench --shape $s --threads $t --workloads 8x512 --format jsonl --min-time 0.5 --runs 2 >> "$B" 2>>"$L"
  done
  echo "threads $t done at $(el)s" >> "$L"
done
timeout 60 ./bertkit-new bench --attention 512,2048 --threads 1,16 >> "$L" 2>&1
timeout 60 ./bertkit-new bench --attention 512,2048 --window 64 --threads 1,16 >> "$L" 2>&1
timeout 60 ./bertkit-new bench --attention 512 --heads 96 --threads 1,16 >> "$L" 2>&1
echo "attention done at $(el)s" >> "$L"
DNNL_VERBOSE=1 timeout 60 ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 8x512 --format jsonl --min-time 0 --runs 2 > "$O/verbose_mb.txt" 2>&1
DNNL_VERBOSE=1 timeout 60 ./bertkit-new bench --shape bert-base --threads 16 --workloads 8x512 --format jsonl --min-time 0 --runs 2 > "$O/verbose_bb.txt" 2>&1
gzip "$O"/verbose_*.txt
echo "verbose done at $(el)s" >> "$L"
which perf > /dev/null 2>&1 && { timeout 60 perf record -g -o /tmp/p.data ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 8x512 --min-time 2 --runs 2 > /dev/null 2>&1; perf report -i /tmp/p.data --no-children --sort symbol 2>/dev/null | grep "%" | head -80 > "$O/perf_mb.txt"; }
rss ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 1x16 --format jsonl --min-time 0 --runs 1 >> "$B" 2>>"$L"
rss ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 1x8192 --format jsonl --min-time 0 --runs 1 >> "$B" 2>>"$L"
echo "all done at $(el)s" >> "$L"
