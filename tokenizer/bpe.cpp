#include "tokenizer/bpe.h"

#include "core/error.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <bit>

namespace bertkit::tok {

namespace {

std::uint64_t pair_key(std::int32_t left, std::int32_t right) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32 | static_cast<std::uint32_t>(right);
}

std::size_t slot_of(std::uint64_t key, std::size_t mask) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

// A vocabulary token written in the byte-level alphabet, from the bytes it stands for.
std::string to_alphabet(std::string_view bytes) {
  std::string s;
  for (char b : bytes) append_utf8(s, byte_level_char(static_cast<std::uint8_t>(b)));
  return s;
}

struct Symbol {
  std::int32_t id;
  std::uint32_t begin, end;  // bytes of the word
  std::int32_t prev, next;   // -1: none
};

struct Candidate {
  std::int32_t rank;
  std::uint32_t pos;  // the left symbol
  std::int32_t merged;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};

struct BpeScratch {
  std::vector<Symbol> symbols;
  std::vector<Candidate> heap;
  std::vector<Candidate> pairs;  // a short word's: pair i is symbols i and i + 1 (rank -1: no merge)
};
thread_local BpeScratch t_bpe_scratch;

// Words up to this many symbols merge by scanning their pairs; longer ones through a heap, as the
// reference does (same order: lowest rank, then leftmost), which keeps a megabyte-long word linear-ish.
constexpr std::size_t kShortWord = 64;

}  // namespace

Bpe::Bpe(const Vocab& vocab, const BpeOptions& options, const std::string& where)
    : vocab_(vocab), options_(options) {
  if (options_.unk_token) {
    auto id = vocab_.find(*options_.unk_token);
    if (!id) bad_input("{}: the BPE model's unk_token '{}' is not in the vocabulary", where, *options_.unk_token);
    unk_id_ = *id;
  }
  for (int b = 0; b < 256; ++b) {
    std::string c;
    append_utf8(c, byte_level_char(static_cast<std::uint8_t>(b)));
    byte_ids_[static_cast<std::size_t>(b)] = vocab_.find(c).value_or(-1);
  }
  const BpeMerges& merges = *options_.merges;
  merges_.resize(std::bit_ceil(merges.size() * 2 + 2));
  const std::size_t mask = merges_.size() - 1;
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [a, b] = merges[rank];
    auto left = vocab_.find(a), right = vocab_.find(b), merged = vocab_.find(a + b);
    if (!left || !right || !merged)
      bad_input("{}: merge {} '{} {}' names a token that is not in the vocabulary ('{}')", where, rank + 1, a, b,
                !left ? a : !right ? b : a + b);
    const std::uint64_t key = pair_key(*left, *right);
    std::size_t slot = slot_of(key, mask);
    while (merges_[slot].rank >= 0 && merges_[slot].pair != key) slot = (slot + 1) & mask;
    // A pair listed twice keeps its last rank, as the reference's map does.
    merges_[slot] = {key, static_cast<std::int32_t>(rank), *merged};
  }
}

const Bpe::Merge* Bpe::find(std::int32_t left, std::int32_t right) const {
  const std::uint64_t key = pair_key(left, right);
  const std::size_t mask = merges_.size() - 1;
  for (std::size_t slot = slot_of(key, mask);; slot = (slot + 1) & mask) {
    const Merge& m = merges_[slot];
    if (m.rank < 0) return nullptr;
    if (m.pair == key) return &m;
  }
}

