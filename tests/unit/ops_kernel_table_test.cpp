#include "core/ops/cpu_features.h"
#include "core/ops/kernel_table.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>

using namespace bertkit::core;

namespace {

CpuFeatures avx512_cpu() { return {.avx2 = true, .fma = true, .avx512f = true, .avx512bw = true, .avx512bf16 = true}; }
CpuFeatures avx2_cpu() { return {.avx2 = true, .fma = true}; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("BERTKIT_CPU: the three path names, nothing else") {
  for (CpuPath path : {CpuPath::Portable, CpuPath::Avx2, CpuPath::Avx512})
    CHECK(parse_cpu_path(cpu_path_name(path)) == path);
  CHECK(cpu_path_name(CpuPath::Avx512) == "avx512");
  for (const char* name : {"", "AVX2", "avx-512", "sse2", "portable ", "native"}) CHECK(!parse_cpu_path(name));
}

TEST_CASE("BERTKIT_CPU: unset takes the CPU's best path, a lower one is taken with its features alone") {
  for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
    auto s = select_cpu_path(unset, avx512_cpu());
    CHECK(s.path == CpuPath::Avx512);
    CHECK(s.features.avx512bf16);
    CHECK(s.warning.empty());
    CHECK(s.error.empty());
  }
  CHECK(select_cpu_path(nullptr, avx2_cpu()).path == CpuPath::Avx2);
  CHECK(select_cpu_path(nullptr, CpuFeatures{}).path == CpuPath::Portable);

  auto avx2 = select_cpu_path("avx2", avx512_cpu());
  CHECK(avx2.path == CpuPath::Avx2);
  CHECK((avx2.features.avx2 && avx2.features.fma));
  CHECK(!(avx2.features.avx512f || avx2.features.avx512bw || avx2.features.avx512bf16));
  CHECK((avx2.warning.empty() && avx2.error.empty()));

  auto portable = select_cpu_path("portable", avx512_cpu());
  CHECK(portable.path == CpuPath::Portable);
  CHECK(!(portable.features.avx2 || portable.features.fma || portable.features.avx512f));
  CHECK(select_cpu_path("avx512", avx512_cpu()).path == CpuPath::Avx512);
}

TEST_CASE("BERTKIT_CPU: a path above the CPU's warns and runs the best one, an unknown name is an error") {
  auto above = select_cpu_path("avx512", avx2_cpu());
  CHECK(above.path == CpuPath::Avx2);
  CHECK(above.error.empty());
  CHECK(contains(above.warning, "BERTKIT_CPU=avx512: this CPU has no AVX-512F, so bertkit runs its avx2 path"));
  CHECK(select_cpu_path("avx2", CpuFeatures{}).path == CpuPath::Portable);

  auto unknown = select_cpu_path("fast", avx512_cpu());
  CHECK(unknown.error == "BERTKIT_CPU=\"fast\": expected portable, avx2 or avx512");
}

TEST_CASE("kernel table: the portable path takes every loop's portable variant and no tiled attention") {
  const KernelTable t = kernel_table(CpuPath::Portable, CpuFeatures{});
  CHECK(t.path == CpuPath::Portable);
  CHECK((t.softmax_row == softmax_row_variants.portable));
  CHECK((t.layer_norm_row == layer_norm_row_variants.portable));
  CHECK((t.rms_norm_row == rms_norm_row_variants.portable));
  CHECK((t.rotary_half_row == rotary_half_row_variants.portable));
  CHECK((t.rotary_interleaved_row == rotary_interleaved_row_variants.portable));
  CHECK((t.max_abs == max_abs_variants.portable));
  CHECK((t.quantize_s8 == quantize_s8_variants.portable));
  CHECK((t.round_to_bf16 == round_to_bf16_variants.portable));
  CHECK(t.attention(AttentionProducts::F32, 64) == nullptr);
  CHECK(t.attention(AttentionProducts::BF16, 32) == nullptr);
}

#if defined(__x86_64__)
TEST_CASE("kernel table: the avx2 and avx512 paths take their own variants, tiled attention on avx512 only") {
  const KernelTable avx2 = kernel_table(CpuPath::Avx2, avx2_cpu());
  CHECK((avx2.softmax_row == softmax_row_variants.avx2));
  CHECK((avx2.round_to_bf16 != round_to_bf16_variants.portable));
  CHECK(avx2.attention(AttentionProducts::F32, 64) == nullptr);

  const KernelTable avx512 = kernel_table(CpuPath::Avx512, avx512_cpu());
  CHECK((avx512.layer_norm_row == layer_norm_row_variants.avx512));
  CHECK((avx512.rms_norm_row == rms_norm_row_variants.avx512));
  CHECK((avx512.rotary_half_row == rotary_half_row_variants.avx512));
  CHECK((avx512.rotary_interleaved_row == rotary_interleaved_row_variants.avx512));
  CHECK((avx2.rotary_interleaved_row == rotary_interleaved_row_variants.avx2));
  CHECK((avx512.quantize_s8 == quantize_s8_variants.avx512));
  CHECK(avx512.attention(AttentionProducts::F32, 64) == avx512.attention_f32);
  CHECK(avx512.attention(AttentionProducts::BF16, 32) == avx512.attention_bf16);
  CHECK(avx512.attention_bf16 != avx512.attention_f32);
  CHECK(avx512.attention(AttentionProducts::F32, 48) == nullptr);  // head sizes 32 and 64 only

  CpuFeatures amx = avx512_cpu();  // an AMX Xeon: f32 FMAs outrun bf16 dot products in attention
  amx.amx_bf16 = true;
  const KernelTable xeon = kernel_table(CpuPath::Avx512, amx);
  CHECK(xeon.attention_bf16 == nullptr);
  CHECK(xeon.attention(AttentionProducts::BF16, 64) == xeon.attention_f32);
  CHECK(capped(amx, CpuPath::Avx2).amx_bf16 == false);

  CpuFeatures no_bf16 = avx512_cpu();
  no_bf16.avx512bf16 = false;
  const KernelTable f32_products = kernel_table(CpuPath::Avx512, no_bf16);
  CHECK(f32_products.attention(AttentionProducts::BF16, 64) == f32_products.attention_f32);
}
#endif

TEST_CASE("kernel table: the process runs its selected path's table (CI runs the goldens again with BERTKIT_CPU=portable)") {
  const CpuSelection& selection = cpu_selection();
  CHECK(kernels().path == selection.path);
  CHECK((kernels().softmax_row == softmax_row_variants.on(selection.path)));
  CHECK(selection.path <= best_path(detect_cpu_features()));
  const char* requested = std::getenv("BERTKIT_CPU");
  if (requested && std::string(requested) == "portable") {
    CHECK(selection.path == CpuPath::Portable);
    CHECK(kernels().attention_f32 == nullptr);
  }
}

// Every path this CPU can run gives the portable path's numbers: bitwise where the order of operations
// cannot matter, else within a float's rounding.
TEST_CASE("kernel table: every path the CPU has agrees with the portable variants") {
  const CpuFeatures cpu = detect_cpu_features();
  const KernelTable portable = kernel_table(CpuPath::Portable, capped(cpu, CpuPath::Portable));
  const std::size_t n = 1000 + 7;  // whole vectors and a tail
  const auto x = bktest::random_floats(n, 41, -30.0f, 20.0f);
  const auto gamma = bktest::random_floats(n, 42), beta = bktest::random_floats(n, 43);
  for (CpuPath path : {CpuPath::Avx2, CpuPath::Avx512}) {
    if (path > best_path(cpu)) continue;
    CAPTURE(cpu_path_name(path));
    const KernelTable t = kernel_table(path, capped(cpu, path));
    CHECK(t.max_abs(x.data(), n) == portable.max_abs(x.data(), n));

    std::vector<std::int8_t> q(n), q_portable(n);
    t.quantize_s8(x.data(), n, 127.0f / 30.0f, q.data());
    portable.quantize_s8(x.data(), n, 127.0f / 30.0f, q_portable.data());
    CHECK(q == q_portable);

    std::vector<std::uint16_t> b(n), b_portable(n);
    t.round_to_bf16(x.data(), n, b.data());
    portable.round_to_bf16(x.data(), n, b_portable.data());
    CHECK(b == b_portable);

    auto s = x, s_portable = x;
    t.softmax_row(s.data(), static_cast<std::int64_t>(n));
    portable.softmax_row(s_portable.data(), static_cast<std::int64_t>(n));
    auto l = x, l_portable = x;
    t.layer_norm_row(x.data(), l.data(), static_cast<std::int64_t>(n), gamma.data(), beta.data(), 1e-12f);
    portable.layer_norm_row(l_portable.data(), l_portable.data(), static_cast<std::int64_t>(n), gamma.data(),
                            beta.data(), 1e-12f);
    double softmax_worst = 0, layer_norm_worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      softmax_worst = std::max(softmax_worst, std::abs(double(s[i]) - s_portable[i]) / std::max(s_portable[i], 1e-30f));
      layer_norm_worst = std::max(layer_norm_worst, double(std::abs(l[i] - l_portable[i])));
    }
    CHECK(softmax_worst < 1e-5);
    CHECK(layer_norm_worst < 1e-5);
  }
}
