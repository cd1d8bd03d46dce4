#pragma once
// bertkit's own model file: everything `-m` needs in one memory-mapped file.
//
//   [0, 8)    magic "BERTKIT\0"
//   [8, 12)   format version (u32 little-endian), currently 2; version 1 files (every tensor plain)
//             are still read
//   [12, 16)  zero
//   [16, 24)  header length H (u64)
//   [24, 24+H) JSON header: bertkit version, source, architecture, dtype, the config.json text,
//             sentence-transformers settings, and a table of blobs (tokenizer files) and tensors with
//             offsets relative to the data section; and "packed": the encoder's Linear matrices in the
//             oneDNN layout the converting machine wanted (f32, bf16 or s8 as the file's dtype), each
//             with its shape, its layout's name (core/dnnl/layout_names.h) and "parts", the plain
//             tensors it stacks by rows, which the tensor table then leaves out: a machine that wants
//             the same layout uses them in place (Linear::from_packed); anything else that reads a
//             part (another machine's layout, convert, info, --verify) gets it unpacked on first use.
//   data section, starting at the next multiple of 64: every blob and tensor 64-byte aligned
//   trailer: XXH64 of every byte before it (u64), then "BKSUM\0\0\0"
//
// Loading validates the header against the file before any tensor is touched; tensors are views into
// the map. The checksum is verified by check_converted_file (`convert --check`), not at load: hashing
// a BERT-base file would cost more than the whole load.
#include "core/checkpoint/model_source.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace bertkit::core {

enum class StoreType { F32, F16, BF16, Int8 };

StoreType parse_store_type(std::string_view name);  // "f32", "f16", "bf16", "int8"; Usage error otherwise
std::string_view store_type_name(StoreType type);
DType store_dtype(StoreType type);  // the dtype reduced tensors have: F32, F16, BF16 or I8
std::string_view stored_dtype_name(DType dtype);  // LoadedModel::stored_dtype as `--dtype` spells it

// Linear weights [out, in] are stored as `type`; embeddings, LayerNorm parameters and biases stay f32.
void write_converted_file(const LoadedModel& model, const std::filesystem::path& destination, StoreType type);

bool is_converted_file(const std::filesystem::path& path);  // by its magic
LoadedModel load_converted_file(const std::filesystem::path& path, std::string_view spec);

struct ConvertedFileCheck {
  std::uint64_t checksum = 0;
  std::size_t tensors = 0;  // weights, not counting int8 scales
  std::uint64_t bytes = 0;
  std::string dtype;
};
// Validates the structure (as loading does) and the checksum; BadInput naming the file on any mismatch.
ConvertedFileCheck check_converted_file(const std::filesystem::path& path);

}  // namespace bertkit::core
