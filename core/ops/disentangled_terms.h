#pragma once
// DeBERTa's disentangled attention terms, added to a tile of one head's attention scores:
//   score[i, j] += c2p[i][r(i − j)] + p2c[j][r(i − j)]
// c2p[i] (query i's products with the relative rows) and p2c[j] (key j's) are rows `width` floats apart
// whose column 0 is relative row `first`, and r(δ) the relative row of δ = i − j, which grows with δ by
// steps of 0 or 1 (core/model/blocks/deberta_positions.h). A score row walks c2p[i] along its row but
// p2c a key (a row of p2c) at a time, one float from each. The AVX-512 kernel takes 16 queries × 16 keys
// at once: 16 keys' p2c along 16 queries each (16 floats of a row loaded and permuted into place),
// transposed in registers, so both planes are read along their rows. Every path adds the same two floats
// to the same score: the results do not depend on the path.
#include <cstdint>

namespace bertkit::core {

struct DisentangledPlanes {
  const float* c2p = nullptr;  // a row per query of the sequence, or null: no c2p term
  const float* p2c = nullptr;  // a row per key of the sequence, or null: no p2c term
  std::int64_t width = 0;  // floats from one row of c2p or p2c to the next
  const std::int32_t* row_of = nullptr;  // row_of[δ], the relative row of δ, for |δ| < the sequence's length
  std::int32_t first = 0;               // the relative row of the planes' column 0
};

// scores[r·stride + c] += the terms of query query + r and key key + c, for r < rows and c < keys.
void add_disentangled_terms(const DisentangledPlanes& planes, std::int64_t query, std::int64_t rows, std::int64_t key,
                            std::int64_t keys, float* scores, std::int64_t stride);

}  // namespace bertkit::core
