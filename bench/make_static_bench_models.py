#!/usr/bin/env python3
"""Writes the two random models `embed`'s static-embedding speed is measured with (speed does not depend on
the values): a sentence-transformers StaticEmbedding folder of static-retrieval-mrl-en-v1's shape
(EmbeddingBag 30522 x 1024, bert-base-uncased's tokenizer) and a MiniLM-L6-shaped sentence-transformers
folder (BertModel, 6 layers, hidden 384, 12 heads, ffn 1536, mean pooling, Normalize) to compare it with.
Standard library only; the tokenizer is ../shared/vocab/bert-base-uncased/tokenizer.json.

    python3 bench/make_static_bench_models.py OUT_DIR    # writes OUT_DIR/static-1024 and OUT_DIR/minilm-l6
"""
import array
import json
import os
import random
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZER = os.path.join(HERE, "..", "..", "shared", "vocab", "bert-base-uncased", "tokenizer.json")
VOCAB = 30522


def values(count, rng, scale):
    # A block of seeded values repeated: millions of Python random() calls would take minutes.
    block = array.array("f", [(rng.random() - 0.5) * scale for _ in range(65536)])
    out = array.array("f")
    while len(out) + len(block) <= count:
        out.extend(block)
    out.extend(block[: count - len(out)])
    return out


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, shape, data in tensors:
        raw = data.tobytes()
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        blobs.append(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)


def static_folder(out, rng):
    module = os.path.join(out, "0_StaticEmbedding")
    os.makedirs(module, exist_ok=True)
    write_json(os.path.join(out, "modules.json"),
               [{"idx": 0, "name": "0", "path": "0_StaticEmbedding", "type": "sentence_transformers.models.StaticEmbedding"}])
    write_json(os.path.join(out, "config_sentence_transformers.json"), {"prompts": {}, "similarity_fn_name": "cosine"})
    shutil.copy(TOKENIZER, os.path.join(module, "tokenizer.json"))
    write_safetensors(os.path.join(module, "model.safetensors"),
                      [("embedding.weight", [VOCAB, 1024], values(VOCAB * 1024, rng, 0.2))])


def minilm_folder(out, rng, hidden=384, layers=6, heads=12, ffn=1536):
    os.makedirs(os.path.join(out, "1_Pooling"), exist_ok=True)
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": hidden, "num_hidden_layers": layers,
        "num_attention_heads": heads, "intermediate_size": ffn, "hidden_act": "gelu", "max_position_embeddings": 512,
        "type_vocab_size": 2, "vocab_size": VOCAB, "layer_norm_eps": 1e-12, "pad_token_id": 0})
    write_json(os.path.join(out, "modules.json"), [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}])
    write_json(os.path.join(out, "1_Pooling", "config.json"), {"word_embedding_dimension": hidden, "pooling_mode_mean_tokens": True})
    write_json(os.path.join(out, "sentence_bert_config.json"), {"max_seq_length": 256, "do_lower_case": False})
    shutil.copy(TOKENIZER, os.path.join(out, "tokenizer.json"))
    t = []

    def add(name, *shape, scale=0.05):
        n = 1
        for s in shape:
            n *= s
        t.append((name, list(shape), values(n, rng, scale)))

    add("embeddings.word_embeddings.weight", VOCAB, hidden)
    add("embeddings.position_embeddings.weight", 512, hidden)
    add("embeddings.token_type_embeddings.weight", 2, hidden)
    add("embeddings.LayerNorm.weight", hidden)
    add("embeddings.LayerNorm.bias", hidden)
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for part in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
            add(p + part + ".weight", hidden, hidden)
            add(p + part + ".bias", hidden)
        add(p + "intermediate.dense.weight", ffn, hidden)
        add(p + "intermediate.dense.bias", ffn)
        add(p + "output.dense.weight", hidden, ffn)
        add(p + "output.dense.bias", hidden)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            add(p + norm + ".weight", hidden)
            add(p + norm + ".bias", hidden)
    write_safetensors(os.path.join(out, "model.safetensors"), t)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rng = random.Random(34)
    static_folder(os.path.join(sys.argv[1], "static-1024"), rng)
    minilm_folder(os.path.join(sys.argv[1], "minilm-l6"), rng)


if __name__ == "__main__":
    main()
