// The interactive prompt's line reader: libedit opened at run time (not linked), and plain lines when it
// cannot be loaded. Editing and history through libedit are tested on a terminal in fill_mask_cli_test.
#include "records/line_editor.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>

using bertkit::records::LineEditor;

TEST_CASE("line editor: libedit is found at run time") { CHECK(LineEditor().editing()); }

TEST_CASE("line editor: without libedit, plain lines, the prompt before each, end of input at the end") {
  std::unique_ptr<std::FILE, decltype(&std::fclose)> in(std::tmpfile(), &std::fclose), out(std::tmpfile(), &std::fclose);
  REQUIRE(in);
  REQUIRE(out);
  std::fputs("first [MASK] line\n\n  last without newline", in.get());
  std::rewind(in.get());
  LineEditor editor({"libbertkit-no-such-library.so"}, in.get(), out.get());
  CHECK_FALSE(editor.editing());
  CHECK(editor.read("> ") == "first [MASK] line");
  editor.remember("first [MASK] line");  // nothing to remember it in: no effect
  CHECK(editor.read("> ") == "");
  CHECK(editor.read("> ") == "  last without newline");
  CHECK_FALSE(editor.read("> ").has_value());
  std::rewind(out.get());
  char shown[64] = {};
  CHECK(std::fread(shown, 1, sizeof shown - 1, out.get()) == 8);
  CHECK(std::string(shown) == "> > > > ");
}
