// Real clients against a running `bertkit serve` (tests/cli/serve_clients_cli_test.cpp starts it):
//   node serve_clients.mjs PORT API_KEY EMBED_MODEL CROSS_MODEL CLASSIFIER_MODEL TEXTS_JSON
// 1. The official OpenAI Node SDK's embeddings.create (which asks for base64 and decodes it, as it does
//    against OpenAI) and the same with encoding_format "float".
// 2. Every text-embeddings-inference route, its answer validated with ajv against the shapes TEI's
//    OpenAPI document gives (tei_responses.schema.json), errors included.
// Prints one JSON object: the SDK's vectors and each route's validation errors (none: []).
import Ajv from "ajv";
import OpenAI from "openai";
import { readFileSync } from "node:fs";

const [port, key, embedModel, crossModel, classifierModel, textsJson] = process.argv.slice(2);
const texts = JSON.parse(textsJson);
const base = `http://127.0.0.1:${port}`;
const out = { sdk_base64: [], sdk_float: [], validation: {} };

const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0, timeout: 60000 });
const decoded = await client.embeddings.create({ model: embedModel, input: texts });
out.sdk_base64 = decoded.data.map((d) => Array.from(d.embedding));
out.sdk_usage = decoded.usage;
const floats = await client.embeddings.create({ model: embedModel, input: texts, encoding_format: "float" });
out.sdk_float = floats.data.map((d) => d.embedding);
try {
  await client.embeddings.create({ model: "no-such-model", input: "x" });
  out.sdk_error = "no error";
} catch (e) {
  out.sdk_error = { status: e.status, name: e.constructor.name, param: e.param ?? null };
}

const schemas = JSON.parse(readFileSync(new URL("./tei_responses.schema.json", import.meta.url)));
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(schemas, "tei");
const headers = { "Content-Type": "application/json", Authorization: `Bearer ${key}` };
async function check(name, method, path, body, schema, status = 200) {
  const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await r.json();
  const validate = ajv.getSchema(`tei#/definitions/${schema}`);
  const errors = [];
  if (r.status !== status) errors.push(`status ${r.status}, expected ${status}`);
  if (!validate(answer)) errors.push(...validate.errors.map((e) => `${e.instancePath} ${e.message}`));
  out.validation[name] = errors;
}
await check("embed", "POST", `/embed?model=${embedModel}`, { inputs: texts }, "embed");
await check("embed one", "POST", `/embed?model=${embedModel}`, { inputs: texts[0], normalize: false }, "embed");
await check("embed_all", "POST", `/embed_all?model=${embedModel}`, { inputs: texts }, "embed_all");
await check("rerank", "POST", `/rerank?model=${crossModel}`, { query: texts[0], texts, return_text: true }, "rerank");
await check("similarity", "POST", `/similarity?model=${embedModel}`,
            { inputs: { source_sentence: texts[0], sentences: texts } }, "similarity");
await check("predict one", "POST", `/predict?model=${classifierModel}`, { inputs: texts[0] }, "predict");
await check("predict batch", "POST", `/predict?model=${classifierModel}`, { inputs: texts.map((t) => [t]) }, "predict");
await check("tokenize", "POST", `/tokenize?model=${embedModel}`, { inputs: texts }, "tokenize");
await check("decode", "POST", `/decode?model=${embedModel}`, { ids: [[101, 7592, 102]] }, "decode");
await check("info embedding", "GET", `/info?model=${embedModel}`, undefined, "info");
await check("info reranker", "GET", `/info?model=${crossModel}`, undefined, "info");
await check("info classifier", "GET", `/info?model=${classifierModel}`, undefined, "info");
await check("openai", "POST", "/v1/embeddings", { input: texts, model: embedModel }, "openai");
await check("error 422", "POST", `/embed?model=${embedModel}`, { inputs: 5 }, "error", 422);
await check("error 400", "POST", `/embed?model=${embedModel}`, { inputs: [] }, "error", 400);
await check("error 413", "POST", `/embed?model=${embedModel}`, { inputs: Array(600).fill("x") }, "error", 413);
console.log(JSON.stringify(out));
