#!/usr/bin/env python3
"""Turns a `bertkit bench --shape deberta-v3-base --save DIR` folder into an NLI classifier folder (random
ContextPooler and 3-label classifier, label2id with "entailment") for timing zero-shot against classify,
and writes the inputs: TEXTS texts of 12 to 30 vocabulary words, and the same texts paired with each of
the 8 labels' hypothesis ("This example is {}.", the zero-shot default). No library beyond Python's own.
Usage: make_nli_head.py DIR TEXTS OUTDIR"""
import array, json, os, random, struct, sys

folder, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(7)
config = json.load(open(os.path.join(folder, "config.json")))
hidden = config["hidden_size"]
config["architectures"] = ["DebertaV2ForSequenceClassification"]
config["id2label"] = {"0": "contradiction", "1": "entailment", "2": "neutral"}
config["label2id"] = {"contradiction": 0, "entailment": 1, "neutral": 2}
json.dump(config, open(os.path.join(folder, "config.json"), "w"), indent=1)

def floats(n):
    return array.array("f", (rng.uniform(-0.05, 0.05) for _ in range(n))).tobytes()

head = {"pooler.dense.weight": ([hidden, hidden], floats(hidden * hidden)), "pooler.dense.bias": ([hidden], floats(hidden)),
        "classifier.weight": ([3, hidden], floats(3 * hidden)), "classifier.bias": ([3], floats(3))}
# Appended to model.safetensors: its header grows, its data is copied as it is and the head follows.
path = os.path.join(folder, "model.safetensors")
with open(path, "rb") as f:
    size = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(size))
    offset = max(t["data_offsets"][1] for k, t in header.items() if k != "__metadata__")
    for name, (shape, data) in head.items():
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(path + ".tmp", "wb") as g:
        g.write(struct.pack("<Q", len(raw)) + raw)
        while chunk := f.read(1 << 24):
            g.write(chunk)
        g.write(b"".join(data for _, data in head.values()))
os.replace(path + ".tmp", path)

words = [w for w in open(os.path.join(folder, "vocab.txt"), encoding="utf-8").read().split("\n")
         if w.isalpha() and w.isascii() and len(w) > 2]
labels = ["politics", "sports", "science", "business", "health", "travel", "cooking", "music"]
texts = [" ".join(rng.choice(words) for _ in range(rng.randint(12, 30))).capitalize() + "." for _ in range(count)]
os.makedirs(out, exist_ok=True)
open(os.path.join(out, "texts.txt"), "w").write("\n".join(texts) + "\n")
open(os.path.join(out, "labels.txt"), "w").write(",".join(labels) + "\n")
open(os.path.join(out, "pairs.txt"), "w").write("".join(f"{t}\tThis example is {l}.\n" for t in texts for l in labels))
