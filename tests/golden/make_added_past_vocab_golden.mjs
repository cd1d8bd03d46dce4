// Makes tests/golden/data/added_past_vocab.jsonl.gz: the reference tokenization (Hugging Face's Rust
// tokenizers through npm `tokenizers` 0.23.2) of texts by bert-base-uncased and roberta-base with added
// tokens numbered past their vocabularies, as a fine-tuned model's tokenizer.json holds them after
// `tokenizer.add_tokens(...)`: special and not, normalized and not, single_word, lstrip/rstrip, and one
// whose text is also a vocabulary token. The first line holds the tokenizer.json keys each variant
// replaces (added_tokens); each later one a text and, for each variant, the ids and the (code point)
// offsets, flattened. Texts: lines of ../shared's corpora with the added tokens put in at spaces, inside
// words and at the ends, and crafted ones.
// Run from a folder where `npm install tokenizers@0.23.2` was done:
//   NODE_PATH=$PWD/node_modules node tests/golden/make_added_past_vocab_golden.mjs ../shared BASE \
//     tests/golden/data/added_past_vocab_BASE.jsonl.gz
// with BASE bert-base-uncased or roberta-base.
import fs from "fs";
import { writeVariantGoldens } from "./variant_goldens.mjs";

const [shared, baseName, out] = process.argv.slice(2);

const base = JSON.parse(fs.readFileSync(`${shared}/vocab/${baseName}/tokenizer.json`, "utf8"));
const size = Object.keys(base.model.vocab).length;
const token = (k, content, more) => ({ id: size + k, content, single_word: false, lstrip: false, rstrip: false,
                                       normalized: true, special: false, ...more });
const plain = [token(0, "<ent>", { special: true, normalized: false }), token(1, "</ent>", { special: true, normalized: false }),
               token(2, "newword"), token(3, "Foo-Bar"), token(4, "xyz", { single_word: true }),
               token(5, "hello"), token(6, "[E1]", { special: true, normalized: false, lstrip: true, rstrip: true })];
const variants = {
  past: { added_tokens: [...base.added_tokens, ...plain] },
  // Listed out of id order, as a file written by hand may be.
  unordered: { added_tokens: [...base.added_tokens, ...[...plain].reverse()] },
};

const inserts = ["<ent>", "</ent>", "newword", "Foo-Bar", "foo-bar", "xyz", "hello", "[E1]", " [E1] "];
const texts = [];
const corpus = (name, every) =>
  fs.readFileSync(`${shared}/corpora/${name}`, "utf8").split("\n").filter((l, i) => l && i % every === 0);
let k = 0;
for (const [name, every] of [["blns.txt", 4], ["udhr.txt", 12], ["en_agnews.txt", 20], ["man_en_dev.txt", 12],
                             ["emoji.txt", 20]])
  for (const line of corpus(name, every)) {
    const add = inserts[k++ % inserts.length];
    const words = line.split(" ");
    const at = k % (words.length + 1);
    texts.push([...words.slice(0, at), add, ...words.slice(at)].join(" "));  // at a space
    const chars = Array.from(line);  // code points: a cut between a surrogate pair is no text
    const cut = Math.floor(chars.length / 2);
    texts.push(chars.slice(0, cut).join("") + add + chars.slice(cut).join(""));  // inside a word too
  }
texts.push("<ent>Paris</ent> is in France", "newwords newword anewword", "xyz xyzzy axyz xyz.", "hellohello hello",
           "FOO-BAR foo-barbaz", "a[E1]b  [E1]  c", "<ent><ent></ent>", "", "   ", "<ent", "new word");

console.log(`${await writeVariantGoldens(out, base, {}, variants, texts)} texts`);
