#include "tokenizer/unigram.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <algorithm>

namespace bertkit::tok {

namespace {

// Hugging Face's K_UNK_PENALTY.
constexpr double kUnknownPenalty = 10.0;

struct BestPath {
  double score;
  std::int32_t id;
  std::uint32_t start;
  bool reached;
};

}  // namespace

Unigram::Unigram(const Vocab& vocab, UnigramSpec spec) : vocab_(vocab), spec_(std::move(spec)) {
  if (!spec_.scores || spec_.scores->size() != vocab.size())
    bad_input("the Unigram model has {} scores for {} pieces", spec_.scores ? spec_.scores->size() : 0, vocab.size());
  if (spec_.unk_id >= static_cast<std::int32_t>(vocab.size()))
    bad_input("the Unigram model's unk_id {} is outside its {} pieces", spec_.unk_id, vocab.size());
  if (spec_.types && spec_.types->size() != vocab.size())
    bad_input("the Unigram model has {} piece types for {} pieces", spec_.types->size(), vocab.size());
  const auto type = [&](std::int32_t id) { return spec_.types ? (*spec_.types)[static_cast<std::size_t>(id)] : PieceType::Normal; };
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  entries.reserve(vocab.size());
  double lowest = spec_.types ? 0 : *std::min_element(spec_.scores->begin(), spec_.scores->end());
  bool any_normal = false;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(vocab.size()); ++id) {
    const PieceType t = type(id);
    if (t == PieceType::Normal || t == PieceType::UserDefined || t == PieceType::Unused) entries.emplace_back(vocab.token(id), id);
    if (spec_.types && t == PieceType::Normal) {
      const double score = (*spec_.scores)[static_cast<std::size_t>(id)];
      lowest = any_normal ? std::min(lowest, score) : score;
      max_score_ = any_normal ? std::max(max_score_, score) : score;
      any_normal = true;
    }
  }
  trie_.build(entries);
  unk_score_ = lowest - kUnknownPenalty;
  if (spec_.byte_fallback) {
    for (unsigned b = 0; b < 256; ++b) {
      auto id = vocab.find(fmt::format("<0x{:02X}>", b));
      if (!id) {
        byte_ids_.clear();
        break;
      }
      byte_ids_.push_back(*id);
    }
  }
}

void Unigram::unknown(std::string_view word, std::uint32_t begin, std::uint32_t end, std::vector<Piece>& out) const {
  // Hugging Face looks the fused text up again: it is a piece when it is in the vocabulary.
  const std::string_view text = word.substr(begin, end - begin);
  std::size_t first_end = 0;
  next_code_point(text, first_end);
  // One character is never a piece here (it would not be unknown); several may be.
  if (auto id = first_end == text.size() ? std::nullopt : vocab_.find(text)) {
    out.push_back({*id, begin, end});
  } else if (!byte_ids_.empty()) {
    for (unsigned char b : text) out.push_back({byte_ids_[b], begin, end});
  } else {
    if (spec_.unk_id < 0) bad_input("the Unigram model has no unk_id, and the text has a character none of its pieces covers");
    out.push_back({spec_.unk_id, begin, end});
  }
}

void Unigram::sentencepiece_unknown(std::string_view word, std::uint32_t begin, std::uint32_t end,
                                    std::vector<Piece>& out) const {
  if (byte_ids_.empty()) {
    out.push_back({spec_.unk_id, begin, end});
    return;
  }
  for (std::size_t at = begin; at < end;) {
    const std::size_t char_begin = at;
    next_code_point(word, at);
    for (std::size_t b = char_begin; b < at; ++b)
      out.push_back({byte_ids_[static_cast<unsigned char>(word[b])], static_cast<std::uint32_t>(char_begin),
                     static_cast<std::uint32_t>(at)});
  }
}

double Unigram::lattice_score(std::int32_t id, std::uint32_t length) const {
  if (spec_.types && (*spec_.types)[static_cast<std::size_t>(id)] == PieceType::UserDefined)
    return static_cast<float>(length * max_score_ - 0.1);
  return (*spec_.scores)[static_cast<std::size_t>(id)];
}

void Unigram::tokenize(std::string_view word, std::vector<Piece>& out) const {
  const std::size_t n = word.size();
  if (n == 0) return;
  thread_local std::vector<BestPath> best;
  best.assign(n + 1, BestPath{0.0, -1, 0, false});
  const bool sentencepiece = spec_.types != nullptr;
  const PieceType* types = sentencepiece ? spec_.types->data() : nullptr;
  for (std::size_t pos = 0; pos < n;) {
    const double here = best[pos].score;
    std::size_t next = pos;
    next_code_point(word, next);
    const std::uint32_t char_len = static_cast<std::uint32_t>(next - pos);
    bool single = false;
    auto offer = [&](std::size_t end, std::int32_t id, double score) {
      BestPath& target = best[end];
      // sentencepiece keeps path scores in float.
      const double candidate = sentencepiece ? static_cast<double>(static_cast<float>(here) + static_cast<float>(score)) : here + score;
      if (!target.reached || candidate > target.score) target = {candidate, id, static_cast<std::uint32_t>(pos), true};
    };
    trie_.for_each_prefix(word.substr(pos), [&](std::uint32_t length, std::int32_t id) {
      if (types && types[id] == PieceType::Unused) return;
      offer(pos + length, id, lattice_score(id, length));
      single = single || length == char_len;
    });
    if (!single) {
      if (spec_.unk_id < 0) bad_input("the Unigram model has no unk_id, and the text has a character none of its pieces covers");
      offer(next, spec_.unk_id, unk_score_);
    }
    pos = next;
  }
  // Back from the end; consecutive unknown pieces fuse.
  std::uint32_t end = static_cast<std::uint32_t>(n);
  std::uint32_t unknown_end = 0;
  bool in_unknown = false;
  thread_local std::vector<Piece> reversed;
  reversed.clear();
  while (end > 0) {
    const BestPath& node = best[end];
    if (node.id == spec_.unk_id) {
      if (!in_unknown) unknown_end = end;
      in_unknown = true;
    } else {
      if (in_unknown) reversed.push_back({-1, end, unknown_end});
      in_unknown = false;
      reversed.push_back({node.id, node.start, end});
    }
    end = node.start;
  }
  if (in_unknown) reversed.push_back({-1, 0, unknown_end});
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
    if (it->id >= 0)
      out.push_back(*it);
    else if (sentencepiece)
      sentencepiece_unknown(word, it->begin, it->end, out);
    else
      unknown(word, it->begin, it->end, out);
  }
}

}  // namespace bertkit::tok
