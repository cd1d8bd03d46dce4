#!/bin/bash
# Issue 31: attention key chunks for long sequences. old = b96a556, mid = + exp 0 below cutoff, new = + chunks.
# Session 16, run on the 16-core device from a folder holding bertkit-old/-mid/-new, bertkit_tests, libs.tar.xz and
# shared/ (as bench/device_wave3.sh); figures in the session-16 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
ok() { (( $(el) < 270 - ${1:-20} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
L="$O/log6.txt"; B="$O/bench6.jsonl"
tag() { python3 -c "import sys,json
for l in sys.stdin:
  l=l.strip()
  if l.startswith('{'):
    j=json.loads(l); j['bin']='$1'; j['tag']='$2'; print(json.dumps(j), flush=True)"; }
mkdir -p /work && ln -sfn "$PWD/shared" /work/shared
timeout 60 ./bertkit_tests --source-file='*ops_attention*,*modernbert_goldens*,*ops_norm*' 2>&1 | tail -6 >> "$L"
echo "tests done at $(el)s" >> "$L"
for b in mid new; do timeout 40 ./bertkit-$b bench --attention 2048,8192 --threads 16 >> "$L" 2>&1; done
echo "attention done at $(el)s" >> "$L"
for rep in 1 2; do for b in mid new; do
  ok 60 && timeout 40 ./bertkit-$b bench --shape modernbert-base --threads 16 --workloads 1x1024,1x8192 --format jsonl --min-time 0.3 --runs 2 2>>"$L" | tag $b mb-long >> "$B"
done; done
echo "mb-long done at $(el)s" >> "$L"
for rep in 1 2; do for b in old new; do
  ok 40 && timeout 20 ./bertkit-$b bench --shape modernbert-base --threads 16 --workloads 8x512 --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag $b mb16 >> "$B"
  ok 40 && timeout 20 ./bertkit-$b bench --shape deberta-v3-base --threads 16 --workloads 8x128 --format jsonl --min-time 0.5 --runs 3 2>>"$L" | tag $b deb16 >> "$B"
done; done
ok 30 && timeout 40 ./bertkit-new bench --shape modernbert-base --threads 16 --workloads 16+2048+512+64+1024+256+128+1536,1x16,1x2048,1x512,1x64,1x1024,1x256,1x128,1x1536 --format jsonl --min-time 0.3 --runs 3 2>>"$L" | tag new mb-mixed >> "$B"
ok 20 && for b in mid new; do timeout 30 ./bertkit-$b bench --shape nomic-embed-text --threads 16 --workloads 1x8192 --format jsonl --min-time 0 --runs 2 2>>"$L" | tag $b nomic >> "$B"; done
echo "all done at $(el)s" >> "$L"
