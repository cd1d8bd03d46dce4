// pytorch_model.bin in both layouts torch.save has used:
//  - zip (torch >= 1.6): ARCHIVE/data.pkl is the state dict pickle, ARCHIVE/data/KEY the raw bytes of
//    each storage;
//  - legacy: five pickles back to back (magic number, protocol version, sys info, the state dict, the
//    list of storage keys), then for each key an int64 element count and the raw bytes.
#include "core/checkpoint/pickle.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/checkpoint/zip_archive.h"

#include "core/error.h"

#include <cstring>
#include <limits>
#include <map>

namespace bertkit::core {

namespace {

// Byte span of each storage, by key.
using StorageBytes = std::map<std::string, std::span<const std::byte>>;

// One tensor from its storage: a view when contiguous, else gathered into an owned buffer.
RawTensor make_tensor(const std::string& name, const PickledTensor& t, const Unpickled& pickle,
                      const StorageBytes& storage_bytes, RawCheckpoint& out, const std::string& where) {
  const std::string what = where + ": tensor " + name;
  const PickledStorage& storage = pickle.storages.at(t.storage_key);
  auto bytes = storage_bytes.at(t.storage_key);
  const std::size_t esize = dtype_size(storage.dtype);
  const std::size_t nbytes = checked_nbytes(t.shape, storage.dtype, what);
  const std::size_t numel = nbytes / esize;
  const std::size_t storage_numel = bytes.size() / esize;

  // The last element the tensor touches must lie inside the storage.
  bool contiguous = true;
  std::size_t last = static_cast<std::size_t>(t.offset), expected_stride = 1;
  for (std::size_t d = t.shape.size(); d-- > 0;) {
    auto size = static_cast<std::size_t>(t.shape[d]), stride = static_cast<std::size_t>(t.stride[d]);
    if (size > 1 && stride != expected_stride) contiguous = false;
    expected_stride *= size;
    if (size == 0) continue;
    if (stride != 0 && size - 1 > (std::numeric_limits<std::size_t>::max() - last) / stride)
      bad_input("{}: strides overflow", what);
    last += (size - 1) * stride;
  }
  if (numel > 0 && last >= storage_numel)
    bad_input("{}: reaches element {} of storage {}, which has {}", what, last, t.storage_key, storage_numel);

  TensorView view{storage.dtype, t.shape, nullptr, nbytes};
  if (contiguous || numel == 0) {
    view.data = bytes.data() + static_cast<std::size_t>(t.offset) * esize;
    return {name, std::move(view)};
  }
  auto owned = std::make_shared<std::vector<std::byte>>(nbytes);
  std::vector<std::size_t> index(t.shape.size(), 0);
  for (std::size_t i = 0; i < numel; ++i) {
    std::size_t src = static_cast<std::size_t>(t.offset);
    for (std::size_t d = 0; d < index.size(); ++d) src += index[d] * static_cast<std::size_t>(t.stride[d]);
    std::memcpy(owned->data() + i * esize, bytes.data() + src * esize, esize);
    for (std::size_t d = index.size(); d-- > 0;) {
      if (++index[d] < static_cast<std::size_t>(t.shape[d])) break;
      index[d] = 0;
    }
  }
  view.data = owned->data();
  out.owners.push_back(std::move(owned));
  return {name, std::move(view)};
}

void add_tensors(const Unpickled& pickle, const StorageBytes& storage_bytes, RawCheckpoint& out,
                 const std::string& where) {
  for (const auto& [name, tensor] : state_dict_tensors(pickle, where))
    out.tensors.push_back(make_tensor(name, tensor, pickle, storage_bytes, out, where));
}

RawCheckpoint read_zip(std::shared_ptr<const MappedFile> file) {
  const std::string where = file->path().string();
  ZipArchive zip(file);
  const ZipArchive::Entry* pkl = nullptr;
  for (const auto& e : zip.entries()) {
    if (e.name.size() >= 9 && e.name.ends_with("/data.pkl") && e.name.find('/') == e.name.size() - 9) {
      if (pkl) bad_input("{}: more than one data.pkl in the archive", where);
      pkl = &e;
    }
  }
  if (!pkl) bad_input("{}: zip archive without ARCHIVE/data.pkl: not a torch checkpoint", where);
  const std::string prefix = pkl->name.substr(0, pkl->name.size() - 8);  // "ARCHIVE/"
  if (const auto* order = zip.find(prefix + "byteorder")) {
    auto b = zip.data(*order);
    if (std::string_view(reinterpret_cast<const char*>(b.data()), b.size()) != "little")
      bad_input("{}: big-endian checkpoints are not supported", where);
  }

  std::size_t pos = 0;
  Unpickled pickle = unpickle(zip.data(*pkl), pos, where + " (data.pkl)");
  StorageBytes storage_bytes;
  for (const auto& [key, storage] : pickle.storages) {
    const auto* entry = zip.find(prefix + "data/" + key);
    if (!entry) bad_input("{}: storage {} is missing from the archive", where, key);
    std::size_t need = checked_nbytes({storage.numel}, storage.dtype, where + ": storage " + key);
    if (entry->size < need) bad_input("{}: storage {} holds {} bytes, needs {}", where, key, entry->size, need);
    storage_bytes[key] = zip.data(*entry).first(need);
  }
  RawCheckpoint out;
  add_tensors(pickle, storage_bytes, out, where);
  out.owners.push_back(std::move(file));
  return out;
}

RawCheckpoint read_legacy(std::shared_ptr<const MappedFile> file) {
  const std::string where = file->path().string();
  auto bytes = file->bytes();
  // Pickled 0x1950a86a20f9469cfc6c, torch's magic number (10 bytes: too large for our integers).
  static constexpr unsigned char kMagic[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46,
                                             0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e};
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    bad_input("{}: not a torch checkpoint (neither zip nor the legacy magic number)", where);
  std::size_t pos = sizeof kMagic;
  auto version = unpickle(bytes, pos, where);
  if (version.root->kind != PickleValue::Kind::Int || version.root->integer != 1001)
    bad_input("{}: unsupported legacy torch protocol version", where);
  auto sys_info = unpickle(bytes, pos, where);
  const auto& info = *sys_info.root;
  if (info.kind != PickleValue::Kind::Dict) bad_input("{}: bad legacy torch header", where);
  for (std::size_t i = 0; i + 1 < info.items.size(); i += 2)
    if (info.items[i]->text == "little_endian" && info.items[i + 1]->integer != 1)
      bad_input("{}: big-endian checkpoints are not supported", where);

  Unpickled pickle = unpickle(bytes, pos, where);
  auto keys = unpickle(bytes, pos, where);
  if (keys.root->kind != PickleValue::Kind::List) bad_input("{}: bad legacy storage key list", where);
  StorageBytes storage_bytes;
  for (const PickleValue* key : keys.root->items) {
    if (key->kind != PickleValue::Kind::String || !pickle.storages.count(key->text))
      bad_input("{}: storage list names an unknown storage", where);
    const PickledStorage& storage = pickle.storages.at(key->text);
    if (bytes.size() - pos < 8) bad_input("{}: truncated at storage {}", where, key->text);
    std::int64_t numel = 0;
    std::memcpy(&numel, bytes.data() + pos, 8);
    pos += 8;
    if (numel != storage.numel)
      bad_input("{}: storage {} has {} elements in the data but {} in the pickle", where, key->text, numel, storage.numel);
    std::size_t need = checked_nbytes({numel}, storage.dtype, where + ": storage " + key->text);
    if (bytes.size() - pos < need)
      bad_input("{}: truncated: storage {} needs {} bytes, {} left", where, key->text, need, bytes.size() - pos);
    storage_bytes[key->text] = bytes.subspan(pos, need);
    pos += need;
  }
  for (const auto& [key, storage] : pickle.storages)
    if (!storage_bytes.count(key)) bad_input("{}: storage {} has no data", where, key);
  RawCheckpoint out;
  add_tensors(pickle, storage_bytes, out, where);
  out.owners.push_back(std::move(file));
  return out;
}

}  // namespace

RawCheckpoint read_torch_checkpoint(const std::filesystem::path& path) {
  auto file = MappedFile::open(path);
  auto bytes = file->bytes();
  bool zip = bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0;
  RawCheckpoint out = zip ? read_zip(std::move(file)) : read_legacy(std::move(file));
  out.files.push_back(path);
  return out;
}

}  // namespace bertkit::core
