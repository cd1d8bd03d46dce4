// The interactive prompt's line reader: libedit opened at run time (not linked), and plain lines when it
// cannot be loaded. Editing and history through libedit are tested on a terminal in fill_mask_cli_test.
#include "records/line_editor.h"

#include <doctest/doctest.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

using bertkit::records::LineEditor;

namespace {
// A deleter type of its own: decltype(&std::fclose) would drop glibc's attributes on fclose (a warning).
struct CloseFile {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, CloseFile>;
}  // namespace

TEST_CASE("line editor: libedit is found at run time") { CHECK(LineEditor().editing()); }

TEST_CASE("line editor: without libedit, plain lines, the prompt before each, end of input at the end") {
  File in(std::tmpfile()), out(std::tmpfile());
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

TEST_CASE("line editor: without libedit, Ctrl-C drops what was read of the line and prompts again") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  File in(fdopen(fds[0], "r")), out(std::tmpfile());
  REQUIRE(in);
  REQUIRE(out);
  LineEditor editor({"libbertkit-no-such-library.so"}, in.get(), out.get());
  const pthread_t reader = pthread_self();
  // SIGINT goes to the reading thread, as a terminal's Ctrl-C reaches a program blocked reading it;
  // the pauses let the reader block on the rest of the line first.
  std::thread typist([&] {
    CHECK(write(fds[1], "words to drop", 13) == 13);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    pthread_kill(reader, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(write(fds[1], "kept line\n", 10) == 10);
    close(fds[1]);
  });
  CHECK(editor.read("> ") == "kept line");
  CHECK_FALSE(editor.read("> ").has_value());
  typist.join();
  std::rewind(out.get());
  char shown[64] = {};
  CHECK(std::fread(shown, 1, sizeof shown - 1, out.get()) == 7);
  CHECK(std::string(shown) == "> \n> > ");
}
