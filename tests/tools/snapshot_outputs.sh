#!/usr/bin/env bash
# Runs every subcommand of a bertkit binary over the fixtures in ../shared and writes each run's
# stdout, stderr and exit status to a folder: two binaries' folders compared with `diff -r` show
# whether a refactor changed any output by a byte.
#   tests/tools/snapshot_outputs.sh BINARY OUT_DIR
set -uo pipefail
bin=$(realpath "$1")
out=$2
cd "$(dirname "$0")/../.."
shared=$(realpath ../shared)
M=$shared/fixtures/models
M2=$shared/fixtures/models2
C=$shared/corpora
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 200 "$C/en_sst2_dev.txt" >"$work/en.txt"
head -n 60 "$C/udhr.txt" >"$work/udhr.txt"
head -n 40 "$C/pairs_mrpc.tsv" >"$work/pairs.txt"
cut -f1 "$work/pairs.txt" | head -n 5 >"$work/queries.txt"
printf 'text,label\n"Paris is the [MASK] of France.",x\n"A happy day, truly",y\n' >"$work/in.csv"
sed 's/ [a-z]*s / <mask> /' "$work/en.txt" | grep -F '<mask>' | head -n 40 >"$work/masked.txt"
sed 's/<mask>/[MASK]/' "$work/masked.txt" >"$work/masked-wp.txt"
printf '{"query":"Who eats?","documents":["A man is eating food.","The sky is blue.","Someone eats bread."],"id":7}\n{"query":"Sky colour","documents":["Der Himmel ist blau.","A man is eating food."]}\n' >"$work/lists.jsonl"
printf '{"text":"A man is eating food.","id":1}\n{"text":"Der Himmel ist blau.","id":2}\n' >"$work/in.jsonl"

n=0
run() {  # run NAME ARGS... (stdin from $stdin_file if set)
  local name=$1; shift
  n=$((n + 1))
  "$bin" "$@" <"${stdin_file:-/dev/null}" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
  sed -i "s#$work#WORK#g; s#$shared#SHARED#g" "$out/$name.out" "$out/$name.err"
}

for f in jsonl tokens ids tsv; do
  run "tokenize-en-$f" tokenize --format "$f" -i "$work/en.txt"
  run "tokenize-udhr-$f" tokenize --format "$f" -i "$work/udhr.txt"
done
run tokenize-pairs tokenize --pairs -i "$work/pairs.txt"
run tokenize-bytes tokenize --offsets bytes -i "$work/udhr.txt"
run tokenize-trunc tokenize --max-length 16 --stride 4 -i "$work/en.txt"
run tokenize-pad tokenize --padding longest --format ids -i "$work/en.txt"
run tokenize-count tokenize --count -i "$work/en.txt"
run tokenize-python tokenize --compat python -i "$work/udhr.txt"
run tokenize-cased tokenize -m "$M/bert-cased-cls" -i "$work/udhr.txt"
run tokenize-multi tokenize -m "$M/bert-multilingual-mlm/tokenizer.json" -i "$work/udhr.txt"
run tokenize-args tokenize --format tokens "Hello, world!" "Paris is the [MASK] of France."
run tokenize-csv tokenize -i "$work/in.csv" --csv --column text
run tokenize-decode-dry tokenize --dry-run -i "$work/en.txt"
stdin_file=$work/en.txt run tokenize-stdin tokenize --format ids

for d in f32 bf16 int8; do
  run "embed-$d" embed -m "$M/minilm-embed" --dtype "$d" -i "$work/en.txt"
done
run embed-udhr embed -m "$M/minilm-embed" -i "$work/udhr.txt"
run embed-tokens embed -m "$M/minilm-embed" --token-embeddings "A man is eating food."
run embed-csv embed -m "$M/minilm-embed" -i "$work/in.csv" --column text
run embed-csv-out embed -m "$M/minilm-embed" -i "$work/in.jsonl" --format csv
run embed-tsv-out embed -m "$M/minilm-embed" -i "$work/in.jsonl" --format tsv
run embed-cls embed -m "$M/bert-cased-cls" --pooling mean --normalize -i "$work/en.txt"
run embed-dry embed -m "$M/minilm-embed" --dry-run
run embed-npy embed -m "$M/minilm-embed" -i "$work/en.txt" --format npy -o "$out/embed.npy"

for m in bert-cased-cls bert-multilabel distilbert-uncased-cls electra-cls bert-chinese-cross; do
  run "classify-$m" classify -m "$M/$m" --top-k all -i "$work/en.txt"
  run "classify-$m-pairs" classify -m "$M/$m" --pairs -i "$work/pairs.txt"
