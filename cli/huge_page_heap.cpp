#include "cli/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace bertkit::cli {

void use_huge_page_heap() {
  constexpr std::size_t kHuge = std::size_t{2} << 20, kGrowth = std::size_t{64} << 20;
  // Blocks up to 32 MB (glibc's largest threshold) come from the heap, where a freed one is reused by
  // the next batch instead of being unmapped and faulted in again; freed memory stays for the run.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, static_cast<int>(kGrowth));
  // Grow the heap now, by one block plus the padding, and advise the fresh part. Later growth is not
  // advised (the kernel will not merge it into an advised area); 64 MB covers a typical run.
  auto* before = static_cast<char*>(sbrk(0));
  void* volatile block = std::malloc(kHuge);  // volatile: the compiler would drop a malloc freed unused
  std::free(block);
  auto* after = static_cast<char*>(sbrk(0));
  const auto begin = (reinterpret_cast<std::uintptr_t>(before) + kHuge - 1) & ~(kHuge - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(after) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace bertkit::cli
