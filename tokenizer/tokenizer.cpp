#include "tokenizer/tokenizer.h"

#include "core/error.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>

namespace bertkit::tok {

namespace {

std::int32_t require_token(const Vocab& vocab, const std::string& token, std::string_view role) {
  auto id = vocab.find(token);
  if (!id) bad_input("the {} token '{}' is not in the vocabulary", role, token);
  return *id;
}

// Remembers how recent short words split: text follows Zipf's law, so most words were seen a moment
// ago, and a hit costs one probe of this table instead of WordPiece's lookups in the large vocabulary
// tables (which miss the cache). 64Ki entries (~4.5 MB a thread) hold the words that make up nearly all
// of real English text; 4Ki missed so often that WordPiece took a third of the time (English, one
// thread: 32 -> 44 MB/s with tests/bench/tokenizer_bench).
class WordCache {
 public:
  // `owner` identifies the tokenizer (a serial number: a new tokenizer may reuse a freed one's address).
  void reset(std::uint64_t owner) {
    if (owner_ == owner) return;
    owner_ = owner;
    // Fresh pages from the kernel are empty entries (all zero) and only the pages a probe touches are
    // faulted in: one sentence touches a few, not 4.5 MB (faulting it all in cost ~10 ms of a
    // one-sentence call). Not calloc: it carves this from the heap, which is in huge pages
    // (cli/huge_page_heap.h), and clears all of it with memset.
    void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    entries_.reset(static_cast<Entry*>(p));
  }
  // The table is larger than the core's cache: ask for a word's entry a few words before it is needed.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&entries_[hash & (kEntries - 1)]); }
  // Calls emit(id, begin, end) for each piece of `word` if its split is cached; returns whether it was.
  template <typename Emit>
  bool emit(std::string_view word, std::uint64_t hash, Emit&& emit) const {
    const Entry& e = entries_[hash & (kEntries - 1)];
    if (e.hash != hash || e.length != word.size() || !TokenIndex::same_bytes(e.word, word.data(), word.size()))
      return false;
    for (std::uint8_t i = 0; i < e.count; ++i) emit(e.pieces[i].id, e.pieces[i].begin, e.pieces[i].end);
    return true;
  }
  void store(std::string_view word, std::uint64_t hash, const std::vector<Piece>& pieces) {
    if (word.size() > kMaxWord || pieces.size() > kMaxPieces) return;
    Entry& e = entries_[hash & (kEntries - 1)];
    e.hash = hash;
    e.length = static_cast<std::uint8_t>(word.size());
    std::memcpy(e.word, word.data(), word.size());
    e.count = static_cast<std::uint8_t>(pieces.size());
    for (std::size_t i = 0; i < pieces.size(); ++i)
      e.pieces[i] = {pieces[i].id, static_cast<std::uint8_t>(pieces[i].begin), static_cast<std::uint8_t>(pieces[i].end)};
  }

