#include "core/hub/curl_library.h"

#include "core/error.h"

#include <dlfcn.h>

namespace bertkit::core {

namespace {

template <typename Function>
void resolve(void* library, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (!function) runtime_error("libcurl has no {}: {}", name, dlerror());
}

CurlLibrary open_curl() {
  void* library = nullptr;
  // Never closed: libcurl's global state lives until the process ends.
  for (const char* name : {"libcurl.so.4", "libcurl-gnutls.so.4"})
    if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  if (!library) runtime_error("downloading needs libcurl (Debian: apt install libcurl4): {}", dlerror());
  CurlLibrary c{};
  resolve(library, "curl_global_init", c.global_init);
  resolve(library, "curl_easy_init", c.easy_init);
  resolve(library, "curl_easy_cleanup", c.easy_cleanup);
  resolve(library, "curl_easy_setopt", c.easy_setopt);
  resolve(library, "curl_easy_perform", c.easy_perform);
  resolve(library, "curl_easy_getinfo", c.easy_getinfo);
  resolve(library, "curl_easy_strerror", c.easy_strerror);
  resolve(library, "curl_slist_append", c.slist_append);
  resolve(library, "curl_slist_free_all", c.slist_free_all);
  if (c.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) runtime_error("libcurl failed to initialise");
  return c;
}

}  // namespace

const CurlLibrary& curl_library() {
  static const CurlLibrary library = open_curl();  // thread-safe, once; retried after a failure
  return library;
}

}  // namespace bertkit::core
