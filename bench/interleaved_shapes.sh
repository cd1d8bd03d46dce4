#!/bin/bash
# Old against new on this machine, interleaved: for REPS repetitions, for each shape, for each type, OLD then
# NEW `bench --shape S --dtype D`. One JSON line per row, with "bin" (old/new) and "rep", to standard
# output. Session 20's 2-core comparison (issue 35), with its defaults: minilm-l6 and bert-base, f32, int8
# and bf16, bench's default workloads and threads, --min-time 1. Session 22 set SHAPES, DTYPES, WORKLOADS,
# THREADS and MIN_TIME, e.g. SHAPES="bert-base minilm-l6 nomic-embed-text modernbert-base" DTYPES=int8
# WORKLOADS=1x16,1x128,8x128 THREADS=2 MIN_TIME=0.5.
# usage: bench/interleaved_shapes.sh OLD_BINARY NEW_BINARY [REPS] > rows.jsonl
set -eu
old=$1 new=$2 reps=${3:-3}
shapes=${SHAPES:-minilm-l6 bert-base} dtypes=${DTYPES:-f32 int8 bf16}
extra=(--min-time "${MIN_TIME:-1}")
[[ -n ${WORKLOADS:-} ]] && extra+=(--workloads "$WORKLOADS")
[[ -n ${THREADS:-} ]] && extra+=(--threads "$THREADS")
for rep in $(seq "$reps"); do
  for shape in $shapes; do for dtype in $dtypes; do for bin in old new; do
    binary=$old; [[ $bin == new ]] && binary=$new
    "$binary" bench --shape "$shape" --dtype "$dtype" --format jsonl --runs 3 "${extra[@]}" |
      python3 -c "import json, sys
for line in sys.stdin:
    row = json.loads(line); row['bin'] = '$bin'; row['rep'] = $rep; print(json.dumps(row), flush=True)"
  done; done; done
done
