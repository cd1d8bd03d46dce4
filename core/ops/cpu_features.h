#pragma once
// What the CPU offers bertkit's kernels, and which path the process takes: the best the CPU has, or a
// lower one named by the environment variable BERTKIT_CPU (portable, avx2, avx512), so that a machine
// can run, and CI can test, what a lesser CPU runs. The path selects every kernel of bertkit
// (core/ops/kernel_table.h) and, below AVX-512, caps oneDNN's instruction set too.
#include <optional>
#include <string>
#include <string_view>

namespace bertkit::core {

// In ascending order: each path may use what the ones before it use.
enum class CpuPath {
  Portable,  // baseline x86-64 (or any other architecture): no vector extension beyond SSE2
  Avx2,      // AVX2 (and FMA for bench's peak)
  Avx512,    // AVX-512F, with BW and BF16 where the CPU has them
};

struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512bf16 = false;
  bool avx512vnni = false;
  bool amx_bf16 = false;  // AMX tiles with bf16 products (Intel Xeon since Sapphire Rapids)
  bool sha = false;  // the SHA extensions (with SSE4.1): the download's sha256 check, not a kernel
};

// The running CPU's (all false off x86-64).
CpuFeatures detect_cpu_features();

// The highest path `features` allow, and those features with everything above `path` removed.
CpuPath best_path(const CpuFeatures& features);
CpuFeatures capped(const CpuFeatures& features, CpuPath path);

std::string_view cpu_path_name(CpuPath path);
std::optional<CpuPath> parse_cpu_path(std::string_view name);

struct CpuSelection {
  CpuPath path = CpuPath::Portable;
  CpuFeatures features;  // the CPU's, capped to `path`
  std::string warning;   // a request the CPU cannot honour, which runs its best path instead
  std::string error;     // BERTKIT_CPU names no path: the program must refuse to run
};

// The path for a BERTKIT_CPU value (nullptr or empty: unset) on a CPU with `cpu`'s features.
CpuSelection select_cpu_path(const char* requested, const CpuFeatures& cpu);

// Whether oneDNN 2.6 computes bf16 matmuls on the selected path: only with AVX-512 (F and BW); below
// it, bf16 weights must compute in f32.
bool bf16_matmul_supported(const CpuSelection& selection);
// Whether oneDNN 2.6's int8 matmul sums exactly here: without VNNI it multiplies u8 by s8 in pairs
// summed into 16 bits (vpmaddubsw), which saturate (a relative error near 0.2 was measured on an AVX2
// CPU), so elsewhere int8 weights are widened to f32 and computed in f32.
bool int8_matmul_supported(const CpuSelection& selection);

// The process's selection, made once from BERTKIT_CPU and the running CPU; on first use it caps
// oneDNN for the avx2 and portable paths, so it must come before oneDNN's first primitive (the CLI
// and the tests call it at start; dnnl_context() too). Never throws: the CLI reports `error`.
const CpuSelection& cpu_selection();

}  // namespace bertkit::core
