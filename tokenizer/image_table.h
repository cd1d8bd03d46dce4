#pragma once
// One of a tokenizer's tables (the token index's slots, a trie's nodes): built here and owned, or read
// from a compiled image and used where it lies, with `keep` holding the image's bytes alive. A model's
// tokenizer then costs no copy and no fresh pages at start-up; a copy is made only when the image
// cannot be viewed (no owner given, or bytes not aligned for T).
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace bertkit::tok {

template <typename T>
class ImageTable {
 public:
  ImageTable() = default;
  explicit ImageTable(std::vector<T> owned) : owned_(std::move(owned)), view_(owned_) {}
  ImageTable(std::span<const T> view, std::shared_ptr<const void> keep) : view_(view), keep_(std::move(keep)) {}

  ImageTable(const ImageTable& other) : owned_(other.owned_), keep_(other.keep_) { view_ = viewed(other); }
  ImageTable(ImageTable&& other) noexcept : owned_(std::move(other.owned_)), keep_(std::move(other.keep_)) {
    view_ = viewed(other);
  }
  ImageTable& operator=(ImageTable other) noexcept {
    owned_ = std::move(other.owned_);
    keep_ = std::move(other.keep_);
    view_ = viewed(other);
    return *this;
  }

  const T* data() const { return view_.data(); }
  std::size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  const T& operator[](std::size_t i) const { return view_[i]; }
  auto begin() const { return view_.begin(); }
  auto end() const { return view_.end(); }

 private:
  // The other table's view when it views an image (keep_ already taken from it), else our own copy.
  std::span<const T> viewed(const ImageTable& other) const { return keep_ ? other.view_ : std::span<const T>(owned_); }

  std::vector<T> owned_;
  std::span<const T> view_;
  std::shared_ptr<const void> keep_;
};

}  // namespace bertkit::tok
