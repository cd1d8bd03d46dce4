#include "records/log.h"

#include <atomic>

namespace bertkit::records {

namespace {
std::atomic<bool> g_quiet{false};
}

void set_quiet(bool quiet) { g_quiet = quiet; }
bool quiet() { return g_quiet; }

}  // namespace bertkit::records
