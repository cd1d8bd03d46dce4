#!/bin/bash
# Issue 31/32: old (b96a556) vs new (exp 0 below cutoff, out-of-place norms), interleaved; DeBERTa profile.
# Session 16, run on the 16-core device from a folder holding bertkit-old/-mid/-new, bertkit_tests, libs.tar.xz and
# shared/ (as bench/device_wave3.sh); figures in the session-16 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log5.txt"; B="$O/bench5.jsonl"
tag() { python3 -c "import sys,json
for l in sys.stdin:
  l=l.strip()
  if l.startswith('{'):
    j=json.loads(l); j['bin']='$1'; j['tag']='$2'; print(json.dumps(j), flush=True)"; }
for b in old new; do ./bertkit-$b bench --attention 512,2048 --window 64 --threads 1,16 >> "$L" 2>&1; done
echo "attention done at $(el)s" >> "$L"
for rep in 1 2; do for b in old new; do
  timeout 30 ./bertkit-$b bench --shape modernbert-base --threads 16 --workloads 8x512 --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag $b mb16 >> "$B"
done; done
for b in new old; do
  timeout 40 ./bertkit-$b bench --shape modernbert-base --threads 1 --workloads 8x512 --format jsonl --min-time 0 --runs 1 2>>"$L" | tag $b mb1 >> "$B"
done
echo "mb done at $(el)s" >> "$L"
for d in int8 bf16; do for b in old new; do
  timeout 30 ./bertkit-$b bench --shape modernbert-base --threads 16 --workloads 8x512 --dtype $d --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag $b mb16-$d >> "$B"
done; done
for d in f32 int8 bf16; do timeout 30 ./bertkit-new bench --shape bert-base --threads 16 --workloads 8x512 --dtype $d --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag new bb16-$d >> "$B"; done
timeout 60 ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 1x1024,8x1024,1x8192 --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag new mb-long >> "$B"
timeout 60 ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 16+2048+512+64+1024+256+128+1536,1x16,1x2048,1x512,1x64,1x1024,1x256,1x128,1x1536 --format jsonl --min-time 0.3 --runs 3 2>>"$L" | tag new mb-mixed >> "$B"
echo "mb rest done at $(el)s" >> "$L"
for t in 16 1; do timeout 40 ./bertkit-new bench --shape deberta-v3-base --threads $t --workloads 8x128 --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag new deb$t >> "$B"; done
DNNL_VERBOSE=1 timeout 30 ./bertkit-new bench --shape deberta-v3-base --threads 16 --workloads 8x128 --format jsonl --min-time 0 --runs 2 > "$O/verbose_deb.txt" 2>&1; gzip "$O/verbose_deb.txt"
echo "all done at $(el)s" >> "$L"
