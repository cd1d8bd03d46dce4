// DeBERTa's disentangled terms added to a tile of scores (core/ops/disentangled_terms.h): every CPU path
// adds exactly the floats a plain loop adds (c2p + p2c, then to the score), for relative rows that step
// by one, that repeat (log buckets), that are clipped, and that step by more than one (many buckets over
// few positions: the AVX-512 kernel's gather), over tiles whose sizes are and are not multiples of its
// 16 × 16 blocks, and with either term alone. And the products the attention kernels compute for them.
#include "core/model/blocks/deberta_positions.h"
#include "core/ops/disentangled_terms.h"
#include "core/tensor.h"
#include "unit/kernel_paths.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace bertkit::core;

TEST_CASE("disentangled terms: every CPU path adds the plain loop's floats, whatever the relative rows") {
  struct Positions {
    const char* name;
    int buckets, max_relative;
  };
  const Positions positions[] = {
      {"deberta-v3 (256 buckets over 512 positions)", 256, 512},
      {"8 buckets over 32 positions: repeated and clipped rows", 8, 32},
      {"no buckets, clipped at 6", 0, 6},
      {"64 buckets over 64 positions: rows stepping by 2", 64, 64},
  };
  const std::int64_t length = 300;
  for (const Positions& pos : positions) {
    DisentangledAttention attention;
    attention.relative = attention.c2p = attention.p2c = true;
    attention.buckets = pos.buckets;
    attention.max_relative = pos.max_relative;
    RelativeRows rows;
    rows.tabulate(attention, length);
    const RelativeRows::Range range = rows.range(length);
    const auto c2p = bktest::random_floats(static_cast<std::size_t>(length * range.count), 31);
    const auto p2c = bktest::random_floats(static_cast<std::size_t>(length * range.count), 32);
    for (int terms : {3, 1, 2}) {  // both, c2p alone, p2c alone
      DisentangledPlanes planes;
      planes.c2p = terms & 1 ? c2p.data() : nullptr;
      planes.p2c = terms & 2 ? p2c.data() : nullptr;
      planes.width = range.count;
      planes.row_of = rows.at_zero();
      planes.first = static_cast<std::int32_t>(range.first);
      // Tiles: whole blocks, ragged edges, a thin one, and one reaching the sequence's ends.
      const std::int64_t tiles[][4] = {{0, 64, 0, 300}, {37, 50, 5, 261}, {283, 17, 0, 300}, {100, 3, 290, 10}};
      for (const auto& tile : tiles) {
        const std::int64_t query = tile[0], tile_rows = tile[1], key = tile[2], keys = tile[3];
        const std::int64_t stride = keys + 3;
        const auto start = bktest::random_floats(static_cast<std::size_t>(tile_rows * stride), 33);
        std::vector<float> want = start;
        for (std::int64_t r = 0; r < tile_rows; ++r)
          for (std::int64_t c = 0; c < keys; ++c) {
            const std::int64_t i = query + r, j = key + c, at = rows.at_zero()[i - j] - range.first;
            float term = 0;
            if (planes.c2p && planes.p2c) term = c2p[i * range.count + at] + p2c[j * range.count + at];
            else if (planes.c2p) term = c2p[i * range.count + at];
            else term = p2c[j * range.count + at];
            want[r * stride + c] += term;
          }
        for (const KernelTable& table : bktest::tables_of_every_path()) {
          INFO(pos.name << ", terms " << terms << ", path " << cpu_path_name(table.path) << ", tile " << query << "+"
                        << tile_rows << " × " << key << "+" << keys);
          std::vector<float> got = start;
          table.disentangled_terms(planes, query, tile_rows, key, keys, got.data(), stride);
          CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
        }
      }
    }
  }
}

