#include "tokenizer/token_index.h"

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

}  // namespace bertkit::tok
