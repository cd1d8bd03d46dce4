#pragma once
// utf8proc's general category of a code point, as Unicode 15.0 gives it whatever Unicode the linked
// utf8proc has (Debian 12's: 15.0; Debian 13's: 15.1): the reference tables of unicode_overrides.inc
// are differences from 15.0, so a code point assigned later reads as unassigned (unicode_newer.inc).
#include <utf8proc.h>

#include <string_view>

namespace bertkit::tok {

utf8proc_category_t unicode_category(char32_t c);

// Whether the linked utf8proc's Unicode is 15.0 or the newer one unicode_newer.inc was made for (a
// third would need that table made again: tokenizer/tables/gen_unicode_newer.py).
bool unicode_version_covered(std::string_view utf8proc_version);

}  // namespace bertkit::tok
