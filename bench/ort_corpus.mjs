#!/usr/bin/env node
// ONNX Runtime fed uneven text the way sentence-transformers feeds it: the lines sorted by length in
// characters (longest first), batches of --batch, every batch padded to its longest sequence. Prints one
// JSON line: real tokens per second over one timed pass (after one untimed pass), and the padding share.
// The ids are random (speed does not depend on them); each line's token count comes from bertkit:
//
//   bertkit tokenize --count --max-length 512 -i corpus.txt > counts.jsonl
//   cd /tmp/ort && node <repo>/bench/ort_corpus.mjs --model minilm-l6/model.onnx --threads 1 \
//       --corpus corpus.txt --counts counts.jsonl
//
// /tmp/ort is set up as ../shared/bench/README.md says (onnxruntime-node and the filled models).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

function parseArgs(argv) {
  const a = { model: null, threads: 1, corpus: null, counts: null, batch: 32 };
  for (let i = 2; i < argv.length; i++) {
    const v = () => argv[++i];
    switch (argv[i]) {
      case '--model': a.model = v(); break;
      case '--threads': a.threads = parseInt(v(), 10); break;
      case '--corpus': a.corpus = v(); break;
      case '--counts': a.counts = v(); break;
      case '--batch': a.batch = parseInt(v(), 10); break;
      default: console.error(`unknown argument ${argv[i]}`); process.exit(2);
    }
  }
  if (!a.model || !a.corpus || !a.counts) {
    console.error('usage: node ort_corpus.mjs --model M.onnx --corpus FILE --counts FILE [--threads N] [--batch 32]');
    process.exit(2);
  }
  return a;
}

// Lines split on '\n' only, as bertkit reads them; a final newline ends the last line.
function lines(file) {
  const text = readFileSync(file, 'utf8');
  const all = text.split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  return all;
}

async function main() {
  const args = parseArgs(process.argv);
  const texts = lines(args.corpus);
  const counts = lines(args.counts).map((x) => JSON.parse(x).count);
  if (texts.length !== counts.length) {
    console.error(`${args.counts}: ${counts.length} counts for ${texts.length} lines of ${args.corpus}`);
    process.exit(3);
  }
  const ort = createRequire(join(process.cwd(), 'package.json'))('onnxruntime-node');
  const session = await ort.InferenceSession.create(args.model, {
    executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: args.threads,
    interOpNumThreads: 1, executionMode: 'sequential',
  });
  // sentence-transformers sorts by -len(text), len counting code points.
  const order = texts.map((t, i) => [Array.from(t).length, i]).sort((x, y) => y[0] - x[0] || x[1] - y[1]).map((x) => x[1]);
  const batches = [];
  let tokens = 0, padded = 0;
  for (let first = 0; first < order.length; first += args.batch) {
    const members = order.slice(first, first + args.batch);
    const longest = Math.max(...members.map((i) => counts[i]));
    const n = members.length * longest;
    const ids = new BigInt64Array(n), mask = new BigInt64Array(n);
    members.forEach((line, r) => {
      for (let t = 0; t < longest; t++) {
        const real = t < counts[line];
        ids[r * longest + t] = real ? BigInt(1000 + ((line * 7919 + t * 104729) % 29000)) : 0n;
        mask[r * longest + t] = real ? 1n : 0n;
      }
      tokens += counts[line];
    });
    padded += n;
    const dims = [members.length, longest];
    batches.push({
      input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), dims),
    });
  }
  for (const f of batches) await session.run(f);  // untimed pass
  const t0 = performance.now();
  for (const f of batches) await session.run(f);
  const seconds = (performance.now() - t0) / 1e3;
  console.log(JSON.stringify({
    peer: 'onnxruntime-node', feeding: 'sentence-transformers', threads: args.threads, batch: args.batch,
    lines: texts.length, batches: batches.length, tokens, padding: +(1 - tokens / padded).toFixed(4),
    seconds: +seconds.toFixed(3), tokens_per_s: +(tokens / seconds).toFixed(1),
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });
