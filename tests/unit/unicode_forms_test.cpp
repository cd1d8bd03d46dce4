// The Unicode-form normalizers beyond the goldens (tests/golden/unicode_forms_test.cpp): canonical
// order over a run of marks longer than any corpus holds, and where the Rust library's positional
// alignment puts a mark the order moves.
#include "tokenizer/normalized_text.h"
#include "tokenizer/unicode_forms.h"

#include <doctest/doctest.h>

#include <string>

using namespace bertkit::tok;

namespace {

NormalizedText normalized(UnicodeForm form, const std::string& text) {
  NormalizedText out;
  UnicodeFormNormalizer(form).normalize(text, 0, out);
  return out;
}

}  // namespace

TEST_CASE("unicode forms: a long run of marks of two classes is put in canonical order, stably") {
  const std::string acute = "\xCC\x81", dot_below = "\xCC\xA3";  // classes 230 and 220
  std::string text = "a", want = "a";
  constexpr int kPairs = 40000;  // a sort by insertion would move every dot past every acute before it
  for (int i = 0; i < kPairs; ++i) text += acute + dot_below;
  for (int i = 0; i < kPairs; ++i) want += dot_below;
  for (int i = 0; i < kPairs; ++i) want += acute;
  const NormalizedText nfd = normalized(UnicodeForm::Nfd, text);
  CHECK(nfd.text == want);
  // NFC composes "a" with the first dot below (U+1EA1); the acutes stay.
  const NormalizedText nfc = normalized(UnicodeForm::Nfc, text);
  CHECK(nfc.text == "\xE1\xBA\xA1" + want.substr(1 + dot_below.size()));
}

TEST_CASE("unicode forms: alignment follows position, as the Rust library's does") {
  // "a", acute, dot below: the order swaps the marks, and each keeps the span of the place it moved to.
  const NormalizedText nfd = normalized(UnicodeForm::Nfd, "a\xCC\x81\xCC\xA3");
  CHECK(nfd.text == "a\xCC\xA3\xCC\x81");
  CHECK(nfd.begin_of(1) == 1);  // the dot below, now second, has the acute's place (bytes 1-3)
  CHECK(nfd.end_of(1) == 3);
  CHECK(nfd.begin_of(3) == 3);  // and the acute the dot's
  CHECK(nfd.end_of(3) == 5);
  // "e" + acute composes to U+00E9 with the span of the "e" alone.
  const NormalizedText nfc = normalized(UnicodeForm::Nfc, "e\xCC\x81x");
  CHECK(nfc.text == "\xC3\xA9x");
  CHECK(nfc.begin_of(0) == 0);
  CHECK(nfc.end_of(0) == 1);
  CHECK(nfc.begin_of(2) == 3);
  CHECK(nfc.end_of(2) == 4);
}
