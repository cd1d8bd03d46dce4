#pragma once
// libcurl, opened the first time a download needs it. Linked, it loaded some 30 libraries at every
// start (TLS, Kerberos, LDAP, ...) and their constructors cost about 6 ms of each process's ~17 ms for
// one sentence, though only `bertkit download` and -m ORG/NAME ever use it.
#include <curl/curl.h>  // the functions' types, checked against what dlsym finds

namespace bertkit::core {

struct CurlLibrary {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_perform) easy_perform;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
};

// The library, opened and initialised once (curl_global_init); a runtime error naming the package
// when the system has none.
const CurlLibrary& curl_library();

}  // namespace bertkit::core
