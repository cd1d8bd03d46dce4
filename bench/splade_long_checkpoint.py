#!/usr/bin/env python3
"""A SPLADE checkpoint that takes long inputs, for measuring peak memory against input length.

Copies ../shared/fixtures/models3/splade-bert (a sentence-transformers SparseEncoder over a small
BERT) into OUT, with max_position_embeddings raised to POSITIONS: the position table's 128 rows are
repeated. The numbers mean nothing; only the shapes matter. Standard library only.

    python3 bench/splade_long_checkpoint.py OUT [POSITIONS]
    /usr/bin/time -f %M build/bertkit embed -m OUT --max-length 8192 -i long.txt > /dev/null
"""
import json
import shutil
import struct
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent.parent / "shared/fixtures/models3/splade-bert"
POSITION_TABLE = "bert.embeddings.position_embeddings.weight"


def read_safetensors(path):
    data = path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    body = data[8 + n :]
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        tensors[name] = (entry["dtype"], entry["shape"], body[begin:end])
    return tensors


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, (dtype, shape, blob) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def main():
    out = Path(sys.argv[1])
    positions = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    shutil.copytree(SOURCE, out, ignore=shutil.ignore_patterns("goldens.json", "README.md"))
    out.chmod(0o755)
    for f in out.rglob("*"):
        f.chmod(0o644 if f.is_file() else 0o755)
    tensors = read_safetensors(out / "model.safetensors")
    dtype, (rows, width), blob = tensors[POSITION_TABLE]
    row_bytes = len(blob) // rows
    table = b"".join(blob[(i % rows) * row_bytes : (i % rows + 1) * row_bytes] for i in range(positions))
    tensors[POSITION_TABLE] = (dtype, [positions, width], table)
    write_safetensors(out / "model.safetensors", tensors)
    config = json.loads((out / "config.json").read_text())
    config["max_position_embeddings"] = positions
    (out / "config.json").write_text(json.dumps(config, indent=2))


if __name__ == "__main__":
    main()