done
run classify-dry classify -m "$M/bert-cased-cls" --dry-run
run classify-none classify -m "$M/bert-cased-cls" --function none -i "$work/in.jsonl"

for m in bert-uncased-mlm bert-multilingual-mlm distilbert-uncased-mlm bert-uncased-mlm-newformat; do
  run "fill-$m" fill-mask -m "$M/$m" --top-k 3 "Paris is the [MASK] of France." "The [MASK] sat on the [MASK]."
done
run fill-csv fill-mask -m "$M/bert-uncased-mlm" -i "$work/in.csv" --column text
run fill-dry fill-mask -m "$M/bert-uncased-mlm" --dry-run

for m in bert-uncased-qa distilbert-uncased-qa; do
  run "qa-$m" qa -m "$M/$m" -i "$work/pairs.txt"
done
run qa-dry qa -m "$M/bert-uncased-qa" --dry-run

run sim-pairs similarity -m "$M/minilm-embed" --pairs -i "$work/pairs.txt"
run sim-args similarity -m "$M/minilm-embed" "A man is eating food." "A man is eating bread."
run sim-cross similarity -m "$M/bert-chinese-cross" --pairs -i "$work/pairs.txt"
for metric in cosine dot euclidean manhattan; do
  run "sim-search-$metric" similarity -m "$M/minilm-embed" --metric "$metric" --queries "$work/queries.txt" --corpus "$work/en.txt" --top-k 3
done
run sim-dry similarity -m "$M/minilm-embed" --dry-run

for m in "$M"/*/; do
  name=$(basename "$m")
  run "info-$name" info "$m"
  run "info-json-$name" info --json "$m"
  for d in f32 bf16 int8; do
    run "convert-$name-$d" convert --dtype "$d" "$m" "$work/$name-$d.bk"
    sha256sum <"$work/$name-$d.bk" >"$out/convert-$name-$d.sha"
    run "info-bk-$name-$d" info "$work/$name-$d.bk"
  done
  run "verify-$name" convert --verify --dtype int8 "$m"
done

# The later families and tasks (fixtures/models2).
for m in bert-cased-ner distilbert-uncased-ner electra-ner roberta-ner; do
  for a in none simple first average max; do
    run "ner-$m-$a" ner -m "$M2/$m" --aggregation "$a" -i "$work/udhr.txt"
  done
done
for m in mpnet-embed camembert-embed; do
  run "embed2-$m" embed -m "$M2/$m" -i "$work/udhr.txt"
  run "sim2-$m" similarity -m "$M2/$m" --queries "$work/queries.txt" --corpus "$work/en.txt" --top-k 3
done
for m in roberta-cls camembert-cls bert-uncased-nsp; do
  run "classify2-$m" classify -m "$M2/$m" --top-k all --pairs -i "$work/pairs.txt"
done
for m in roberta-mlm mpnet-mlm; do
  run "fill2-$m" fill-mask -m "$M2/$m" --top-k 3 -i "$work/masked.txt"
done
run fill2-pretraining fill-mask -m "$M2/bert-uncased-pretraining" --top-k 3 -i "$work/masked-wp.txt"
run qa2-roberta qa -m "$M2/roberta-qa" -i "$work/pairs.txt"
run rerank-pairs rerank -m "$M/bert-chinese-cross" --pairs -i "$work/pairs.txt"
run rerank-query rerank -m "$M/bert-chinese-cross" --query "What happened?" -i "$work/en.txt" --top-k 5
run rerank-lists rerank -m "$M/bert-chinese-cross" --jsonl -i "$work/lists.jsonl" --return-documents
for m in "$M2"/*/; do
  name=$(basename "$m")
  run "info2-$name" info --json "$m"
  run "convert2-$name-int8" convert --dtype int8 "$m" "$work/$name-int8.bk"
  sha256sum <"$work/$name-int8.bk" >"$out/convert2-$name-int8.sha"
done
run embed-bk embed -m "$work/minilm-embed-int8.bk" -i "$work/en.txt"

# Bad input: the message and the exit status.
run bad-model embed -m /nonexistent "x"
run bad-flag tokenize --format nope "x"
run bad-sub embd "x"
printf 'a,b\n"unterminated\n' >"$work/bad.csv"
run bad-csv embed -m "$M/minilm-embed" -i "$work/bad.csv" --column a
echo "$n runs written to $out"
