#include "cli/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace bertkit::cli {

void use_huge_page_heap() {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  constexpr std::size_t kBlock = std::size_t{30} << 20;  // below glibc's largest mmap threshold, 32 MB
  // Blocks up to 32 MB come from the heap, where a freed one is reused by the next batch instead of
  // being unmapped and faulted in again; freed memory stays for the run.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // Grow the heap by one large block and advise the part of it nothing has touched yet: malloc writes
  // only the headers at the block's two ends. A 2 MiB range holding one 4 KiB page already cannot get a
  // huge page later, so those ends are left out. Growth past this is not advised (the kernel will not
  // merge it into an advised area).
  auto* before = static_cast<char*>(sbrk(0));
  void* volatile block = std::malloc(kBlock);  // volatile: the compiler would drop a malloc freed unused
  const auto first = reinterpret_cast<std::uintptr_t>(block);
  if (block && static_cast<char*>(sbrk(0)) > before) {
    const std::uintptr_t begin = (first + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (first + kBlock) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  std::free(block);
}

}  // namespace bertkit::cli
