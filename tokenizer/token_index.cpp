#include "tokenizer/token_index.h"

#include "tokenizer/image_io.h"

#include <bit>

namespace bertkit::tok {

std::optional<std::pair<std::int32_t, std::int32_t>> TokenIndex::build(
    const std::vector<std::pair<std::string_view, std::int32_t>>& entries) {
  std::optional<std::pair<std::int32_t, std::int32_t>> duplicate;
  std::size_t capacity = 16;
  while (capacity < entries.size() * 2) capacity *= 2;  // load factor <= 0.5 keeps probes short
  slots_.assign(capacity, Slot{});
  mask_ = capacity - 1;
  arena_.clear();
  for (const auto& [key, id] : entries) {
    if (auto existing = find(key)) {
      if (!duplicate) duplicate = std::pair{*existing, id};
      continue;
    }
    std::uint64_t h = hash(key);
    std::size_t i = h & mask_;
    while (slots_[i].id >= 0) i = (i + 1) & mask_;
    slots_[i] = Slot{id, static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(arena_.size()),
                     static_cast<std::uint32_t>(key.size())};
    arena_.append(key);
  }
  return duplicate;
}

void TokenIndex::write(ImageWriter& out) const {
  out.array(slots_.data(), slots_.size());
  out.array(arena_.data(), arena_.size());
}

TokenIndex TokenIndex::read(ImageReader& in, std::int32_t ids) {
  TokenIndex t;
  t.slots_ = in.array<Slot>(std::size_t{1} << 28);
  const auto arena = in.array<char>(std::size_t{1} << 31);
  t.arena_.assign(arena.begin(), arena.end());
  if (t.slots_.empty() || !std::has_single_bit(t.slots_.size())) in.fail("the token table's size is not a power of two");
  t.mask_ = t.slots_.size() - 1;
  bool empty_slot = false;
  for (const Slot& s : t.slots_) {
    if (s.id < 0) {
      empty_slot = true;
    } else if (s.id >= ids || std::uint64_t{s.offset} + s.length > t.arena_.size()) {
      in.fail("a token table entry points outside the vocabulary");
    }
  }
  if (!empty_slot) in.fail("the token table is full");
  return t;
}

}  // namespace bertkit::tok