 private:
  static constexpr std::size_t kEntries = 65536, kMaxWord = 22, kMaxPieces = 5;
  struct CachedPiece {
    std::int32_t id;
    std::uint8_t begin, end;
  };
  struct Entry {  // all zero: empty (no word has length 0)
    std::uint64_t hash;
    std::uint8_t length;
    std::uint8_t count;
    char word[kMaxWord];
    CachedPiece pieces[kMaxPieces];
  };
  static constexpr std::size_t kBytes = kEntries * sizeof(Entry);
  struct Unmap {
    void operator()(Entry* p) const { munmap(p, kBytes); }
  };
  std::uint64_t owner_ = 0;
  std::unique_ptr<Entry[], Unmap> entries_;
};

// Scratch buffers reused across calls on the same thread: no allocation per text in steady state.
struct Scratch {
  std::vector<Segment> raw_segments, normalized_segments;
  NormalizedText normalized, pre_tokenized;
  std::vector<ByteSpan> words;
  std::vector<std::uint64_t> hashes;  // of `words`
  std::vector<Piece> pieces;
  WordCache cache;
  // The tokens of a piece of text before they join the encoding (grown, never shrunk, so writing them
  // needs no capacity check a token).
  std::vector<std::int32_t> token_ids, token_words;
  std::vector<Offsets> token_offsets;
};
thread_local Scratch t_scratch;

// In the trim_offsets table: an added token, whose own text decides.
constexpr std::uint32_t kAddedToken = ~0u;

std::atomic<std::uint64_t> g_next_serial{1};

}  // namespace

NormalizerOptions* TokenizerSpec::find_bert_normalizer() {
  for (NormalizerStep& step : normalizer)
    if (auto* options = std::get_if<NormalizerOptions>(&step)) return options;
  return nullptr;
}

std::optional<std::int32_t> TokenizerSpec::find_token(std::string_view content) const {
  for (const AddedToken& t : added_tokens)
    if (t.content == content) return t.id;
  return vocab->find(content);
}

std::int32_t TokenizerSpec::next_added_id() const {
  std::int64_t next = static_cast<std::int64_t>(vocab->size());
  for (const AddedToken& a : added_tokens) next = std::max<std::int64_t>(next, std::int64_t{a.id} + 1);
  if (next > std::numeric_limits<std::int32_t>::max()) bad_input("too many added tokens");
  return static_cast<std::int32_t>(next);
}

NormalizerOptions& TokenizerSpec::bert_normalizer() {
  NormalizerOptions* options = find_bert_normalizer();
  if (!options)
    bad_input("the tokenizer has no BertNormalizer, whose lower-casing, accent and Chinese-character options "
              "were asked for");
  return *options;
}

Tokenizer::Tokenizer(TokenizerSpec spec)
    : spec_(std::move(spec)),
      normalizer_(make_normalizer(spec_.normalizer, spec_.profile)),
      pre_tokenizer_(make_pre_tokenizer(spec_.pre_tokenizer, spec_.profile)),
      model_(make_model(spec_.model, *spec_.vocab, spec_.compiled)),
      decoder_(make_decoder(spec_.decoder, spec_.profile)),
      serial_(g_next_serial++) {
  number_added_past_vocab();
  std::vector<std::string> normalized_contents;
  for (const AddedToken& t : spec_.added_tokens) {
    NormalizedText n;
    if (t.normalized) normalizer_->normalize(t.content, 0, n);
    normalized_contents.push_back(std::move(n.text));
  }
  added_ = AddedVocabulary(spec_.added_tokens, std::move(normalized_contents));
  post_processor_ = spec_.post_processor
                        ? *spec_.post_processor
                        : PostProcessor::bert(require_token(*spec_.vocab, spec_.special.cls, "classifier"),
                                              require_token(*spec_.vocab, spec_.special.sep, "separator"));
  pad_id_ = token_id(spec_.special.pad).value_or(0);
  mask_id_ = token_id(spec_.special.mask).value_or(-1);
  for (const std::string* name : {&spec_.special.unk, &spec_.special.cls, &spec_.special.sep, &spec_.special.pad,
                                  &spec_.special.mask})
    if (auto id = token_id(*name)) special_ids_.push_back(*id);
  for (const AddedToken& t : spec_.added_tokens)
    if (t.special) special_ids_.push_back(t.id);
  std::sort(special_ids_.begin(), special_ids_.end());
  if (post_processor_.trimming()) {
    space_ends_.resize(vocab_size());
    for (std::size_t id = 0; id < space_ends_.size(); ++id)
      space_ends_[id] = space_ends(token(static_cast<std::int32_t>(id)));
    for (const AddedToken& t : spec_.added_tokens) space_ends_[static_cast<std::size_t>(t.id)].leading = kAddedToken;
  }
  // Added tokens matched in normalised text are matched piece by piece: none may span a space, or take
  // the spaces after it (rstrip), which the next piece holds.
  const bool added_fit_pieces = std::none_of(spec_.added_tokens.begin(), spec_.added_tokens.end(), [](const AddedToken& t) {
    return t.normalized && (t.rstrip || t.content.find_first_of(" \t\n\r") != std::string::npos);
  });
  piecewise_ = added_fit_pieces && normalizer_->independent_across_spaces() &&
               pre_tokenizer_->independent_across_spaces();
}

void Tokenizer::number_added_past_vocab() {
  const std::size_t size = spec_.vocab->size();
  std::vector<const AddedToken*> past;
  for (const AddedToken& t : spec_.added_tokens) {
    if (t.id < 0) bad_input("added token '{}' has a negative id, {}", t.content, t.id);
    if (static_cast<std::size_t>(t.id) >= size) past.push_back(&t);
  }
  std::sort(past.begin(), past.end(), [](const AddedToken* a, const AddedToken* b) { return a->id < b->id; });
  for (const AddedToken* t : past) {
    // Ids with no token would be ids the model's outputs cannot be named by: refused, not guessed.
    if (static_cast<std::size_t>(t->id) != size + added_past_vocab_.size())
      bad_input("added token '{}' has id {}, but the vocabulary's {} tokens{} end at id {}: an id with no token "
                "between them",
                t->content, t->id, size, added_past_vocab_.empty() ? "" : " and the added tokens after them",
                size + added_past_vocab_.size() - 1);
    added_past_vocab_.push_back(t->content);
  }
}

std::string_view Tokenizer::token(std::int32_t id) const {
  const std::size_t size = spec_.vocab->size();
  if (id >= 0 && static_cast<std::size_t>(id) >= size && static_cast<std::size_t>(id) - size < added_past_vocab_.size())
    return added_past_vocab_[static_cast<std::size_t>(id) - size];
  return spec_.vocab->token(id);
}

std::optional<std::int32_t> Tokenizer::token_id(std::string_view token) const { return spec_.find_token(token); }

bool Tokenizer::is_special_id(std::int32_t id) const {
  return std::binary_search(special_ids_.begin(), special_ids_.end(), id);
}

void Tokenizer::encode_words(const NormalizedText& normalized_text, std::uint32_t from, std::uint32_t to,
                             std::int32_t& word, Encoding& out) const {
  Scratch& s = t_scratch;
  s.words.clear();
  const NormalizedText& normalized = pre_tokenizer_->pre_tokenize(normalized_text, from, to, s.words, s.pre_tokenized);
  s.cache.reset(serial_);
  const char* text = normalized.text.data();
  auto word_text = [&](const ByteSpan& w) { return std::string_view(text + w.begin, w.end - w.begin); };
  // Locals, not the thread's scratch: the stores below would make the compiler reload it every word.
  const ByteSpan* spans = s.words.data();
  const std::size_t n = s.words.size();
  s.hashes.resize(n);
  std::uint64_t* hashes = s.hashes.data();
  WordCache& cache = s.cache;
  const NormalizedText::Alignment alignment = normalized.alignment();
  for (std::size_t i = 0; i < n; ++i) hashes[i] = TokenIndex::hash(word_text(spans[i]));
  constexpr std::size_t kAhead = 4;
  for (std::size_t i = 0; i < std::min(kAhead, n); ++i) cache.prefetch(hashes[i]);
  // At most one token per byte of the words.
  const std::size_t most = n ? spans[n - 1].end - spans[0].begin : 0;
  if (s.token_ids.size() < most) {
    s.token_ids.resize(most);
    s.token_offsets.resize(most);
    s.token_words.resize(most);
  }
  std::int32_t* ids = s.token_ids.data();
  Offsets* offsets = s.token_offsets.data();
  std::int32_t* words = s.token_words.data();
  std::size_t count = 0;
  std::int32_t word_index = word;
  for (std::size_t i = 0; i < n; ++i, ++word_index) {
    if (i + kAhead < n) cache.prefetch(hashes[i + kAhead]);
    const ByteSpan w = spans[i];
    // Inlined at both calls, cached or not: a call per token costs a fifth of the time (English text).
    auto emit = [&](std::int32_t id, std::uint32_t begin, std::uint32_t end) __attribute__((always_inline)) {
      ids[count] = id;
      offsets[count] = {alignment.begin_of(w.begin + begin), alignment.end_of(w.begin + end - 1)};
      words[count] = word_index;
      ++count;
    };
    const std::string_view piece_text = word_text(w);
    if (!cache.emit(piece_text, hashes[i], emit)) {
      s.pieces.clear();
      model_->tokenize(piece_text, s.pieces);
      cache.store(piece_text, hashes[i], s.pieces);
      for (const Piece& p : s.pieces) emit(p.id, p.begin, p.end);
    }
  }
  word = word_index;
  out.ids.insert(out.ids.end(), ids, ids + count);
  out.offsets.insert(out.offsets.end(), offsets, offsets + count);
  out.words.insert(out.words.end(), words, words + count);
}

std::uint32_t Tokenizer::piece_end(std::string_view text, std::uint32_t from, std::uint32_t to) {
  // Before a space that follows a visible ASCII character: then the space starts a run of white space
  // (a Replace of " {2,}" sees it whole, GPT-2's pattern matches from it as from any space) and ends no
  // grapheme cluster (a Prepend character is never ASCII).
  for (std::uint32_t at = from; at < to;) {
    const void* space = std::memchr(text.data() + at, ' ', to - at);
    if (!space) break;
    at = static_cast<std::uint32_t>(static_cast<const char*>(space) - text.data());
    const auto before = static_cast<unsigned char>(text[at - 1]);
    if (before > ' ' && before < 0x7f) return at;
    ++at;
  }
  return to;
}

template <typename Added, typename Piece>
void Tokenizer::walk(std::string_view text, Added&& added, Piece&& piece) const {
  std::vector<Segment>& segments = t_scratch.raw_segments;
  segments.clear();
  added_.split(text, 0, static_cast<std::uint32_t>(text.size()), false, segments);
  const std::size_t piece_bytes = std::max<std::size_t>(spec_.piece_bytes, 1);
  for (const Segment& seg : segments) {
    if (seg.token >= 0) {
      if (!added(seg)) return;
      continue;
    }
    bool cut = piecewise_ && seg.end - seg.begin > piece_bytes;
    if (cut) {
      const std::uint32_t first = piece_end(text, seg.begin + static_cast<std::uint32_t>(piece_bytes), seg.end);
      cut = normalizer_->cuttable_after(text.substr(seg.begin, first - seg.begin));
    }
    for (std::uint32_t from = seg.begin; from < seg.end;) {
      std::uint32_t to = seg.end;
      if (cut && to - from > piece_bytes) to = piece_end(text, from + piece_bytes, to);
      if (!piece(from, to)) return;
      from = to;
    }
  }
}

void Tokenizer::encode_piece(std::string_view text, std::uint32_t from, std::uint32_t to, std::int32_t& word,
                             Encoding& out) const {
  Scratch& s = t_scratch;
  s.normalized.clear();
  normalizer_->normalize(text.substr(from, to - from), from, s.normalized);
  auto n = static_cast<std::uint32_t>(s.normalized.text.size());
  if (!added_.has(true)) return encode_words(s.normalized, 0, n, word, out);
  s.normalized_segments.clear();
  added_.split(s.normalized.text, 0, n, true, s.normalized_segments);
  for (const Segment& ns : s.normalized_segments) {
    if (ns.token >= 0)
      out.push_text_token(added_.tokens()[static_cast<std::size_t>(ns.token)].id,
                          {s.normalized.begin_of(ns.begin), s.normalized.end_of(ns.end - 1)}, word++);
    else
      encode_words(s.normalized, ns.begin, ns.end, word, out);
  }
}

void Tokenizer::encode_sequence(std::string_view text, int sequence_id, Encoding& out, std::size_t limit) const {
  const std::size_t start = out.ids.size();
  std::int32_t word = 0;
  auto room = [&] { return out.ids.size() - start < limit; };
  walk(
      text,
      [&](const Segment& seg) {
        out.push_text_token(added_.tokens()[static_cast<std::size_t>(seg.token)].id, {seg.begin, seg.end}, word++);
        return room();
      },
      [&](std::uint32_t from, std::uint32_t to) {
        encode_piece(text, from, to, word, out);
        return room();
      });
  if (out.ids.size() - start > limit) {
    out.ids.resize(start + limit);
    out.offsets.resize(start + limit);
    out.words.resize(start + limit);
  }
  if (post_processor_.trimming()) trim_offsets(text, out, start);
  out.finish_text_tokens(static_cast<std::int8_t>(sequence_id));
}

void Tokenizer::trim_offsets(std::string_view text, Encoding& out, std::size_t start) const {
  const bool add_prefix_space = post_processor_.trimming()->add_prefix_space;
  const SpaceEnds* table = space_ends_.data();
  for (std::size_t k = start; k < out.ids.size(); ++k) {
    Offsets& o = out.offsets[k];
    SpaceEnds ends = table[static_cast<std::size_t>(out.ids[k])];
    if (ends.leading == 0 && ends.trailing == 0) continue;
    // An added token's text is the text it matched (the spaces lstrip took included).
    if (ends.leading == kAddedToken) ends = space_ends(text.substr(o.begin, o.end - o.begin));
    tok::trim_offsets(ends, k == start || o.begin == 0, add_prefix_space, o.begin, o.end);
  }
}

std::size_t Tokenizer::count_sequence(std::string_view text) const {
  thread_local Encoding piece_tokens;
  std::size_t count = 0;
  std::int32_t word = 0;
  walk(
      text,
      [&](const Segment&) {
        ++count;
        return true;
      },
      [&](std::uint32_t from, std::uint32_t to) {
        piece_tokens.clear();
        encode_piece(text, from, to, word, piece_tokens);
        count += piece_tokens.ids.size();
        return true;
      });
  return count;
}

std::size_t Tokenizer::count(std::string_view a, std::optional<std::string_view> b,
                             const EncodeOptions& options) const {
  if (options.truncation) {
    EncodeOptions kept = options;
    kept.keep_overflow = false;
    return encode(a, b, kept).size();
  }
  const std::size_t added = options.add_special_tokens ? added_tokens(b.has_value()) : 0;
  return added + count_sequence(a) + (b ? count_sequence(*b) : 0);
}

Encoding Tokenizer::encode(std::string_view a, std::optional<std::string_view> b,
                           const EncodeOptions& options) const {
  Encoding out;
  encode(a, b, options, out);
  return out;
}

std::size_t Tokenizer::special_tokens(bool pair, const EncodeOptions& options) const {
  const std::size_t added = options.add_special_tokens ? added_tokens(pair) : 0;
  if (options.truncation && options.truncation->max_length < added)
    usage_error("a maximum length of {} leaves no room beside the {} special tokens", options.truncation->max_length,
                added);
  return added;
}

void Tokenizer::encode(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options,
                       Encoding& out) const {
  const std::size_t added = special_tokens(b.has_value(), options);
  if (options.truncation && !options.keep_overflow && options.truncation->side == Side::Right &&
      encode_truncated(a, b, options, out))
    return;
  // Most texts fit: build the final encoding in one pass, straight through the template.
  out.clear();
  out.reserve(added + (a.size() + (b ? b->size() : 0)) / 3 + 8);
  post_processor_.build(b.has_value(), options.add_special_tokens, out, [&](int sequence, Encoding& dst) {
    encode_sequence(sequence == 0 ? a : *b, sequence, dst);
  });
  if (!options.truncation || out.size() <= options.truncation->max_length) return;

  // Too long: encode each text on its own, truncate, then apply the template to every window.
  Encoding ea, eb;
  encode_sequence(a, 0, ea);
  if (b) encode_sequence(*b, 1, eb);
  truncate_and_process(ea, b ? &eb : nullptr, options, added, out);
}

void Tokenizer::truncate_and_process(Encoding& a, Encoding* b, const EncodeOptions& options, std::size_t added,
                                     Encoding& out) const {
  truncate(a, b, *options.truncation, added);
  if (!options.keep_overflow) {
    a.overflowing.clear();
    if (b) b->overflowing.clear();
  }
  out = post_processor_.process(a, b, options.add_special_tokens);
  out.truncated = true;
}

Encoding Tokenizer::encode_pair(const Encoding& a, const Encoding& b, const EncodeOptions& options) const {
  const std::size_t added = special_tokens(true, options);
  Encoding out;
  if (!options.truncation || a.size() + b.size() + added <= options.truncation->max_length) {
    post_processor_.build(true, options.add_special_tokens, out, [&](int sequence, Encoding& dst) {
      const Encoding& e = sequence == 0 ? a : b;
      dst.append(e, 0, e.size());
    });
    return out;
  }
  Encoding ea = a, eb = b;
  truncate_and_process(ea, &eb, options, added, out);
  return out;
}

void Tokenizer::truncate(Encoding& a, Encoding* b, const TruncationParams& t, std::size_t added) const {
  if (spec_.profile == UnicodeProfile::Rust)
    truncate_rust(a, b, t.max_length - added, t);
  else
    truncate_python(a, b, t.max_length - added, t);
}

bool Tokenizer::encode_truncated(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options,
                                 Encoding& out) const {
  const TruncationParams& t = *options.truncation;
  const std::size_t added = options.add_special_tokens ? added_tokens(b.has_value()) : 0;
  const std::size_t budget = t.max_length - added;
  // A text truncation may cut is tokenized one token past the budget, which tells that it was cut; the
  // text that only_first or only_second leaves whole is tokenized whole, as its length decides the cut.
  const std::size_t cap = budget + 1, whole = std::numeric_limits<std::size_t>::max();
  const std::size_t limit_a = b && t.strategy == TruncationStrategy::OnlySecond ? whole : cap;
  const std::size_t limit_b = b && t.strategy == TruncationStrategy::OnlyFirst ? whole : cap;
  out.clear();
  out.reserve(std::min(t.max_length + 1, added + (a.size() + (b ? b->size() : 0)) / 3 + 8));
  post_processor_.build(b.has_value(), options.add_special_tokens, out, [&](int sequence, Encoding& dst) {
    encode_sequence(sequence == 0 ? a : *b, sequence, dst, sequence == 0 ? limit_a : limit_b);
  });
  if (out.size() <= t.max_length) return true;  // no text reached its cap: nothing to cut

  Encoding ea, eb;
  encode_sequence(a, 0, ea, limit_a);
  if (b) encode_sequence(*b, 1, eb, limit_b);
  if (b) {
    Encoding& target = t.strategy == TruncationStrategy::OnlySecond ? eb : ea;
    const Encoding& other = &target == &ea ? eb : ea;
    // only_first/only_second refuses a cut that leaves its text nothing (except the fast tokenizer's cut
    // of everything, to a budget of 0): the whole path says so with the text's true length.
    const bool refused = other.size() >= budget && (budget > 0 || spec_.profile != UnicodeProfile::Rust);
    if (t.strategy != TruncationStrategy::LongestFirst && refused) return false;
    // Both cut: an odd budget's last token goes to the longer text (B on a tie), so that one decides.
    if (ea.size() == cap && eb.size() == cap && count_sequence(a) > count_sequence(*b)) {
      ea.clear();
      encode_sequence(a, 0, ea, cap + 1);
    }
  }
  truncate(ea, b ? &eb : nullptr, t, added);
  ea.overflowing.clear();
  eb.overflowing.clear();
  out = post_processor_.process(ea, b ? &eb : nullptr, options.add_special_tokens);
  out.truncated = true;
  return true;
}

}  // namespace bertkit::tok
