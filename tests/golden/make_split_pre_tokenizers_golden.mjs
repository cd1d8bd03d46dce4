// Makes tests/golden/data/split_pre_tokenizers.jsonl.gz: the reference tokenization (Hugging Face's
// Rust tokenizers through npm `tokenizers` 0.23.2) of texts by multilingual BERT's WordPiece behind the
// pre-tokenizers that only split: Whitespace, WhitespaceSplit, Punctuation (every behavior), Digits
// (individual or not) and BertPreTokenizer, alone and in Sequences, and the layout Hugging Face's
// tutorial trains (NFD, Lowercase, StripAccents; Whitespace). The first line holds the tokenizer.json
// keys each variant replaces (pre_tokenizer, normalizer; "common" to all: none); each later one a text
// and, for each variant, the ids and the (code point) offsets, flattened. Texts: lines of ../shared's corpora (every code point, naughty
// strings, 36 languages, man pages) and crafted runs of digits, punctuation and spaces.
// Run from a folder where `npm install tokenizers@0.23.2` was done:
//   NODE_PATH=$PWD/node_modules node tests/golden/make_split_pre_tokenizers_golden.mjs ../shared OUT.jsonl.gz
import fs from "fs";
import { writeVariantGoldens } from "./variant_goldens.mjs";

const [shared, out] = process.argv.slice(2);

const texts = [];
const corpus = (name, every) =>
  fs.readFileSync(`${shared}/corpora/${name}`, "utf8").split("\n").filter((l, i) => l && i % every === 0);
for (const [name, every] of [["unicode_sweep.txt", 1], ["blns.txt", 1], ["udhr.txt", 6], ["man_en_dev.txt", 6],
                             ["emoji.txt", 10], ["fortunes_ru.txt", 4], ["man_ja.txt", 6], ["en_agnews.txt", 20]])
  for (const line of corpus(name, every)) texts.push(line);
texts.push("3.14 + 2,000 = x1y22z333", "a..b!!c  ?d", "!!a", "a!!", "(x)-[y]--{z}", "١٢٣ ४५६ ⅷ ½ ²", "_a_ b__c",
           "don't stop-believing…", "  ", "", "a\u00a0b\u2003c\u3000d", "e\u0301 x\u200dy z\u200cw", "x+=1;y-=2");

const base = JSON.parse(fs.readFileSync(`${shared}/vocab/bert-base-multilingual-cased/tokenizer.json`, "utf8"));
const ws = { type: "WhitespaceSplit" };
const punct = (behavior) => ({ type: "Punctuation", behavior });
const seq = (...pretokenizers) => ({ type: "Sequence", pretokenizers });
const variants = {
  whitespace: { pre_tokenizer: { type: "Whitespace" } },
  whitespace_split: { pre_tokenizer: ws },
  punct_isolated: { pre_tokenizer: seq(ws, punct("Isolated")) },
  punct_removed: { pre_tokenizer: seq(ws, punct("Removed")) },
  punct_previous: { pre_tokenizer: seq(ws, punct("MergedWithPrevious")) },
  punct_next: { pre_tokenizer: seq(ws, punct("MergedWithNext")) },
  punct_contiguous: { pre_tokenizer: seq(ws, punct("Contiguous")) },
  digits: { pre_tokenizer: seq(ws, { type: "Digits", individual_digits: false }) },
  digits_individual: { pre_tokenizer: seq({ type: "Whitespace" }, { type: "Digits", individual_digits: true }) },
  bert_digits: { pre_tokenizer: seq({ type: "BertPreTokenizer" }, { type: "Digits", individual_digits: true }) },
  tutorial: {
    normalizer: { type: "Sequence", normalizers: [{ type: "NFD" }, { type: "Lowercase" }, { type: "StripAccents" }] },
    pre_tokenizer: { type: "Whitespace" },
  },
};

console.log(`${await writeVariantGoldens(out, base, {}, variants, texts)} texts`);
