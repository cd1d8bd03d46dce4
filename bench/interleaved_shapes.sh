#!/bin/bash
# Old against new on this machine, interleaved: for REPS repetitions, for minilm-l6 and bert-base, for f32,
# int8 and bf16, OLD then NEW `bench --shape S --dtype D` (its default workloads and threads). One JSON line
# per row, with "bin" (old/new) and "rep", to standard output. Session 20's 2-core comparison (issue 35).
# usage: bench/interleaved_shapes.sh OLD_BINARY NEW_BINARY [REPS] > rows.jsonl
set -eu
old=$1 new=$2 reps=${3:-3}
for rep in $(seq "$reps"); do
  for shape in minilm-l6 bert-base; do for dtype in f32 int8 bf16; do for bin in old new; do
    binary=$old; [[ $bin == new ]] && binary=$new
    "$binary" bench --shape $shape --dtype $dtype --format jsonl --min-time 1 --runs 3 |
      python3 -c "import json, sys
for line in sys.stdin:
    row = json.loads(line); row['bin'] = '$bin'; row['rep'] = $rep; print(json.dumps(row), flush=True)"
  done; done; done
done
