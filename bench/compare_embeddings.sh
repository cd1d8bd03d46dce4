#!/bin/bash
# Old against new, byte for byte: `embed` of every line of INPUT with each model, in f32, bf16 and int8,
# at 1 and 2 threads, by both binaries (--format f32), then cmp. Session 23's check that handing norms'
# rows on in the next layer's type changed no output. Models: the arguments (folders or converted
# files), else the wave-1 to wave-3 embedding fixtures in ../shared; random-weight shapes come from
# `bertkit bench --shape S --save DIR`. Prints one line per case; exits 1 if any differs.
# usage: bench/compare_embeddings.sh OLD_BINARY NEW_BINARY INPUT [MODEL ...]
set -u
old=$1 new=$2 input=$3
shift 3
shared=$(cd "$(dirname "$0")/../../shared" && pwd)
models=("$@")
[[ ${#models[@]} -eq 0 ]] && models=("$shared"/fixtures/models/minilm-embed "$shared"/fixtures/models2/mpnet-embed
  "$shared"/fixtures/models2/camembert-embed "$shared"/fixtures/models3/nomic-embed "$shared"/fixtures/models3/modernbert-embed)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
for model in "${models[@]}"; do for dtype in f32 bf16 int8; do for threads in 1 2; do
  run() { "$1" embed -m "$model" --dtype $dtype --threads $threads -i "$input" --format f32 -o "$2"; }
  if ! run "$old" "$scratch/old.f32" || ! run "$new" "$scratch/new.f32"; then
    echo "$(basename "$model") $dtype threads=$threads FAILED"; status=1; continue
  fi
  if cmp -s "$scratch/old.f32" "$scratch/new.f32"; then verdict=same; else verdict=DIFFERENT; status=1; fi
  echo "$(basename "$model") $dtype threads=$threads $verdict ($(stat -c %s "$scratch/old.f32") bytes)"
done; done; done
exit $status
