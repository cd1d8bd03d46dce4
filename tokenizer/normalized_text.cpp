#include "tokenizer/normalized_text.h"

namespace bertkit::tok {

void NormalizedText::materialize() {
  begin_.resize(text.size());
  end_.resize(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    begin_[i] = base_ + static_cast<std::uint32_t>(i);
    end_[i] = begin_[i] + 1;
  }
  one_to_one_ = false;
}

char* NormalizedText::append_one_to_one(std::size_t n, std::uint32_t orig_begin) {
  const std::size_t at = text.size();
  if (one_to_one_ && (at == 0 || base_ + at == orig_begin)) {
    if (at == 0) base_ = orig_begin;
  } else {
    make_explicit();
    begin_.resize(at + n);
    end_.resize(at + n);
    for (std::size_t k = 0; k < n; ++k) {
      begin_[at + k] = orig_begin + static_cast<std::uint32_t>(k);
      end_[at + k] = begin_[at + k] + 1;
    }
  }
  text.resize(at + n);
  return text.data() + at;
}

void NormalizedText::map_through(const NormalizedText& earlier) {
  if (one_to_one_ && earlier.one_to_one_) {
    base_ += earlier.base_;
    return;
  }
  make_explicit();
  for (std::size_t i = 0; i < text.size(); ++i) {
    begin_[i] = earlier.begin_of(begin_[i]);
    end_[i] = earlier.end_of(end_[i] - 1);
  }
}

void NormalizedText::truncate(std::size_t size) {
  text.resize(size);
  if (!one_to_one_) {
    begin_.resize(size);
    end_.resize(size);
  }
}

void NormalizedText::append_aligned(std::string_view bytes, std::uint32_t orig_begin, std::uint32_t orig_end) {
  make_explicit();
  text.append(bytes);
  begin_.resize(text.size(), orig_begin);
  end_.resize(text.size(), orig_end);
}

void NormalizedText::append_from(const NormalizedText& other, std::size_t from, std::size_t to) {
  make_explicit();
  text.append(other.text, from, to - from);
  if (!other.one_to_one_) {
    begin_.insert(begin_.end(), other.begin_.begin() + static_cast<std::ptrdiff_t>(from), other.begin_.begin() + static_cast<std::ptrdiff_t>(to));
    end_.insert(end_.end(), other.end_.begin() + static_cast<std::ptrdiff_t>(from), other.end_.begin() + static_cast<std::ptrdiff_t>(to));
    return;
  }
  for (std::size_t i = from; i < to; ++i) {
    begin_.push_back(other.begin_of(i));
    end_.push_back(other.end_of(i));
  }
}

void NormalizedText::realign(std::size_t from, std::uint32_t orig_begin, std::uint32_t orig_end) {
  make_explicit();
  for (std::size_t i = from; i < text.size(); ++i) {
    begin_[i] = orig_begin;
    end_[i] = orig_end;
  }
}

}  // namespace bertkit::tok
