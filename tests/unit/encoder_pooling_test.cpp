#include "core/model/pooling.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

using namespace bertkit::core;

namespace {

EncoderOutput random_output(std::int64_t hidden, const std::vector<std::int64_t>& lengths) {
  EncoderOutput out;
  out.hidden_size = hidden;
  out.offsets = {0};
  for (auto l : lengths) out.offsets.push_back(out.offsets.back() + l);
  out.layers = {bktest::random_floats(static_cast<std::size_t>(out.offsets.back() * hidden), 61, -3.0f, 3.0f)};
  return out;
}

// sentence-transformers' pooling of one sequence, every mode it can concatenate, in its order.
std::vector<double> reference_pool(const EncoderOutput& out, std::size_t s, const Pooling& p) {
  const std::int64_t h = out.hidden_size, n = out.length(s);
  auto at = [&](std::int64_t t, std::int64_t j) { return double(out.row(s, t)[j]); };
  std::vector<double> v;
  if (p.cls)
    for (std::int64_t j = 0; j < h; ++j) v.push_back(at(0, j));
  if (p.max)
    for (std::int64_t j = 0; j < h; ++j) {
      double m = -1e9;
      for (std::int64_t t = 0; t < n; ++t) m = std::max(m, at(t, j));
      v.push_back(m);
    }
  for (int sqrt_len = 0; sqrt_len < 2; ++sqrt_len) {
    if (!(sqrt_len ? p.mean_sqrt_len : p.mean)) continue;
    for (std::int64_t j = 0; j < h; ++j) {
      double sum = 0;
      for (std::int64_t t = 0; t < n; ++t) sum += at(t, j);
      v.push_back(sum / (sqrt_len ? std::sqrt(double(n)) : double(n)));
    }
  }
  if (p.weighted_mean)
    for (std::int64_t j = 0; j < h; ++j) {
      double sum = 0, weights = 0;
      for (std::int64_t t = 0; t < n; ++t) {
        sum += double(t + 1) * at(t, j);
        weights += double(t + 1);
      }
      v.push_back(sum / weights);
    }
  if (p.last_token)
    for (std::int64_t j = 0; j < h; ++j) v.push_back(at(n - 1, j));
  return v;
}

void add_tensor(Weights& w, const std::string& name, Shape shape, const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  w.add_owned(name, DType::F32, std::move(shape), std::move(bytes));
}

}  // namespace

TEST_CASE("sentence pooling: every mode, concatenated in sentence-transformers' order") {
  auto out = random_output(6, {1, 4, 9});
  Weights none;
  for (int mask = 1; mask < 64; ++mask) {
    SentenceTransformerConfig config;
    Pooling& p = config.pooling;
    p.cls = mask & 1, p.max = mask & 2, p.mean = mask & 4, p.mean_sqrt_len = mask & 8, p.weighted_mean = mask & 16,
    p.last_token = mask & 32;
    SentencePooler pooler(config, out.hidden_size, none);
    std::vector<float> got;
    pooler.forward(out, got);
    const auto dim = static_cast<std::size_t>(pooler.dimension());
    REQUIRE(got.size() == 3 * dim);
    for (std::size_t s = 0; s < 3; ++s) {
      auto expected = reference_pool(out, s, p);
      REQUIRE(expected.size() == dim);
      for (std::size_t j = 0; j < dim; ++j) CHECK(std::abs(got[s * dim + j] - expected[j]) < 1e-5);
    }
  }
}

TEST_CASE("sentence pooling: Dense modules (tanh, identity) then L2 normalisation") {
  auto out = random_output(8, {3, 5});
  SentenceTransformerConfig config;
  config.pooling.mean = true;
  config.dense = {{8, 5, true, DenseActivation::Tanh}, {5, 4, false, DenseActivation::Identity}};
  config.normalize = true;
  Weights weights;
  auto w0 = bktest::random_floats(40, 71), b0 = bktest::random_floats(5, 72), w1 = bktest::random_floats(20, 73);
  add_tensor(weights, "dense.0.weight", {5, 8}, w0);
  add_tensor(weights, "dense.0.bias", {5}, b0);
  add_tensor(weights, "dense.1.weight", {4, 5}, w1);
  SentencePooler pooler(config, 8, weights);
  CHECK(pooler.dimension() == 4);
  std::vector<float> got;
  pooler.forward(out, got);
  REQUIRE(got.size() == 8);
  for (std::size_t s = 0; s < 2; ++s) {
    auto mean = reference_pool(out, s, config.pooling);
    std::vector<float> x(mean.begin(), mean.end());
    auto y = bktest::reference_linear(x, w0, b0, 1, 8, 5);
    std::vector<float> t;
    for (double v : y) t.push_back(static_cast<float>(std::tanh(v)));
    auto z = bktest::reference_linear(t, w1, {}, 1, 5, 4);
    double norm = 0;
    for (double v : z) norm += v * v;
    for (std::size_t j = 0; j < 4; ++j) CHECK(got[s * 4 + j] == doctest::Approx(z[j] / std::sqrt(norm)).epsilon(1e-5));
  }
}

TEST_CASE("sentence pooling: a Dense module of the wrong width, or no mode, is refused") {
  Weights weights;
  SentenceTransformerConfig config;
  CHECK_THROWS(SentencePooler(config, 8, weights));  // no mode
  config.pooling.cls = true;
  config.dense = {{16, 4, true, DenseActivation::Tanh}};
  CHECK_THROWS(SentencePooler(config, 8, weights));
}
