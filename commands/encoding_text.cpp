#include "commands/encoding_text.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace bertkit::cmd {

namespace {

constexpr std::size_t kDigits = 11;  // "-2147483648"

// Digits written in place by fmt's compiled format: no format string parsed, no buffer copied.
template <typename Int>
char* write_int(char* out, Int x) {
  return fmt::format_to(out, FMT_COMPILE("{}"), x);
}

// "d,d,d,...": the text of a run of one digit, copied rather than written value by value.
class DigitRun {
 public:
  explicit DigitRun(char separator) {
    for (std::size_t d = 0; d < 10; ++d)
      for (std::size_t i = 0; i < kLength; ++i) runs_[d][i] = i % 2 ? separator : static_cast<char>('0' + d);
  }
  // Writes `n` digits `d` with separators between them.
  char* write(char* out, int d, std::size_t n) const {
    const char* run = runs_[static_cast<std::size_t>(d)].data();
    for (std::size_t left = 2 * n - 1; left;) {
      const std::size_t chunk = std::min(left, kLength);
      std::memcpy(out, run, chunk);  // kLength is even: every chunk starts at a digit
      out += chunk;
      left -= chunk;
    }
    return out;
  }

 private:
  static constexpr std::size_t kLength = 1024;
  std::array<std::array<char, kLength>, 10> runs_;
};

// Type ids and attention masks are 0s and 1s: single digits are written without fmt's digit count,
// and when all are the same digit (one sequence, no padding: the usual line) as a copy.
template <typename Int>
void append_small_ints(records::TextBuffer& out, std::span<const Int> values, char separator) {
  if (values.empty()) return;
  // Without an early exit, so that the loops vectorise: a line's values are all read anyway.
  Int differ = 0;
  for (Int x : values) differ |= static_cast<Int>(x ^ values[0]);
  const bool same = differ == 0;
  if (same && values[0] >= 0 && values[0] < 10 && (separator == ',' || separator == ' ')) {
    static const DigitRun commas(','), spaces(' ');
    out.write(2 * values.size(), [&](char* p) {
      return (separator == ',' ? commas : spaces).write(p, static_cast<int>(values[0]), values.size());
    });
    return;
  }
  const bool digits = std::all_of(values.begin(), values.end(), [](Int x) { return x >= 0 && x < 10; });
  out.write(values.size() * (kDigits + 1), [&](char* p) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) *p++ = separator;
      if (digits) *p++ = static_cast<char>('0' + values[i]);
      else p = write_int(p, values[i]);
    }
    return p;
  });
}

// The pieces of an offset pair for offsets below kSmall: "[b," and "e]," in 8-byte slots whose last
// byte is the length, so that a pair is two copies.
class PairPieces {
 public:
  // Offsets in lines of up to 4096 characters; more would cost a one-sentence call its start-up time.
  static constexpr std::uint32_t kSmall = 4096;
  static constexpr std::size_t kSlot = 8;
  // The room a pair takes at most past the end of the last (its slots' width).
  static constexpr std::size_t kRoom = 2 * kSlot;
  PairPieces() {
    for (std::uint32_t n = 0; n < kSmall; ++n) {
      const fmt::format_int digits(n);
      const std::string_view d(digits.data(), digits.size());
      set(begins_[n], "[", d, ",");
      set(ends_[n], "", d, "],");
    }
  }
  char* write(char* out, tok::Offsets o) const {
    if (o.begin >= kSmall || o.end >= kSmall) {
      *out++ = '[';
      out = write_int(out, o.begin);
      *out++ = ',';
      out = write_int(out, o.end);
      *out++ = ']';
      *out++ = ',';
      return out;
    }
    out = copy(out, begins_[o.begin]);
    return copy(out, ends_[o.end]);
  }

 private:
  using Slot = std::array<char, kSlot>;
  static void set(Slot& slot, std::string_view before, std::string_view digits, std::string_view after) {
    char* p = slot.data();
    for (std::string_view piece : {before, digits, after}) p = std::copy(piece.begin(), piece.end(), p);
    slot[kSlot - 1] = static_cast<char>(p - slot.data());
  }
  static char* copy(char* out, const Slot& slot) {
    std::memcpy(out, slot.data(), kSlot);
    return out + static_cast<unsigned char>(slot[kSlot - 1]);
  }
  std::array<Slot, kSmall> begins_{}, ends_{};
};

}  // namespace

void append_joined(records::TextBuffer& out, std::span<const std::int32_t> values, char separator) {
  append_small_ints(out, values, separator);
}

void append_joined(records::TextBuffer& out, std::span<const std::uint8_t> values, char separator) {
  append_small_ints(out, values, separator);
}

void append_joined(records::TextBuffer& out, std::span<const std::int32_t> ids, const TokenTexts& texts) {
  out.write(texts.room(ids), [&](char* p) { return texts.write_joined(p, ids); });
}

void append_json_pairs(records::TextBuffer& out, std::span<const tok::Offsets> offsets) {
  if (offsets.empty()) return;
  static const PairPieces pieces;
  constexpr std::size_t kLongest = 2 * 10 + 4;  // "[4294967295,4294967295],"
  out.write(offsets.size() * kLongest + PairPieces::kRoom, [&](char* p) {
    for (const auto& o : offsets) p = pieces.write(p, o);
    return p - 1;  // no ',' after the last pair
  });
}

}  // namespace bertkit::cmd