TEST_CASE("attention kernels' products: scale · q·k of their rounded rows, any row strides, padding zero") {
  const std::int64_t queries = 70, keys = 45, d = 64, q_stride = 3 * d + 5, k_stride = d + 7, width = 72;
  const float scale = 0.125f;
  const auto q = bktest::random_floats(static_cast<std::size_t>(queries * q_stride), 41, -2.0f, 2.0f);
  const auto k = bktest::random_floats(static_cast<std::size_t>(keys * k_stride), 42, -2.0f, 2.0f);
  int kernels_with_products = 0;
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (AttentionProducts type : {AttentionProducts::F32, AttentionProducts::BF16}) {
      const AttentionKernel* kernel = table.attention(type, d);
      if (!kernel || !kernel->products) continue;
      ++kernels_with_products;
      const bool bf16 = kernel == table.attention_bf16;
      INFO("path " << cpu_path_name(table.path) << (bf16 ? ", bf16" : ", f32"));
      auto rounded = [bf16](float x) { return bf16 ? bf16_to_f32(f32_to_bf16(x)) : x; };
      std::vector<float> scratch(static_cast<std::size_t>(kernel->products_scratch(keys, d)));
      std::vector<float> out(static_cast<std::size_t>(queries * width), -7.0f);
      kernel->products(q.data(), q_stride, k.data(), k_stride, queries, keys, d, scale, out.data(), width, scratch.data());
      double worst = 0;
      for (std::int64_t r = 0; r < queries; ++r) {
        for (std::int64_t j = 0; j < keys; ++j) {
          double want = 0;
          for (std::int64_t c = 0; c < d; ++c)
            want += double(rounded(q[r * q_stride + c])) * double(rounded(k[j * k_stride + c]));
          worst = std::max(worst, std::abs(out[r * width + j] - scale * want));
        }
        for (std::int64_t j = keys; j < (keys + 31) / 32 * 32; ++j) CHECK(out[r * width + j] == 0.0f);
        CHECK(out[r * width + width - 1] == -7.0f);  // nothing past the padding
      }
      CHECK(worst < 1e-5);  // f32 sums of 64 products of ±4
    }
  MESSAGE(kernels_with_products << " attention kernels with their own products here");
}

TEST_CASE("disentangled terms: a tile of content rows' band holds every relative row its products are read at") {
  struct Positions {
    int buckets, max_relative;
  };
  for (const Positions pos : {Positions{256, 512}, Positions{8, 32}, Positions{0, 6}, Positions{64, 64}})
    for (std::int64_t length : {1, 7, 33, 128, 300}) {
      CAPTURE(pos.buckets);
      CAPTURE(length);
      DisentangledAttention attention;
      attention.relative = attention.c2p = attention.p2c = true;
      attention.buckets = pos.buckets;
      attention.max_relative = pos.max_relative;
      RelativeRows rows;
      rows.tabulate(attention, 300);  // a longer batch's table serves every shorter sequence
      const RelativeRows::Range range = rows.range(length);
      for (bool queries : {true, false}) {
        CAPTURE(queries);
        // The whole sequence as one tile is its range.
        const RelativeRows::Range whole = rows.band(length, 0, length, queries);
        CHECK((whole.first == range.first && whole.count == range.count));
        for (std::int64_t tile : {1, 32}) {
          for (std::int64_t at = 0; at < length; at += tile) {
            const std::int64_t n = std::min(tile, length - at);
            const RelativeRows::Range band = rows.band(length, at, n, queries);
            CHECK(band.first >= range.first);
            CHECK(band.first + band.count <= range.first + range.count);
            std::int64_t lowest = band.first + band.count, highest = band.first - 1;
            for (std::int64_t c = at; c < at + n; ++c)
              for (std::int64_t other = 0; other < length; ++other) {
                const std::int64_t row = rows.at_zero()[queries ? c - other : other - c];
                lowest = std::min(lowest, row), highest = std::max(highest, row);
              }
            // Every row read is in the band, and the band's ends are read: no wider than it must be.
            CHECK(lowest == band.first);
            CHECK(highest == band.first + band.count - 1);
          }
        }
      }
    }
}
