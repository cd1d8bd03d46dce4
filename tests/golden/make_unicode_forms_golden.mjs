// Makes tests/golden/data/unicode_forms.jsonl.gz: the reference tokenization (Hugging Face's Rust
// tokenizers through npm `tokenizers` 0.23.2) of texts by tokenizer.json normalizers NFC, NFD, NFKC,
// NFKD and StripAccents, alone and in sequences. The model is a WordPiece whose vocabulary is every
// single character (and its "##" form) of the texts and of their normal forms, so that almost every
// character is a token of its own and its offsets show its alignment to the original text.
// The first line holds the tokenizer.json keys every variant replaces ("common": the model with that
// vocabulary) and each variant's own (its normalizer); each later one a text and, for
// each variant, the ids and the (code point) offsets, flattened, that the Rust library gives. Texts: ../shared's normalization.txt (the
// Unicode normalization test's five columns), unicode_sweep.txt, and lines of blns, udhr, man_ja,
// fortunes_de; and random runs of letters, precomposed letters, combining marks of many classes,
// compatibility characters, Hangul and jamo.
// Run from a folder where `npm install tokenizers@0.23.2` was done:
//   NODE_PATH=$PWD/node_modules node tests/golden/make_unicode_forms_golden.mjs ../shared OUT.jsonl.gz
import fs from "fs";
import { writeVariantGoldens } from "./variant_goldens.mjs";
const [shared, out] = process.argv.slice(2);

// A reproducible generator (mulberry32), so that the file is the same on every run.
let seed = 20261126;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(random() * a.length)];

const texts = [];
const corpus = (name, every) =>
  fs.readFileSync(`${shared}/corpora/${name}`, "utf8").split("\n").filter((l, i) => l && i % every === 0);
for (const line of corpus("normalization.txt", 1)) texts.push(line);
for (const line of corpus("unicode_sweep.txt", 1)) texts.push(line);
for (const [name, every] of [["blns.txt", 1], ["udhr.txt", 8], ["man_ja.txt", 8], ["fortunes_de.txt", 4]])
  for (const line of corpus(name, every)) texts.push(line);

const pool = [
  ..."aAeEoOuUsSkKnNzZ ",
  ..."\u00e9\u00c5\u00fc\u01d6\u01fa\u1ec7\u1e9b\u0344\u0f73\u0958\u2126\u212b\u212a\uf900\u2000\u00c7\u1e09",
  ..."\u0300\u0301\u0302\u0308\u030a\u030c\u0323\u0327\u0328\u0334\u0345\u05b0\u05b8\u0e48\u0f72\u0f71\u302a\u3099\u309a",
  ..."\ufb01\u2460\u00bd\u00b2\u33cf\uff76\uff9e\u30ac\u1f80\u2163\u00a0\u3000\u2028\u00aa",
  ..."\uac00\ud7a3\uac01\u1100\u1161\u11a8\u1112\u1175\u11c2",
];
for (let i = 0; i < 2000; ++i) {
  let s = "";
  for (let n = 1 + Math.floor(random() * 12); n > 0; --n) s += pick(pool);
  texts.push(s);
}

const base = JSON.parse(fs.readFileSync(`${shared}/vocab/bert-base-multilingual-cased/tokenizer.json`, "utf8"));
const normalizers = {
  nfc: { type: "NFC" },
  nfd: { type: "NFD" },
  nfkc: { type: "NFKC" },
  nfkd: { type: "NFKD" },
  strip_accents: { type: "StripAccents" },
  nfd_lower_strip: { type: "Sequence", normalizers: [{ type: "NFD" }, { type: "Lowercase" }, { type: "StripAccents" }] },
  nfkc_lower: { type: "Sequence", normalizers: [{ type: "NFKC" }, { type: "Lowercase" }] },
  nfd_nfc: { type: "Sequence", normalizers: [{ type: "NFD" }, { type: "NFC" }] },
};

const chars = new Set();
for (const t of texts)
  for (const form of ["NFC", "NFD", "NFKC", "NFKD"])
    for (const c of [...t.normalize(form), ...t.normalize(form).toLowerCase(), ...t]) chars.add(c);
const vocab = ["[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"];
for (const c of [...chars].sort()) if (!/\s/u.test(c)) vocab.push(c, "##" + c);

// The tokenizer.json keys every variant replaces, then each variant's own.
const common = { model: { ...base.model, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])), max_input_chars_per_word: 100000 } };
const variants = Object.fromEntries(Object.entries(normalizers).map(([name, normalizer]) => [name, { normalizer }]));
console.log(`${await writeVariantGoldens(out, base, common, variants, texts)} texts, ${vocab.length} tokens`);
