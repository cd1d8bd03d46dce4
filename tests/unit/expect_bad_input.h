#pragma once
// The check every bad-input test makes: the reader refuses with BadInput, naming the file and the fault.
#include "core/error.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace bktest {

// Runs `read` and checks it throws BadInput whose message names `path` and contains `what`.
template <typename F>
void expect_bad_input(F&& read, const std::filesystem::path& path, const std::string& what) {
  try {
    read();
    FAIL("no error for " << what);
  } catch (const bertkit::Error& e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(e.kind() == bertkit::ErrorKind::BadInput);
    CHECK(msg.find(path.string()) != std::string::npos);
    CHECK(msg.find(what) != std::string::npos);
  }
}

}  // namespace bktest
