#include "core/ops/cpu_features.h"

#include <fmt/format.h>
#include <oneapi/dnnl/dnnl.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <array>
#include <cstdlib>
#include <utility>

namespace bertkit::core {
namespace {

constexpr std::array<std::pair<CpuPath, std::string_view>, 3> kPathNames{{
    {CpuPath::Portable, "portable"},
    {CpuPath::Avx2, "avx2"},
    {CpuPath::Avx512, "avx512"},
}};

// What oneDNN may use on a path below the CPU's best: what such a CPU would give it. SSE4.1 is the
// lowest oneDNN has.
dnnl_cpu_isa_t dnnl_isa(CpuPath path) {
  return path == CpuPath::Avx2 ? dnnl_cpu_isa_avx2 : dnnl_cpu_isa_sse41;
}

CpuSelection select_for_process() {
  const CpuFeatures cpu = detect_cpu_features();
  CpuSelection selection = select_cpu_path(std::getenv("BERTKIT_CPU"), cpu);
  if (selection.path < best_path(cpu) && dnnl_set_max_cpu_isa(dnnl_isa(selection.path)) != dnnl_success)
    selection.error = fmt::format("BERTKIT_CPU={}: oneDNN was in use before its instruction set could be capped",
                                  cpu_path_name(selection.path));
  return selection;
}

}  // namespace

CpuFeatures detect_cpu_features() {
  CpuFeatures f;
#if defined(__x86_64__)
  __builtin_cpu_init();
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512bf16 = __builtin_cpu_supports("avx512bf16");
  f.avx512vnni = __builtin_cpu_supports("avx512vnni");
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool leaf7 = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
  f.sha = __builtin_cpu_supports("sse4.1") && leaf7 && (ebx & bit_SHA);
  f.amx_bf16 = leaf7 && (edx & (1u << 22));  // CPUID.(7,0):EDX bit 22, AMX-BF16
#endif
  return f;
}

CpuPath best_path(const CpuFeatures& features) {
  if (features.avx512f) return CpuPath::Avx512;
  if (features.avx2) return CpuPath::Avx2;
  return CpuPath::Portable;
}

CpuFeatures capped(const CpuFeatures& features, CpuPath path) {
  CpuFeatures f = features;
  if (path < CpuPath::Avx512) f.avx512f = f.avx512bw = f.avx512bf16 = f.avx512vnni = f.amx_bf16 = false;
  if (path < CpuPath::Avx2) f.avx2 = f.fma = f.sha = false;  // portable: nothing beyond SSE2
  return f;
}

std::string_view cpu_path_name(CpuPath path) {
  for (const auto& [p, name] : kPathNames)
    if (p == path) return name;
  return "?";
}

std::optional<CpuPath> parse_cpu_path(std::string_view name) {
  for (const auto& [path, n] : kPathNames)
    if (n == name) return path;
  return std::nullopt;
}

CpuSelection select_cpu_path(const char* requested, const CpuFeatures& cpu) {
  CpuSelection selection;
  const CpuPath best = best_path(cpu);
  selection.path = best;
  if (requested && *requested) {
    if (auto path = parse_cpu_path(requested)) {
      if (*path > best)
        selection.warning = fmt::format("BERTKIT_CPU={}: this CPU has no {}, so bertkit runs its {} path", requested,
                                        *path == CpuPath::Avx512 ? "AVX-512F" : "AVX2", cpu_path_name(best));
      else
        selection.path = *path;
    } else {
      selection.error = fmt::format("BERTKIT_CPU=\"{}\": expected portable, avx2 or avx512", requested);
    }
  }
  selection.features = capped(cpu, selection.path);
  return selection;
}

bool bf16_matmul_supported(const CpuSelection& selection) {
  return selection.path == CpuPath::Avx512 && selection.features.avx512bw;
}

bool int8_matmul_supported(const CpuSelection& selection) {
  return selection.path == CpuPath::Avx512 && selection.features.avx512vnni;
}

const CpuSelection& cpu_selection() {
  static const CpuSelection selection = select_for_process();
  return selection;
}

}  // namespace bertkit::core
