#pragma once
// A growing byte buffer whose room past its content is not zeroed (std::string::resize zeroes it),
// so that a writer can be handed a bound on what it writes — six bytes a byte for a JSON string —
// and pay only for what it writes. `bertkit tokenize` builds its lines in these.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

namespace bertkit::records {

class TextBuffer {
 public:
  // At least `n` writable bytes after the content; where they start. Earlier pointers are invalid.
  char* room(std::size_t n) {
    if (capacity_ - size_ < n) grow(size_ + n);
    return data_.get() + size_;
  }
  // Makes the bytes up to `end` (inside the last room) part of the content.
  void commit(const char* end) { size_ = static_cast<std::size_t>(end - data_.get()); }
  // Lets `write` put at most `most` bytes at the pointer it gets and return their end.
  template <typename Write>
  void write(std::size_t most, Write&& write) {
    commit(write(room(most)));
  }
  void append(std::string_view s) {
    if (s.empty()) return;  // an empty view's data may be null, which memcpy must not be given
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
  }
  void append(char c) {
    *room(1) = c;
    ++size_;
  }
  void clear() { size_ = 0; }
  // Drops the content past its first `n` bytes (n <= size()).
  void truncate(std::size_t n) { size_ = n; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  void grow(std::size_t need) {
    const std::size_t capacity = std::max(need, 2 * capacity_);
    auto data = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_) std::memcpy(data.get(), data_.get(), size_);
    data_ = std::move(data);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace bertkit::records
