#pragma once
// Reading and writing a compiled tokenizer's tables (see wordpiece_image.h): arrays of plain integers in
// this machine's byte order, each preceded by its element count. Reading checks every size against the
// bytes there are; what the values mean is checked by each table.
#include "core/error.h"
#include "tokenizer/image_table.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace bertkit::tok {

static_assert(std::endian::native == std::endian::little, "compiled tokenizer images are little-endian");

class ImageWriter {
 public:
  void u32(std::uint32_t v) { append(&v, sizeof v); }
  template <typename T>
  void array(const T* data, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    u32(static_cast<std::uint32_t>(count));
    append(data, count * sizeof(T));
  }
  std::string take() { return std::move(out_); }

 private:
  void append(const void* p, std::size_t n) {
    if (n > 0) out_.append(static_cast<const char*>(p), n);  // an empty table's data() may be null
    out_.append((4 - out_.size() % 4) % 4, '\0');  // every field starts 4-byte aligned
  }
  std::string out_;
};

class ImageReader {
 public:
  // `keep` holds `bytes` alive: tables are then used where they lie (null: copied).
  ImageReader(std::string_view bytes, std::shared_ptr<const void> keep, std::string_view where)
      : in_(bytes), keep_(std::move(keep)), where_(where) {}
  std::uint32_t u32() {
    std::uint32_t v;
    take(&v, sizeof v);
    return v;
  }
  template <typename T>
  std::vector<T> array(std::size_t max_count) {
    const std::uint32_t count = counted<T>(max_count);
    std::vector<T> v(count);
    take(v.data(), count * sizeof(T));
    return v;
  }
  template <typename T>
  ImageTable<T> table(std::size_t max_count) {
    const std::uint32_t count = counted<T>(max_count);
    const char* p = in_.data() + pos_;
    if (!keep_ || reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0) {
      std::vector<T> v(count);
      take(v.data(), count * sizeof(T));
      return ImageTable<T>(std::move(v));
    }
    skip(count * sizeof(T));
    return ImageTable<T>(std::span(reinterpret_cast<const T*>(p), count), keep_);
  }
  bool at_end() const { return pos_ == in_.size(); }
  [[noreturn]] void fail(std::string_view what) const { bad_input("{}: corrupt compiled tokenizer: {}", where_, what); }

 private:
  template <typename T>
  std::uint32_t counted(std::size_t max_count) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 4);  // fields are 4-byte aligned
    const std::uint32_t count = u32();
    if (count > max_count || count * sizeof(T) > in_.size() - pos_) fail("a table is larger than the image");
    return count;
  }
  void take(void* p, std::size_t n) {
    if (n == 0) return;  // an empty table's data() may be null, which memcpy must not get
    if (n > in_.size() - pos_) fail("it ends early");
    std::memcpy(p, in_.data() + pos_, n);
    skip(n);
  }
  void skip(std::size_t n) {
    pos_ += (n + 3) / 4 * 4;
    if (pos_ > in_.size()) pos_ = in_.size();
  }
  std::string_view in_;
  std::shared_ptr<const void> keep_;
  std::string_view where_;
  std::size_t pos_ = 0;
};

}  // namespace bertkit::tok
