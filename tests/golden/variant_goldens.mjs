// Writes the goldens of tokenizer.json variants that tests/golden/variant_goldens.cpp checks, for the
// make_*_golden.mjs scripts: a first line {"common": {...}, "variants": {name: {...}}} naming the keys
// of `base` that every variant, then each one, replaces; then per text each variant's ids and code point
// offsets (flattened), as npm `tokenizers` (Hugging Face's Rust tokenizer) encodes it without special
// tokens. Returns the number of texts.
import { createRequire } from "module";
import fs from "fs";
import zlib from "zlib";

const require = createRequire(import.meta.url);
const { Tokenizer } = require("tokenizers");

export async function writeVariantGoldens(out, base, common, variants, texts) {
  const results = texts.map((text) => ({ text, results: {} }));
  for (const [variant, pieces] of Object.entries(variants)) {
    const json = { ...base, truncation: null, padding: null, ...common, ...pieces };
    const tok = Tokenizer.fromString(JSON.stringify(json));
    for (const r of results) {
      const e = await tok.encode(r.text, null, { addSpecialTokens: false });
      r.results[variant] = [e.getIds(), e.getOffsets().flat()];
    }
  }
  const lines = [JSON.stringify({ common, variants }), ...results.map((r) => JSON.stringify(r))];
  fs.writeFileSync(out, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
  return results.length;
}
