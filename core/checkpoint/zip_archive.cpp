#include "core/checkpoint/zip_archive.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::core {

namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEnd = 0x06054b50,
                        kEnd64 = 0x06064b50, kEnd64Locator = 0x07064b50;

class Cursor {
 public:
  Cursor(std::span<const std::byte> bytes, std::size_t pos, const std::string& where)
      : bytes_(bytes), pos_(pos), where_(where) {}

  std::uint64_t le(std::size_t n) {
    need(n);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(bytes_[pos_ + i])} << (8 * i);
    pos_ += n;
    return v;
  }
  std::string text(std::size_t n) {
    need(n);
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  void skip(std::size_t n) {
    need(n);
    pos_ += n;
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t n) const {
    if (pos_ > bytes_.size() || n > bytes_.size() - pos_) bad_input("{}: truncated zip archive", where_);
  }
  std::span<const std::byte> bytes_;
  std::size_t pos_;
  const std::string& where_;
};

bool safe_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\' || name.find(':') != std::string_view::npos)
    return false;
  std::size_t start = 0;
  while (start <= name.size()) {
    auto end = name.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

ZipArchive::ZipArchive(std::shared_ptr<const MappedFile> file) : file_(std::move(file)) {
  const std::string where = file_->path().string();
  auto bytes = file_->bytes();
  // The end-of-central-directory record is the last 22 bytes plus a comment of at most 65535.
  if (bytes.size() < 22) bad_input("{}: truncated zip archive (no end of central directory)", where);
  std::size_t end_pos = bytes.size() - 22;
  std::size_t lowest = bytes.size() >= 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
  for (;; --end_pos) {
    if (Cursor(bytes, end_pos, where).le(4) == kEnd) break;
    if (end_pos == lowest) bad_input("{}: not a zip archive (no end of central directory)", where);
  }
  Cursor end(bytes, end_pos + 4, where);
  end.skip(6);  // disk numbers, entries on this disk
  std::uint64_t count = end.le(2);
  std::uint64_t cd_size = end.le(4);
  std::uint64_t cd_offset = end.le(4);
  if (count == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff) {  // zip64
    if (end_pos < 20) bad_input("{}: zip64 archive without a zip64 locator", where);
    Cursor locator(bytes, end_pos - 20, where);
    if (locator.le(4) != kEnd64Locator) bad_input("{}: zip64 archive without a zip64 locator", where);
    locator.skip(4);
    Cursor end64(bytes, locator.le(8), where);
    if (end64.le(4) != kEnd64) bad_input("{}: bad zip64 end of central directory", where);
    end64.skip(8 + 2 + 2 + 4 + 4 + 8);
    count = end64.le(8);
    cd_size = end64.le(8);
    cd_offset = end64.le(8);
  }
  if (cd_offset > bytes.size() || cd_size > bytes.size() - cd_offset)
    bad_input("{}: zip central directory ({} bytes at {}) runs past the end of the file", where, cd_size, cd_offset);
  if (count > cd_size / 46) bad_input("{}: zip central directory claims {} entries in {} bytes", where, count, cd_size);

  Cursor cd(bytes.first(cd_offset + cd_size), cd_offset, where);
  entries_.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    if (cd.le(4) != kCentralHeader) bad_input("{}: bad zip central directory entry {}", where, i);
    cd.skip(6);
    std::uint64_t method = cd.le(2);
    cd.skip(8);  // time, date, crc
    std::uint64_t compressed = cd.le(4), size = cd.le(4);
    std::size_t name_len = cd.le(2), extra_len = cd.le(2), comment_len = cd.le(2);
    cd.skip(8);
    std::uint64_t local = cd.le(4);
    std::string name = cd.text(name_len);
    std::size_t extra_end = cd.pos() + extra_len;
    while (cd.pos() + 4 <= extra_end) {  // zip64 extended information: the fields that overflowed
      std::uint64_t id = cd.le(2), len = cd.le(2);
      std::size_t next = cd.pos() + len;
      if (next > extra_end) bad_input("{}: zip entry {}: bad extra field", where, name);
      if (id == 1) {
        if (size == 0xffffffff && cd.pos() + 8 <= next) size = cd.le(8);
        if (compressed == 0xffffffff && cd.pos() + 8 <= next) compressed = cd.le(8);
        if (local == 0xffffffff && cd.pos() + 8 <= next) local = cd.le(8);
      }
      cd.skip(next - cd.pos());
    }
    cd.skip(extra_end - cd.pos());
    cd.skip(comment_len);

    if (!safe_name(name)) bad_input("{}: zip entry name \"{}\" is absolute or contains \"..\"", where, name);
    if (method != 0)
      bad_input("{}: zip entry {} is compressed (method {}); torch checkpoints store entries uncompressed", where,
                name, method);
    if (compressed != size) bad_input("{}: zip entry {}: stored size {} differs from size {}", where, name, compressed, size);
    Cursor lh(bytes, local, where);
    if (lh.le(4) != kLocalHeader) bad_input("{}: zip entry {}: bad local header", where, name);
    lh.skip(22);
    std::size_t local_name = lh.le(2), local_extra = lh.le(2);
    lh.skip(local_name);
    lh.skip(local_extra);
    std::size_t data = lh.pos();
    if (size > bytes.size() - data) bad_input("{}: zip entry {} ({} bytes) runs past the end of the file", where, name, size);
    entries_.push_back({std::move(name), data, static_cast<std::size_t>(size)});
  }
}

const ZipArchive::Entry* ZipArchive::find(std::string_view name) const {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

std::span<const std::byte> ZipArchive::data(const Entry& entry) const {
  return file_->bytes().subspan(entry.offset, entry.size);
}

}  // namespace bertkit::core
