#include "tokenizer/strip_accents_normalizer.h"

#include "tokenizer/char_changes.h"
#include "tokenizer/utf8.h"

namespace bertkit::tok {

void StripAccentsNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  ChangeCursor cursor(original, base, out);
  bool kept_any = false;
  char32_t kept = 0;  // the character kept last, not yet applied: the marks after it go with it
  long removed = 0;
  std::size_t i = 0;
  while (i < original.size()) {
    // ASCII followed by ASCII: kept, with no mark after it.
    const std::size_t end = ascii_run_end(original, i);
    if (end > i) {
      if (kept_any) cursor.apply(kept, -removed);
      kept_any = false;
      cursor.copy_ascii(end - i);
      i = end;
      continue;
    }
    const char32_t c = next_code_point(original, i);
    if (table_.is_mark(c)) {
      if (kept_any)
        ++removed;
      else
        cursor.consume();  // before any kept character (a copied run is never followed by a mark)
      continue;
    }
    if (kept_any) cursor.apply(kept, -removed);
    kept_any = true;
    kept = c;
    removed = 0;
  }
  if (kept_any) cursor.apply(kept, -removed);
}

}  // namespace bertkit::tok
