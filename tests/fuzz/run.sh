#!/usr/bin/env bash
# Runs every fuzz target for SECONDS, JOBS at a time, each on a scratch copy of its seed corpus, and
# prints each one's final libFuzzer line (executions, cov, ft). Fails when any target finds a crash, a
# leak or a timeout; the input that did it is left as BUILD_DIR/fuzz-artifacts/TARGET-crash-<hash>.
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS [JOBS] [WORK_DIR (corpora and logs; default: a temporary one)] [TARGET...]
# FUZZ_TIMEOUT (seconds, default 10) is the time one input may take: raise it when the fuzzers share a
# busy machine at low priority, where a starved process looks hung.
set -euo pipefail
build=$1 seconds=$2 jobs=${3:-2}
only=("${@:5}")
timeout=${FUZZ_TIMEOUT:-10}
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${4:-}" ]; then
  work=$4
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"

# target:seed folder:largest input (the tokenizer files are up to 20 KB, the converted files 32 KB)
# [:factor], SECONDS times factor: the byte-level BPE and Unigram targets, the newest hand-written
# tokenizer code, run twice as long (12 s in CI, where the others run 6 s)
targets=(fuzz_csv_reader:csv:4096 fuzz_jsonl_reader:jsonl:4096 fuzz_line_reader:lines:4096
         fuzz_tokenizer:tokenizer:4096 fuzz_vocab:vocab:4096 fuzz_model_config:model_config:4096
         fuzz_colbert_config:colbert_config:4096
         fuzz_safetensors:safetensors:4096 fuzz_zip_archive:zip:4096 fuzz_pickle:pickle:4096
         fuzz_tokenizer_files:tokenizer_files:20000 fuzz_converted_file:converted:32768
         fuzz_wordpiece_image:wordpiece_image:8192 fuzz_gzip_input:gzip:4096 fuzz_npy_reader:npy:4096
         fuzz_bpe_tokenizer:bpe_tokenizer:4096:2 fuzz_bpe_files:bpe_files:20000:2
         fuzz_resume_log:resume_log:4096
         fuzz_precompiled_charsmap:precompiled_charsmap:8192:2 fuzz_unigram_model:unigram_model:8192:2
         fuzz_sentencepiece_model:sentencepiece_model:8192:2
         fuzz_unigram_tokenizer:unigram_tokenizer:4096:2 fuzz_pipeline_pieces:pipeline_pieces:4096
         fuzz_hub_files:hub_files:4096 fuzz_splade_config:splade_config:4096
         fuzz_static_folder:static_folder:8192 fuzz_serve_requests:serve_requests:4096)

run_one() {
  local name=$1 seeds=$2 max_len=$3 factor=${4:-1}
  mkdir -p "$work/corpus-$name"
  cp -n "$here/corpus/$seeds"/* "$work/corpus-$name/"
  "$build/tests/fuzz/$name" -max_total_time=$((seconds * factor)) -max_len="$max_len" -timeout="$timeout" -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" "$work/corpus-$name" >"$work/$name.log" 2>&1
}

failed=0
pids=() names=()
for t in "${targets[@]}"; do
  IFS=: read -r name seeds max_len factor <<<"$t"
  if ((${#only[@]})) && [[ ! " ${only[*]} " =~ " $name " ]]; then continue; fi
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  run_one "$name" "$seeds" "$max_len" "$factor" &
  pids+=($!) names+=("$name")
done
for i in "${!pids[@]}"; do
  name=${names[$i]}
  if wait "${pids[$i]}"; then status=ok; else status=FAILED failed=1; fi
  # "#123456 DONE cov: 1234 ft: 5678 corp: ..." is libFuzzer's last status line.
  final=$(grep -E '^#[0-9]+' "$work/$name.log" | tail -1 || true)
  printf '%-22s %-6s %s\n' "$name" "$status" "$final"
  if [ "$status" = FAILED ]; then tail -40 "$work/$name.log"; fi
done
exit "$failed"
