#pragma once
// Two sets of weights hold the same tensors: the same names, and for each the same type, shape and
// bytes (the loaders', converters' and packers' round trips are all exact).
#include "core/checkpoint/weights.h"

#include <doctest/doctest.h>

#include <cstring>

namespace bktest {

inline void check_same_weights(const bertkit::core::Weights& want, const bertkit::core::Weights& got) {
  REQUIRE(got.names() == want.names());
  for (const auto& name : want.names()) {
    INFO(name);
    const bertkit::core::TensorView* a = want.find(name);
    const bertkit::core::TensorView* b = got.find(name);
    REQUIRE(b);
    CHECK(b->dtype == a->dtype);
    CHECK(b->shape == a->shape);
    REQUIRE(b->nbytes == a->nbytes);
    CHECK(std::memcmp(b->data, a->data, a->nbytes) == 0);
  }
}

}  // namespace bktest
