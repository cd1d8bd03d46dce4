#pragma once
// Naive double-precision references and seeded random data for the numeric unit tests.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace bktest {

inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

// y[r, o] = Σ_i x[r, i] · w[o, i] + b[o], w in PyTorch's [out, in] layout; x float or double.
template <class X>
std::vector<double> reference_linear(const std::vector<X>& x, const std::vector<float>& w, const std::vector<float>& b,
                                     std::int64_t rows, std::int64_t in, std::int64_t out) {
  std::vector<double> y(static_cast<std::size_t>(rows * out));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t o = 0; o < out; ++o) {
      double acc = b.empty() ? 0.0 : b[o];
      for (std::int64_t i = 0; i < in; ++i) acc += double(x[r * in + i]) * double(w[o * in + i]);
      y[r * out + o] = acc;
    }
  return y;
}

inline double reference_gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
inline double reference_gelu_tanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
inline double reference_silu(double x) { return x / (1.0 + std::exp(-x)); }

inline void reference_layer_norm(std::vector<double>& row, const std::vector<float>& gamma,
                                 const std::vector<float>& beta, double eps) {
  double mean = 0, var = 0;
  for (double v : row) mean += v;
  mean /= double(row.size());
  for (double v : row) var += (v - mean) * (v - mean);
  var /= double(row.size());
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = (row[j] - mean) / std::sqrt(var + eps) * gamma[j] + beta[j];
}

inline void reference_softmax(std::vector<double>& row) {
  double max = row[0], sum = 0;
  for (double v : row) max = std::max(max, v);
  for (double& v : row) sum += (v = std::exp(v - max));
  for (double& v : row) v /= sum;
}

}  // namespace bktest
