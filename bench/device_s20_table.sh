#!/bin/bash
# Issue 35: the 16-core table, old (eeab204 with bench --profile) against new, beside ONNX Runtime (plain,
# fused, int8), in one run on the device; then the op and batch-invariance tests and old/new embeddings on
# its AMX CPU. Session 20, run from devrun/ holding bertkit-old, bertkit-new, bertkit_tests, libs.tar.xz,
# lines.txt (400 corpus lines), shared/fixtures/models/minilm-embed, and copies of ../shared/bench/device
# (device/) and ../shared/bench/models (models/). Figures in the session-20 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
DEADLINE=${DEADLINE:-400}; ok() { (( $(el) < DEADLINE - ${1:-20} )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
mkdir -p /work && ln -sfn "$PWD/shared" /work/shared
L="$O/log.txt"; R="$O/results.jsonl"
{ lscpu | grep -E "Model name|^CPU\(s\)"; ./bertkit-new --version; } > "$O/env.txt" 2>&1
# 1. Tests on this CPU (AMX): ops, and batch invariance of every type.
timeout 60 ./bertkit_tests --source-file='*unit/ops_*,*encoder_batch_invariance*' 2>&1 | tail -6 >> "$L"
echo "tests done at $(el)s" >> "$L"
# 2. Embeddings, old against new, and each type against f32.
for d in f32 int8 bf16; do for b in old new; do
  timeout 30 ./bertkit-$b embed -m shared/fixtures/models/minilm-embed --dtype $d -i lines.txt -o /tmp/e-$d-$b.jsonl 2>>"$L"
done; done
python3 - >> "$L" 2>&1 <<'PY'
import json
def load(p): return [json.loads(l)["embedding"] for l in open(p)]
def diff(a, b): return max(max(abs(x - y) for x, y in zip(u, v)) for u, v in zip(a, b))
f32 = load("/tmp/e-f32-old.jsonl")
for d in ["f32", "int8", "bf16"]:
    old, new = load(f"/tmp/e-{d}-old.jsonl"), load(f"/tmp/e-{d}-new.jsonl")
    print(f"{d}: new vs old max abs {diff(new, old):.3g}; old vs f32 {diff(old, f32):.3g}; new vs f32 {diff(new, f32):.3g}; identical {new == old}")
PY
echo "embeddings done at $(el)s" >> "$L"
# 3. ONNX Runtime's graphs, as ../shared/bench/device/run.sh makes them.
mkdir -p /tmp/ort
for s in minilm-l6 bert-base; do python3 device/fill_weights.py models/$s/model.graph.onnx /tmp/ort/$s.onnx > /dev/null; done
python3 - >> "$L" 2>&1 <<'PY'
from onnxruntime.transformers import optimizer
from onnxruntime.quantization import quantize_dynamic, QuantType
for s, h in [("minilm-l6", 384), ("bert-base", 768)]:
    optimizer.optimize_model(f"/tmp/ort/{s}.onnx", model_type="bert", num_heads=12, hidden_size=h).save_model_to_file(f"/tmp/ort/{s}.fused.onnx")
    quantize_dynamic(f"/tmp/ort/{s}.onnx", f"/tmp/ort/{s}.int8.onnx", weight_type=QuantType.QInt8)
PY
echo "onnx done at $(el)s" >> "$L"
# 4. The table: old and new interleaved, then ONNX Runtime, per shape.
TH=1,4,16; WL=1x16,1x128,16x128; MT=0.4
for s in minilm-l6 bert-base; do
  for d in f32 int8 bf16; do for b in new old; do
    ok 30 && timeout 60 ./bertkit-$b bench --shape $s --threads $TH --workloads $WL --dtype $d --format jsonl --min-time $MT --runs 3 2>>"$L" | python3 device/tag.py bertkit-$b-$d $s >> "$R"
  done; done
  for v in plain fused int8; do
    f=/tmp/ort/$s.onnx; [[ $v == fused ]] && f=/tmp/ort/$s.fused.onnx; [[ $v == int8 ]] && f=/tmp/ort/$s.int8.onnx
    ok 30 && [[ -f $f ]] && timeout 60 python3 device/ort_bench.py $f $v-$s $TH $WL $MT 2>>"$L" | python3 device/tag.py ort-$v $s >> "$R"
  done
  echo "$s done at $(el)s" >> "$L"
done
# 5. One thread at bert-base 16x128 (the scaling target), new only.
for d in f32 bf16 int8; do
  ok 30 && timeout 40 ./bertkit-new bench --shape bert-base --threads 1 --workloads 16x128 --dtype $d --format jsonl --min-time 0 --runs 2 2>>"$L" | python3 device/tag.py bertkit-new-$d bert-base >> "$R"
done
ok 30 && timeout 40 ./bertkit-new bench --shape bert-base --threads 16 --workloads 16x128,1x16 --dtype int8 --profile --min-time 0.3 --runs 3 >> "$O/profile-new.txt" 2>&1
ok 30 && timeout 40 ./bertkit-new bench --shape bert-base --threads 16 --workloads 16x128,1x16 --dtype bf16 --profile --min-time 0.3 --runs 3 >> "$O/profile-new.txt" 2>&1
echo "all done at $(el)s" >> "$L"
