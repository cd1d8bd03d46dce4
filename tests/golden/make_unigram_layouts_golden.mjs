// Makes tests/golden/data/unigram_layouts.jsonl.gz: the reference tokenization (Hugging Face's Rust
// tokenizers through npm `tokenizers` 0.23.2) of corpus lines by two more layouts of a SentencePiece
// Unigram tokenizer.json, built from the pieces and charsmap of ../shared's sentence-camembert-base:
//   "metaspace"  — normalizer Sequence[Precompiled], pre-tokenizer Metaspace with prepend_scheme
//                  "always" and split (how tokenizers >= 0.19 writes XLM-R's);
//   "whitespace" — normalizer Precompiled alone, pre-tokenizer Sequence[WhitespaceSplit, Metaspace
//                  (add_prefix_space)] (the older conversions' layout).
// Run from a folder where `npm install tokenizers@0.23.2` was done:
//   NODE_PATH=$PWD/node_modules node tests/golden/make_unigram_layouts_golden.mjs ../shared OUT.jsonl.gz
import { createRequire } from "module";
import fs from "fs";
import zlib from "zlib";

const require = createRequire(import.meta.url);
const { Tokenizer } = require("tokenizers");
const [shared, out] = process.argv.slice(2);

const base = JSON.parse(fs.readFileSync(`${shared}/vocab/sentence-camembert-base/tokenizer.json`, "utf8"));
base.truncation = null;
base.padding = null;
const precompiled = base.normalizer.normalizers.find((n) => n.type === "Precompiled");
const layouts = {
  metaspace: {
    normalizer: { type: "Sequence", normalizers: [precompiled] },
    pre_tokenizer: { type: "Metaspace", replacement: "\u2581", prepend_scheme: "always", split: true },
  },
  whitespace: {
    normalizer: precompiled,
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [{ type: "WhitespaceSplit" }, { type: "Metaspace", replacement: "\u2581", add_prefix_space: true }],
    },
  },
};

const corpora = ["blns.txt", "udhr.txt", "emoji.txt", "normalization.txt", "man_ja.txt"];
const kLinesPerCorpus = 400;
const records = [];
for (const [name, layout] of Object.entries(layouts)) {
  const tok = Tokenizer.fromString(JSON.stringify({ ...base, ...layout }));
  for (const corpus of corpora) {
    const lines = fs.readFileSync(`${shared}/corpora/${corpus}`, "utf8").split("\n").filter((l) => l.length > 0).slice(0, kLinesPerCorpus);
    for (let i = 0; i + 1 < lines.length; i += 2) {
      for (const pair of [false, true]) {
        const e = pair ? await tok.encode(lines[i], lines[i + 1]) : await tok.encode(lines[i]);
        records.push({ layout: name, corpus, line: i + 1, text: lines[i], ...(pair ? { text_b: lines[i + 1] } : {}),
                       ids: e.getIds(), sequence: e.getSequenceIds(), offsets: e.getOffsets() });
      }
    }
  }
}
fs.writeFileSync(out, zlib.gzipSync(records.map((r) => JSON.stringify(r)).join("\n") + "\n"));
console.log(`${records.length} records`);
