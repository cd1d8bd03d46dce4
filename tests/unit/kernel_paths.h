#pragma once
// The kernel tables of every CPU path this machine can run, each as a CPU of that path would build it
// (its features capped to the path): an op test runs each table's variants in one process, where
// BERTKIT_CPU would need one process per path.
#include "core/ops/cpu_features.h"
#include "core/ops/kernel_table.h"

#include <vector>

namespace bktest {

inline std::vector<bertkit::core::KernelTable> tables_of_every_path() {
  using namespace bertkit::core;
  const CpuFeatures cpu = detect_cpu_features();
  std::vector<KernelTable> tables;
  for (CpuPath path : {CpuPath::Portable, CpuPath::Avx2, CpuPath::Avx512})
    if (path <= best_path(cpu)) tables.push_back(kernel_table(path, capped(cpu, path)));
  return tables;
}

}  // namespace bktest
