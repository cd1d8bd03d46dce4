#!/bin/bash
# The wave-3 device run (session 15; ../shared/bench/device/README.md says how to carry a build there):
# run from a folder holding bertkit-old, bertkit-new, bertkit_tests, libs.tar.xz and shared/ (README.md and
# the models3 fixtures the golden tests read). One run: issue 29 no-speed-loss (old 7a5c9c0 vs new, interleaved), ModernBERT targets
# (issue 31), NomicBERT 1x8192 beside bert-base (issue 33), wave-3 goldens on the AVX-512/AMX machine.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
DEADLINE=${DEADLINE:-480}; ok() { (( $(el) < DEADLINE - ${1:-20} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
{ lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-300; ./bertkit-new --version; nproc; } > "$O/env.txt" 2>&1
B="$O/bench.jsonl"; L="$O/log.txt"
tag() { python3 -c "import sys,json
for l in sys.stdin:
  l=l.strip()
  if l.startswith('{'):
    j=json.loads(l); j['bin']='$1'; j['tag']='$2'; print(json.dumps(j), flush=True)"; }
rss() { python3 -c "import resource,subprocess,sys
r=subprocess.run(sys.argv[1:],capture_output=True,text=True); sys.stdout.write(r.stdout); sys.stderr.write(r.stderr)
print('{\"maxrss_kb\": %d, \"cmd\": \"%s\"}' % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, ' '.join(sys.argv[3:])))" "$@"; }
# 1. wave-3 goldens and the op tests on this CPU (default path and avx512), quick
mkdir -p /work && ln -sfn "$PWD/shared" /work/shared
for cpu in default avx512; do
  ( [[ $cpu == default ]] || export BERTKIT_CPU=$cpu; timeout 60 ./bertkit_tests --source-file='*modernbert_goldens*,*nomic_goldens*,*block_recipe*,*unit/ops_*,*modernbert_heads*' 2>&1 | tail -25 | sed "s/^/[$cpu] /" ) >> "$L"
done
echo "goldens done at $(el)s" >> "$L"
# 2. issue 29: old vs new, interleaved, 16 threads
for rep in 1 2; do
  for s in minilm-l6 bert-base; do
    for d in f32 int8 bf16; do
      for b in old new; do
        ok 250 && timeout 40 ./bertkit-$b bench --shape $s --threads 16 --workloads 1x128,8x128,32x128 --dtype $d --format jsonl --min-time 0.5 --runs 3 2>>"$L" | tag $b "speed29-r$rep" >> "$B"
      done
    done
  done
  for b in old new; do
    ok 250 && timeout 30 ./bertkit-$b bench --tokenizer --mb 8 --min-time 1 --format jsonl 2>>"$L" | tag $b "tok-r$rep" >> "$B"
  done
done
echo "speed29 done at $(el)s" >> "$L"
# 3. issue 31: ModernBERT-base, 16 threads
M=modernbert-base
ok 200 && timeout 90 ./bertkit-new bench --shape $M --threads 16 --workloads 1x1024,8x1024,1x8192 --format jsonl --min-time 1 --runs 2 2>>"$L" | tag new mb-long >> "$B"
ok 150 && timeout 60 ./bertkit-new bench --shape $M --threads 16 --workloads 16+2048+512+64+1024+256+128+1536,1x16,1x2048,1x512,1x64,1x1024,1x256,1x128,1x1536 --format jsonl --min-time 0.5 --runs 3 2>>"$L" | tag new mb-mixed >> "$B"
for d in f32 int8 bf16; do
  ok 120 && timeout 40 ./bertkit-new bench --shape $M --threads 16 --workloads 8x512 --dtype $d --format jsonl --min-time 0.7 --runs 3 2>>"$L" | tag new mb-8x512 >> "$B"
  ok 110 && timeout 40 ./bertkit-new bench --shape bert-base --threads 16 --workloads 8x512 --dtype $d --format jsonl --min-time 0.7 --runs 3 2>>"$L" | tag new bb-8x512 >> "$B"
done
ok 90 && rss ./bertkit-new bench --shape $M --threads 16 --workloads 1x16 --format jsonl --min-time 0 --runs 1 2>>"$L" | tag new mb-rss16 >> "$B"
ok 80 && rss ./bertkit-new bench --shape $M --threads 16 --workloads 1x8192 --format jsonl --min-time 0 --runs 1 2>>"$L" | tag new mb-rss8192 >> "$B"
echo "modernbert done at $(el)s" >> "$L"
# 4. issue 33: nomic-embed-text 1x8192 beside bert-base
ok 60 && timeout 60 ./bertkit-new bench --shape bert-base --threads 16 --workloads 1x512 --format jsonl --min-time 0.5 --runs 2 2>>"$L" | tag new nomic-beside >> "$B"
ok 50 && timeout 80 ./bertkit-new bench --shape nomic-embed-text --threads 16 --workloads 1x512,1x8192 --format jsonl --min-time 0 --runs 2 2>>"$L" | tag new nomic-long >> "$B"
echo "all done at $(el)s" >> "$L"
