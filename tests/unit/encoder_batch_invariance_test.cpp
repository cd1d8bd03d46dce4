// A sequence's hidden states must not depend on the batch it runs in: alone, among others, in any
// order. Checked on a random model large enough for multi-threaded matmuls and the AVX-512 attention,
// in f32 and in int8 (activations quantised per token, so other sequences cannot change them); for
// BERT and for MPNet, whose relative position bias is tabulated for each batch's longest sequence.
#include "core/bench/model_shapes.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/model/encoder.h"

#include <doctest/doctest.h>

#include <omp.h>

#include <cmath>
#include <random>

using namespace bertkit::core;

TEST_CASE("encoder: a sequence's output does not depend on batch size, order or neighbours" * doctest::test_suite("threads")) {
  for (const char* model_type : {"bert", "mpnet"}) {
    CAPTURE(model_type);
    ModelShape shape{"test", 2, 128, 2, 512, model_type};  // head size 64
    auto config = config_of(shape);
    const Weights f32 = random_weights(config, 5);

    std::mt19937 gen(3);
    std::uniform_int_distribution<std::int32_t> token(1000, 30000);
    std::vector<std::vector<std::int32_t>> ids;
    for (int length : {200, 1, 37, 128, 64, 5, 300, 17}) {
      ids.emplace_back(static_cast<std::size_t>(length));
      for (auto& id : ids.back()) id = token(gen);
    }
    std::vector<TokenSequence> all;
    for (const auto& seq : ids) all.push_back({seq, {}});

    for (StoreType type : {StoreType::F32, StoreType::Int8}) {
      CAPTURE(store_type_name(type));
      auto weights = std::make_shared<const Weights>(type == StoreType::F32 ? f32 : with_store_type(f32, type));
      Encoder encoder(config, weights);
      EncoderOutput together, reversed, alone;
      encoder.forward(all, together);
      std::vector<TokenSequence> backwards(all.rbegin(), all.rend());
      encoder.forward(backwards, reversed);
      for (std::size_t i = 0; i < all.size(); ++i) {
        INFO("sequence " << i << " of length " << ids[i].size());
        encoder.forward(std::span(all).subspan(i, 1), alone);
        const std::size_t r = all.size() - 1 - i;
        double worst = 0;
        for (std::int64_t t = 0; t < alone.length(0); ++t)
          for (std::int64_t j = 0; j < alone.hidden_size; ++j) {
            worst = std::max(worst, double(std::abs(alone.row(0, t)[j] - together.row(i, t)[j])));
            worst = std::max(worst, double(std::abs(alone.row(0, t)[j] - reversed.row(r, t)[j])));
          }
        CHECK(worst <= 1e-6);
        CHECK(std::isfinite(alone.row(0, 0)[0]));
      }
    }
  }
}