void Bpe::tokenize(std::string_view word, std::vector<Piece>& out) const {
  if (word.empty()) return;
  if (options_.ignore_merges)
    if (auto id = vocab_.find(to_alphabet(word))) {
      out.push_back({*id, 0, static_cast<std::uint32_t>(word.size())});
      return;
    }
  BpeScratch& s = t_bpe_scratch;
  std::vector<Symbol>& symbols = s.symbols;
  symbols.clear();
  for (std::uint32_t i = 0; i < word.size(); ++i) {
    std::int32_t id = byte_ids_[static_cast<unsigned char>(word[i])];
    if (id < 0) {
      if (unk_id_ < 0) continue;
      if (options_.fuse_unk && !symbols.empty() && symbols.back().id == unk_id_ && symbols.back().end == i) {
        symbols.back().end = i + 1;
        continue;
      }
      id = unk_id_;
    }
    symbols.push_back({id, i, i + 1, static_cast<std::int32_t>(symbols.size()) - 1, -1});
  }
  if (symbols.size() <= kShortWord) return merge_short(word, out);
  const auto n = static_cast<std::int32_t>(symbols.size());
  for (std::int32_t i = 0; i + 1 < n; ++i) symbols[static_cast<std::size_t>(i)].next = i + 1;

  std::vector<Candidate>& heap = s.heap;
  heap.clear();
  auto consider = [&](std::int32_t left) {
    const Symbol& l = symbols[static_cast<std::size_t>(left)];
    if (l.next < 0) return;
    if (const Merge* m = find(l.id, symbols[static_cast<std::size_t>(l.next)].id)) {
      heap.push_back({m->rank, static_cast<std::uint32_t>(left), m->merged});
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  };
  for (std::int32_t i = 0; i + 1 < n; ++i) consider(i);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const Candidate top = heap.back();
    heap.pop_back();
    Symbol& left = symbols[top.pos];
    // Stale: the left symbol was merged away, or its right neighbour changed since.
    if (left.end == left.begin || left.next < 0) continue;
    Symbol& right = symbols[static_cast<std::size_t>(left.next)];
    const Merge* m = find(left.id, right.id);
    if (!m || m->merged != top.merged) continue;
    left.id = top.merged;
    left.end = right.end;
    left.next = right.next;
    right.begin = right.end;  // gone
    if (left.next >= 0) symbols[static_cast<std::size_t>(left.next)].prev = static_cast<std::int32_t>(top.pos);
    if (left.prev >= 0) consider(left.prev);
    consider(static_cast<std::int32_t>(top.pos));
  }
  for (std::int32_t i = n ? 0 : -1; i >= 0; i = symbols[static_cast<std::size_t>(i)].next) {
    const Symbol& sym = symbols[static_cast<std::size_t>(i)];
    emit(word, sym.id, sym.begin, sym.end, out);
  }
}

void Bpe::merge_short(std::string_view word, std::vector<Piece>& out) const {
  std::vector<Symbol>& symbols = t_bpe_scratch.symbols;
  std::vector<Candidate>& pairs = t_bpe_scratch.pairs;
  std::size_t n = symbols.size();
  pairs.resize(n);
  auto rank_pair = [&](std::size_t i) {
    const Merge* m = find(symbols[i].id, symbols[i + 1].id);
    pairs[i] = m ? Candidate{m->rank, 0, m->merged} : Candidate{-1, 0, -1};
  };
  for (std::size_t i = 0; i + 1 < n; ++i) rank_pair(i);
  for (;;) {
    std::size_t best = n;
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (pairs[i].rank >= 0 && (best == n || pairs[i].rank < pairs[best].rank)) best = i;
    if (best == n) break;
    symbols[best].id = pairs[best].merged;
    symbols[best].end = symbols[best + 1].end;
    symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    --n;
    if (best > 0) rank_pair(best - 1);
    if (best + 1 < n) rank_pair(best);
  }
  for (const Symbol& sym : symbols) emit(word, sym.id, sym.begin, sym.end, out);
}

void Bpe::emit(std::string_view word, std::int32_t id, std::uint32_t begin, std::uint32_t end,
               std::vector<Piece>& out) {
  // A piece of a character spans all of it.
  auto is_continuation = [&](std::uint32_t i) { return (static_cast<unsigned char>(word[i]) & 0xC0) == 0x80; };
  while (begin > 0 && is_continuation(begin)) --begin;
  while (end < word.size() && is_continuation(end)) ++end;
  out.push_back({id, begin, end});
}

}  // namespace bertkit::tok
