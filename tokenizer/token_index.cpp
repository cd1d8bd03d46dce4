#include "tokenizer/token_index.h"

#include "tokenizer/image_io.h"

#include <bit>

namespace bertkit::tok {

std::optional<std::pair<std::int32_t, std::int32_t>> TokenIndex::build(
    const std::vector<std::pair<std::string_view, std::int32_t>>& entries) {
  std::optional<std::pair<std::int32_t, std::int32_t>> duplicate;
  std::size_t capacity = 16;
  while (capacity < entries.size() * 2) capacity *= 2;  // load factor <= 0.5 keeps probes short
  std::vector<Slot> slots(capacity);
  std::vector<char> arena;
  std::size_t key_bytes = 0;
  for (const auto& entry : entries) key_bytes += entry.first.size();
  arena.reserve(key_bytes);
  const std::size_t mask = capacity - 1;
  for (const auto& [key, id] : entries) {
    const std::uint64_t h = hash(key);
    Slot& slot = slots[slot_of(slots.data(), mask, arena.data(), key, h)];
    if (slot.id >= 0) {
      if (!duplicate) duplicate = std::pair{slot.id, id};
      continue;
    }
    slot = Slot{id, static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(arena.size()),
                static_cast<std::uint32_t>(key.size())};
    arena.insert(arena.end(), key.begin(), key.end());
  }
  slots_ = ImageTable<Slot>(std::move(slots));
  arena_ = ImageTable<char>(std::move(arena));
  mask_ = mask;
  return duplicate;
}

void TokenIndex::write(ImageWriter& out) const {
  out.array(slots_.data(), slots_.size());
  out.array(arena_.data(), arena_.size());
}

TokenIndex TokenIndex::read(ImageReader& in, std::int32_t ids) {
  TokenIndex t;
  t.slots_ = in.table<Slot>(std::size_t{1} << 28);
  t.arena_ = in.table<char>(std::size_t{1} << 31);
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
