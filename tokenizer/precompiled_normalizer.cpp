#include "tokenizer/precompiled_normalizer.h"

#include "tokenizer/char_changes.h"

#include <utf8proc.h>

namespace bertkit::tok {

PrecompiledNormalizer::PrecompiledNormalizer(std::shared_ptr<const PrecompiledCharsmap> map) : map_(std::move(map)) {
  for (unsigned c = 0; c < 128; ++c) {
    const char byte = static_cast<char>(c);
    ascii_kept_[c] = c != 0 && !map_->transform(std::string_view(&byte, 1));
  }
  independent_ = true;
  for (unsigned c = ' '; c < 0x7f; ++c) independent_ = independent_ && ascii_kept_[c];
}

namespace {

// The changes Hugging Face's Precompiled normalizer lists, through its transform (ChangeCursor):
// (c, 0) replaces the next original character, (c, -n) it and the n after it, (c, +1) inserts c. The
// last change is held back: a replacement that deletes adds its count to the change before it.
class Transformer {
 public:
  Transformer(std::string_view original, std::uint32_t base, NormalizedText& out)
      : original_(original), cursor_(original, base, out) {}

  // `replacement` stands for `old_chars` characters: all its characters replace, except that when it
  // is longer its last ones are inserted, and when it is shorter the last change (its own or the one
  // before it) also removes the difference.
  void replace(std::string_view replacement, long old_chars) {
    const long new_chars = static_cast<long>(count_code_points(replacement));
    const long diff = new_chars - old_chars;
    std::size_t i = 0;
    for (long k = 0; i < replacement.size(); ++k) push(next_code_point(replacement, i), diff > 0 && k >= new_chars - diff ? 1 : 0);
    if (diff < 0 && pending_) pending_changes_ += diff;
  }
  void keep(char32_t c) { push(c, 0); }
  // Applies the change held back.
  void flush() {
    if (!pending_) return;
    pending_ = false;
    cursor_.apply(pending_c_, pending_changes_);
  }
  // Nothing lags or is held back: the next character to consume is the one at `pos`.
  bool in_step(std::size_t pos) const { return !pending_ && cursor_.pos() == pos; }
  // After the last flush: every original character was consumed.
  bool consumed_all() const { return !pending_ && cursor_.pos() == original_.size(); }
  // Copies original[pos, pos + n) (ASCII, in step) one for one.
  void copy_ascii(std::size_t n) { cursor_.copy_ascii(n); }

 private:
  void push(char32_t c, long changes) {
    flush();
    pending_ = true;
    pending_c_ = c;
    pending_changes_ = changes;
  }

  std::string_view original_;
  ChangeCursor cursor_;
  bool pending_ = false;
  char32_t pending_c_ = 0;
  long pending_changes_ = 0;
};

}  // namespace

void PrecompiledNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  run(original, base, out);
}

bool PrecompiledNormalizer::cuttable_after(std::string_view head) const {
  thread_local NormalizedText scratch;
  scratch.clear();
  return run(head, 0, scratch);
}

bool PrecompiledNormalizer::run(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  Transformer t(original, base, out);
  const std::size_t n = original.size();
  std::size_t pos = 0;
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(original[i]); };
  while (pos < n) {
    // A character the rules keep cannot change the change held back: apply it, and copy from here.
    if (byte(pos) < 0x80 && ascii_kept_[byte(pos)]) t.flush();
    if (t.in_step(pos)) {
      // ASCII followed by ASCII (CR LF excepted) is a cluster of its own: runs the rules leave alone
      // are copied as they are, all but the last character, which a deletion after it may extend.
      std::size_t end = pos;
      while (end < n && byte(end) < 0x80 && ascii_kept_[byte(end)] &&
             (end + 1 == n || (byte(end + 1) < 0x80 && !(byte(end) == '\r' && byte(end + 1) == '\n'))))
        ++end;
      if (end > pos + 1) {
        t.copy_ascii(end - pos - 1);
        t.keep(static_cast<char32_t>(byte(end - 1)));
        pos = end;
        continue;
      }
    }
    // One extended grapheme cluster.
    std::size_t g_end = pos;
    char32_t prev = next_code_point(original, g_end);
    utf8proc_int32_t state = 0;
    long chars = 1;
    while (g_end < n) {
      std::size_t next = g_end;
      const char32_t c = next_code_point(original, next);
      if (utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(prev), static_cast<utf8proc_int32_t>(c), &state))
        break;
      prev = c;
      g_end = next;
      ++chars;
    }
    const std::string_view cluster = original.substr(pos, g_end - pos);
    if (cluster.size() < 6) {
      if (auto replacement = map_->transform(cluster)) {
        t.replace(*replacement, chars);
        pos = g_end;
        continue;
      }
    }
    for (std::size_t i = pos; i < g_end;) {
      const std::size_t b = i;
      const char32_t c = next_code_point(original, i);
      if (auto replacement = map_->transform(original.substr(b, i - b)))
        t.replace(*replacement, 1);
      else
        t.keep(c);
    }
    pos = g_end;
  }
  t.flush();
  return t.consumed_all();
}

}  // namespace bertkit::tok
