#pragma once
// The layout of bertkit's converted model file, shared by its writer and its reader:
//
//   [0, 24)   Prefix: magic "BERTKIT\0", format version (u32 little-endian), zero (u32), header length H (u64)
//   [24, 24+H) JSON header: bertkit version, source, architecture, dtype, the config.json text,
//             sentence-transformers settings, aliases (tied tensors stored once: name -> stored name),
//             and a table of blobs (tokenizer files) and tensors with offsets relative to the data
//             section; and "packed": the encoder's Linear matrices in the oneDNN layout the converting
//             machine wanted (f32, bf16 or s8 as the file's dtype), each with its shape, its layout's
//             name (core/dnnl/layout_names.h) and "parts", the plain tensors it stacks by rows, which
//             the tensor table then leaves out: a machine that wants the same layout uses them in place
//             (Linear::from_packed); anything else that reads a part (another machine's layout, convert,
//             info, --verify) gets it unpacked on first use.
//   data section, starting at the next multiple of 64: every blob and tensor 64-byte aligned
//   Trailer: XXH64 of every byte before it (u64), then "BKSUM\0\0\0"
#include "core/checkpoint/tokenizer_files.h"
#include "core/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bertkit::core::converted {

// 2: Linear weights stored only packed (version 1 readers would find them missing). Version 1 files
// (every tensor plain) are still read.
constexpr std::uint32_t kVersion = 2, kOldestVersion = 1;
constexpr std::uint64_t kAlign = 64;

inline std::uint64_t align_up(std::uint64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

struct Prefix {
  static constexpr char kMagic[8] = {'B', 'E', 'R', 'T', 'K', 'I', 'T', '\0'};
  char magic[8];
  std::uint32_t version;
  std::uint32_t zero;
  std::uint64_t header_length;
};
static_assert(sizeof(Prefix) == 24);

struct Trailer {
  static constexpr char kMagic[8] = {'B', 'K', 'S', 'U', 'M', '\0', '\0', '\0'};
  std::uint64_t checksum;
  char magic[8];
};
static_assert(sizeof(Trailer) == 16);

// A blob (dtype U8, no shape) or tensor of the header's tables; offset relative to the data section.
struct Entry {
  std::string name;
  DType dtype = DType::U8;
  Shape shape;
  std::uint64_t offset = 0, nbytes = 0;
};

// The blobs a file may hold, in the order they are written.
constexpr const char* kTokenizerFiles[] = {"vocab.txt", "tokenizer.json", "tokenizer_config.json",
                                           "special_tokens_map.json", "vocab.json", "merges.txt", "wordpiece.bin",
                                           "spm.model", "added_tokens.json"};

inline std::optional<std::string_view> tokenizer_file(const TokenizerFiles& t, std::string_view name) {
  if (name == "wordpiece.bin") return t.wordpiece_image ? std::optional(t.wordpiece_image->bytes) : std::nullopt;
  const auto* text = tokenizer_text(t, name);
  return text && *text ? std::optional<std::string_view>(**text) : std::nullopt;
}

}  // namespace bertkit::core::converted
