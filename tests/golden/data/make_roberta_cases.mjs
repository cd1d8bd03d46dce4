// Writes roberta_cases.jsonl: what the Rust tokenizer (npm `tokenizers` 0.23.2) gives for the cases the
// shared corpora do not hold: <mask> (lstrip) after various spaces, add_prefix_space on the
// pre-tokenizer and RobertaProcessing, pairs, and decoding. Run from this folder:
//   npm install tokenizers@0.23.2 && node make_roberta_cases.mjs ../../../../shared/vocab/roberta-base/tokenizer.json
import { Tokenizer } from "tokenizers";
import { readFileSync, writeFileSync } from "node:fs";

const file = JSON.parse(readFileSync(process.argv[2], "utf8"));
const variants = {
  plain: file,
  prefix: {
    ...file,
    pre_tokenizer: { ...file.pre_tokenizer, add_prefix_space: true },
    post_processor: { ...file.post_processor, add_prefix_space: true },
  },
};
const texts = [
  "Hello <mask>!", "Hello   <mask> there", "<mask> x", " <mask>", "a\u3000<mask>", "x\t<mask>\ny",
  "  hello  world  ", "x\n\n y", "I'm 'sup don't 123abc", "\u{1F600} ok", "caf\u00e9\u00a0cr\u00e8me",
  "<s>hello</s> <pad>", "a<mask>\u3000\u00a0x", "Hello world", " Hello world", "", " ", "The Company's 2nd-quarter results\u2014again.",
];
const pairs = [["Hello world", "  second   text "], ["<mask> is", "what <mask>"]];
const lines = [];
for (const [variant, json] of Object.entries(variants)) {
  const tok = Tokenizer.fromString(JSON.stringify(json));
  for (const t of texts) {
    const e = await tok.encode(t);
    lines.push({ variant, text: t, ids: e.getIds(), offsets: e.getOffsets() });
  }
  for (const [a, b] of pairs) {
    const e = await tok.encode(a, b);
    lines.push({ variant, text_a: a, text_b: b, ids: e.getIds(), offsets: e.getOffsets(), sequence: e.getSequenceIds() });
  }
}
const tok = Tokenizer.fromString(JSON.stringify(file));
for (const ids of [[0, 31414, 232, 2], [18636, 7471, 15983], [18636, 15983], [0, 50264, 2, 1437, 1437]]) {
  lines.push({ decode: ids, text: await tok.decode(ids, true) });
}
writeFileSync("roberta_cases.jsonl", lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
