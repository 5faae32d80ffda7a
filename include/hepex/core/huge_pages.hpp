#pragma once
// Transparent huge pages for large host scratch buffers. A fresh buffer is
// first touched page by page, and with 4 KiB pages every first touch is a
// page fault: on the project's build machine (a VM) about 8 us each, which
// was a quarter of a blocked rref's time on one core at n = 4000
// (perf/results/linalg/README.md). With 2 MiB pages there are 512 times fewer.
// Only advice: a no-op where the kernel has huge pages off, and off Linux.

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hepex {

// Asks for huge pages on the whole 2 MiB pages inside [data, data + bytes).
inline void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (first + huge - 1) & ~(huge - 1);
  const std::uintptr_t end = (first + bytes) & ~(huge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace hepex
