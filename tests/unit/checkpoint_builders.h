#pragma once
// Builders for the broken and tiny checkpoint files the checkpoint tests write themselves.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace bktest {

// Concatenation by appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string temporaries.
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  ((s += parts), ...);
  return s;
}

inline std::string le(std::uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}

inline std::string f32_bytes(const std::vector<float>& values) {
  std::string s(values.size() * 4, '\0');
  std::memcpy(s.data(), values.data(), s.size());
  return s;
}

// A safetensors file from a header (as JSON text, unchecked) and the data section.
inline std::string safetensors_raw(const std::string& header, const std::string& data) {
  return le(header.size(), 8) + header + data;
}

struct TestTensor {
  std::string name;
  std::string dtype;  // "F32", "F16", ...
  std::vector<std::int64_t> shape;
  std::string bytes;
};

inline std::string safetensors(const std::vector<TestTensor>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  header["__metadata__"] = {{"format", "pt"}};
  std::string data;
  for (const auto& t : tensors) {
    header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data += t.bytes;
  }
  std::string text = header.dump();
  while ((8 + text.size()) % 8 != 0) text.push_back(' ');
  return safetensors_raw(text, data);
}

// A zip archive of STORED entries, as torch.save writes them (CRCs are left zero: readers of torch files
// do not rely on them).
inline std::string stored_zip(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out, central;
  for (const auto& [name, data] : entries) {
    std::uint64_t offset = out.size();
    out += le(0x04034b50, 4) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + le(data.size(), 4) +
           le(data.size(), 4) + le(name.size(), 2) + le(0, 2) + name + data;
    central += le(0x02014b50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) +
               le(data.size(), 4) + le(data.size(), 4) + le(name.size(), 2) + le(0, 2) + le(0, 2) + le(0, 2) +
               le(0, 2) + le(0, 4) + le(offset, 4) + name;
  }
  std::uint64_t cd_offset = out.size();
  out += central;
  out += le(0x06054b50, 4) + le(0, 2) + le(0, 2) + le(entries.size(), 2) + le(entries.size(), 2) +
         le(central.size(), 4) + le(cd_offset, 4) + le(0, 2);
  return out;
}

// Pickle fragments (protocol 2) for hand-built state dicts.
inline std::string pickle_unicode(const std::string& s) { return cat("X", le(s.size(), 4), s); }
inline std::string pickle_int(std::int64_t v) { return cat("J", le(static_cast<std::uint64_t>(v), 4)); }

// ('storage', torch.<type>, key, 'cpu', numel) persistent id, then _rebuild_tensor_v2(...).
inline std::string pickle_tensor(const std::string& storage_type, const std::string& key, std::int64_t numel,
                                 std::int64_t offset, const std::vector<std::int64_t>& shape,
                                 const std::vector<std::int64_t>& stride) {
  std::string p = "ctorch._utils\n_rebuild_tensor_v2\n(";
  p += "(";
  p += pickle_unicode("storage");
  p += "ctorch\n";
  p += storage_type;
  p += "\n";
  p += pickle_unicode(key);
  p += pickle_unicode("cpu");
  p += pickle_int(numel);
  p += "tQ";
  p += pickle_int(offset);
  p += "(";
  for (auto d : shape) p += pickle_int(d);
  p += "t(";
  for (auto d : stride) p += pickle_int(d);
  p += "t\x89" "ccollections\nOrderedDict\n)RtR";
  return p;
}

// {name: tensor, ...} as a whole pickle.
inline std::string pickle_state_dict(const std::vector<std::pair<std::string, std::string>>& tensors) {
  std::string p = "\x80\x02}(";
  for (const auto& [name, tensor] : tensors) p += pickle_unicode(name) + tensor;
  return p + "u.";
}

// The legacy (non-zip) torch format around a state dict pickle; `storages` in file order: key, numel, bytes.
struct LegacyStorage {
  std::string key;
  std::int64_t numel;
  std::string bytes;
};
inline std::string legacy_torch_file(const std::string& state_dict_pickle, const std::vector<LegacyStorage>& storages) {
  std::string out("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19\x2e", 15);
  out += std::string("\x80\x02M\xe9\x03.", 6);  // protocol version 1001
  out += cat("\x80\x02}(", pickle_unicode("little_endian"), "\x88u.");
  out += state_dict_pickle;
  std::string keys = "\x80\x02](";
  for (const auto& s : storages) keys += pickle_unicode(s.key);
  out += keys + "e.";
  for (const auto& s : storages) out += le(static_cast<std::uint64_t>(s.numel), 8) + s.bytes;
  return out;
}

}  // namespace bktest
