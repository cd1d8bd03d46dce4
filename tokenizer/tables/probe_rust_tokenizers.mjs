// Probes Hugging Face tokenizers (npm `tokenizers`, the Rust library) code point by code point and writes
// rust_props.tsv: cp, clean_text result (D deleted / S space / K kept), strip_accents result, lowercase
// result, handle_chinese_chars (1 = split), BertPreTokenizer class (W whitespace / P punctuation / N),
// StripAccents result (- removed / = kept), NFKD result, Whitespace pre-tokenizer class (W a word
// character / S white space / O other), Digits (1 = numeric).
// Usage: npm install tokenizers@0.23.2 && node probe_rust_tokenizers.mjs OUT.tsv
import tk from 'tokenizers';
import fs from 'fs';
const clean = tk.bertNormalizer({cleanText:true, handleChineseChars:false, stripAccents:false, lowercase:false});
const strip = tk.bertNormalizer({cleanText:false, handleChineseChars:false, stripAccents:true, lowercase:false});
const lower = tk.bertNormalizer({cleanText:false, handleChineseChars:false, stripAccents:false, lowercase:true});
const cjk = tk.bertNormalizer({cleanText:false, handleChineseChars:true, stripAccents:false, lowercase:false});
const pre = tk.bertPreTokenizer();
const stripAccents = tk.stripAccentsNormalizer();
const nfkd = tk.nfkdNormalizer();
const whitespace = tk.whitespacePreTokenizer();
const digits = tk.digitsPreTokenizer(true);
const out = [];
const cps = s => Array.from(s).map(c => c.codePointAt(0).toString(16)).join(' ');
for (let cp = 0; cp <= 0x10FFFF; cp++) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  const c = String.fromCodePoint(cp);
  const cl = clean.normalizeString(c);
  const clk = cl === '' ? 'D' : cl === ' ' ? 'S' : cl === c ? 'K' : 'X' + cps(cl);
  const st = strip.normalizeString(c);
  const lo = lower.normalizeString(c);
  const cj = cjk.normalizeString(c) === c ? 0 : 1;
  const pt = pre.preTokenizeString('a' + c + 'b').map(x => x[0]);
  let pk;
  if (pt.length === 2 && pt[0] === 'a' && pt[1] === 'b') pk = 'W';
  else if (pt.length === 3 && pt[1] === c) pk = 'P';
  else if (pt.length === 1) pk = 'N';
  else pk = '?' + JSON.stringify(pt);
  const sa = stripAccents.normalizeString(c) === '' ? '-' : '=';
  const kd = nfkd.normalizeString(c);
  const ws = whitespace.preTokenizeString('a' + c + 'b').map(x => x[0]);
  let wk;
  if (ws.length === 1) wk = 'W';
  else if (ws.length === 2 && ws[0] === 'a' && ws[1] === 'b') wk = 'S';
  else if (ws.length === 3 && ws[1] === c) wk = 'O';
  else wk = '?' + JSON.stringify(ws);
  const dg = digits.preTokenizeString('a' + c + 'b').length === 3 ? 1 : 0;
  out.push(`${cp.toString(16)}\t${clk}\t${st === c ? '=' : cps(st) || '-'}\t${lo === c ? '=' : cps(lo)}\t${cj}\t${pk}\t${sa}\t${kd === c ? '=' : cps(kd)}\t${wk}\t${dg}`);
}
fs.writeFileSync(process.argv[2] || 'rust_props.tsv', out.join('\n') + '\n');
