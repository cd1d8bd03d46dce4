// A new kind of layer is a block recipe and a spec naming it: nothing in the encoder, the loader or the
// name map changes. Two test-only recipes run through the encoder against plain references:
// - each layer adds its own learned row, scaled by the layer index its LayerContext gives; the tensors
//   it declares, and no BERT layer's, are what the model's tensor list and random weights see;
// - a modern layer kind built from the shared ops (pre-norm bias-free LayerNorm, rotary positions whose
//   theta alternates per layer, GeGLU, a sliding window on every other layer), loaded from a random
//   safetensors checkpoint the test writes under its own checkpoint names, against a double-precision
//   reference of the same recipe written out in loops. ctest runs this file again with
//   BERTKIT_CPU=portable and avx2 (tests/CMakeLists.txt), so every CPU path's kernels compute it.
#include "support.h"
#include "unit/reference_math.h"

#include "core/bench/model_shapes.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/checkpoint/safetensors_writer.h"
#include "core/model/blocks/block.h"
#include "core/model/encoder.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"
#include "core/model/load_weights.h"
#include "core/model/model_tensors.h"
#include "core/ops/cpu_features.h"
#include "core/ops/gated_ffn.h"
#include "core/ops/layer_norm.h"
#include "core/ops/rotary.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

using namespace bertkit::core;

namespace {

std::string shift_name(int layer) { return fmt::format("encoder.layer.{}.shift.weight", layer); }

// hidden[t] += (index + 1) · shift, the context's index as the encoder hands it over.
class ShiftBlock : public Block {
 public:
  ShiftBlock(const ModelConfig& config, const Weights& weights, int layer) {
    auto values = weights.require(shift_name(layer), {config.hidden_size}).f32();
    shift_.assign(values.begin(), values.end());
  }
  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch&,
               const LayerContext& context) const override {
    const auto width = static_cast<std::int64_t>(shift_.size());
    seen_.push_back(context.index);
    for (std::int64_t t = 0; t < offsets.back(); ++t)
      for (std::int64_t j = 0; j < width; ++j)
        hidden[t * width + j] += static_cast<float>(context.index + 1) * shift_[static_cast<std::size_t>(j)];
  }
  void add_packed_to(const Weights&, Weights&) const override {}

  static std::vector<int> seen_;

 private:
  std::vector<float> shift_;
};
std::vector<int> ShiftBlock::seen_;

const BlockRecipe shift_recipe{
    [](const ModelConfig& config, int layer, TensorDecls& decls) {
      decls.tensor(shift_name(layer), {config.hidden_size});
    },
    [](const ModelConfig& config, const Weights& weights, int layer) -> std::unique_ptr<Block> {
      return std::make_unique<ShiftBlock>(config, weights, layer);
    }};

}  // namespace

TEST_CASE("block recipe: a test-only layer kind runs through the encoder with its declared tensors") {
  const nlohmann::json json = {{"model_type", "bert"},     {"vocab_size", 30},       {"hidden_size", 8},
                               {"num_hidden_layers", 3},   {"num_attention_heads", 2}, {"intermediate_size", 16},
                               {"max_position_embeddings", 12}};
  ModelConfig config = parse_model_config(json.dump(), "test");
  FamilySpec family = *config.family;
  family.block = &shift_recipe;
  config.family = &family;

  const std::vector<TensorDecl> tensors = model_tensors(config);
  for (int l = 0; l < 3; ++l) {
    auto it = std::find_if(tensors.begin(), tensors.end(), [&](const TensorDecl& t) { return t.name == shift_name(l); });
    REQUIRE(it != tensors.end());
    CHECK(it->shape == Shape{8});
  }
  CHECK(std::none_of(tensors.begin(), tensors.end(),
                     [](const TensorDecl& t) { return t.name.find("attention") != std::string::npos; }));

  auto weights = std::make_shared<const Weights>(random_weights(config, 3));
  Encoder encoder(config, weights);
  const std::vector<std::int32_t> a = {1, 4, 9, 2}, b = {1, 7, 2};
  const std::vector<TokenSequence> batch = {{a, {}}, {b, {}}};
  EncoderOutput out;
  ShiftBlock::seen_.clear();
  encoder.forward(batch, out, /*all_layers=*/true);
  CHECK(ShiftBlock::seen_ == std::vector<int>{0, 1, 2});
  REQUIRE(out.layers.size() == 4);
  for (int l = 0; l < 3; ++l) {
    auto shift = weights->require(shift_name(l), {8}).f32();
    for (std::int64_t t = 0; t < out.tokens(); ++t)
      for (std::int64_t j = 0; j < 8; ++j) {
        const float want = out.layers[l][t * 8 + j] + static_cast<float>(l + 1) * shift[j];
        CHECK(out.layers[l + 1][t * 8 + j] == want);
      }
  }
}

namespace {

// ---- A modern layer kind over the shared ops -----------------------------------------------------

// Layer N's tensors, canonical names encoder.layer.N.*; no biases, as ModernBERT's layers have none.
struct ModernTensors {
  std::string attention_norm, qkv, attention_out, mlp_norm, mlp_in, mlp_out;
};

ModernTensors declare_modern(const ModelConfig& c, int layer, TensorDecls& decls) {
  const std::int64_t h = c.hidden_size, inter = c.intermediate_size;
  const std::string p = fmt::format("encoder.layer.{}.", layer);
  const ModernTensors t{p + "attn_norm.weight", p + "attention.Wqkv.weight", p + "attention.Wo.weight",
                        p + "mlp_norm.weight",  p + "mlp.Wi.weight",         p + "mlp.Wo.weight"};
  decls.tensor(t.attention_norm, {h});
  decls.tensor(t.qkv, {3 * h, h});
  decls.tensor(t.attention_out, {h, h});
  decls.tensor(t.mlp_norm, {h});
  decls.tensor(t.mlp_in, {2 * inter, h});
  decls.tensor(t.mlp_out, {h, inter});
  return t;
}

// Even layers attend globally with rotary theta 160000, odd ones to keys within ±kWindow with theta
// 10000: ModernBERT alternates the same way (its window is local_attention / 2 = 64 tokens).
constexpr std::int64_t kWindow = 3;
bool global_layer(int layer) { return layer % 2 == 0; }
float layer_theta(int layer) { return global_layer(layer) ? 160000.0f : 10000.0f; }
std::int64_t layer_window(int layer) { return global_layer(layer) ? -1 : kWindow; }

std::vector<float> values_of(const Weights& weights, const std::string& name, std::int64_t width) {
  auto v = weights.require(name, {width}).f32();
  return {v.begin(), v.end()};
}

// hidden += Wo·attention(rotary(Wqkv·norm(hidden))); hidden += GeGLU(norm(hidden)).
class ModernBlock : public Block {
 public:
  ModernBlock(const ModelConfig& c, const Weights& weights, int layer)
      : hidden_(c.hidden_size),
        heads_(c.num_heads),
        eps_(static_cast<float>(c.layer_norm_eps)),
        window_(layer_window(layer)),
        rotary_({c.hidden_size / c.num_heads, c.hidden_size / c.num_heads, layer_theta(layer), RotaryLayout::Half}) {
    TensorDecls decls;
    const ModernTensors t = declare_modern(c, layer, decls);
    const std::int64_t h = hidden_, inter = c.intermediate_size;
    attention_norm_ = values_of(weights, t.attention_norm, h);
    mlp_norm_ = values_of(weights, t.mlp_norm, h);
    qkv_ = Linear(linear_weight(weights, t.qkv, 3 * h, h), {}, 3 * h, h);
    attention_out_ = Linear(linear_weight(weights, t.attention_out, h, h), {}, h, h, Eltwise::Identity,
                            LinearOutput::Accumulate);
    mlp_.emplace(GatedFeedForwardSpec{h, inter, eltwise_for(c.hidden_act), GatedHalves::ActivateFirst,
                                      LinearOutput::Accumulate},
                 linear_weight(weights, t.mlp_in, 2 * inter, h), std::span<const float>{},
                 linear_weight(weights, t.mlp_out, h, inter), std::span<const float>{});
  }

  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s,
               const LayerContext&) const override {
    const std::int64_t tokens = offsets.back(), h = hidden_;
    float* normed = s.context.reserve(static_cast<std::size_t>(tokens * h));
    float* qkv = s.qkv.reserve(static_cast<std::size_t>(tokens * 3 * h));
    layer_norm(hidden, normed, tokens, h, attention_norm_.data(), nullptr, eps_);
    qkv_.forward(normed, tokens, qkv);
    rotary_.apply(qkv, 3 * h, 2 * heads_, offsets);  // Q's and K's heads
    ScoreModifier modifier;
    modifier.window = window_;
    float* attended = normed;  // the normed rows are read: the buffer takes the attention's output
    s.attention.forward(qkv, offsets, heads_, h / heads_, attended, AttentionProducts::F32, modifier);
    attention_out_.forward(attended, tokens, hidden);
    layer_norm(hidden, normed, tokens, h, mlp_norm_.data(), nullptr, eps_);
    float* gated = s.intermediate.reserve(static_cast<std::size_t>(mlp_->scratch_floats(tokens)));
    mlp_->forward(normed, tokens, hidden, gated);
  }
  void add_packed_to(const Weights&, Weights&) const override {}

 private:
  std::int64_t hidden_;
  int heads_;
  float eps_;
  std::int64_t window_;
  std::vector<float> attention_norm_, mlp_norm_;
  Linear qkv_, attention_out_;
  std::optional<GatedFeedForward> mlp_;
  mutable RotaryEmbedding rotary_;  // tabulates its cosines and sines up to the longest sequence seen
};

const BlockRecipe modern_recipe{
    [](const ModelConfig& c, int layer, TensorDecls& decls) { declare_modern(c, layer, decls); },
    [](const ModelConfig& c, const Weights& weights, int layer) -> std::unique_ptr<Block> {
      return std::make_unique<ModernBlock>(c, weights, layer);
    }};

// The checkpoint spells layer N's modules ModernBERT's way: model.layers.N.attn.Wqkv.weight.
constexpr ModuleName modern_layer_rows[] = {
    {"attn_norm", "attn_norm"}, {"attn.Wqkv", "attention.Wqkv"}, {"attn.Wo", "attention.Wo"},
    {"mlp_norm", "mlp_norm"},   {"mlp.Wi", "mlp.Wi"},            {"mlp.Wo", "mlp.Wo"},
};
constexpr ArchitectureSpec modern_architectures[] = {{.name = "TestModernModel", .head = HeadKind::None}};

// BERT's embeddings and keys, the modern layer: the spec a family of this layer kind would be.
FamilySpec modern_family() {
  FamilySpec f = *find_family("bert");
  f.model_type = "test-modern";
  f.checkpoint_prefix = "model.";
  f.layer_prefix = "layers.";
  f.layer_modules = modern_layer_rows;
  f.other_modules = {};
  f.architectures = modern_architectures;
  f.block = &modern_recipe;
  return f;
}

// A canonical name as the checkpoint spells it.
std::string checkpoint_name(const std::string& canonical) {
  const std::string layer = "encoder.layer.";
  if (!canonical.starts_with(layer)) return "model." + canonical;  // the embeddings: BERT's names
  const std::size_t dot = canonical.find('.', layer.size());
  std::string rest = canonical.substr(dot + 1);
  for (const ModuleName& row : modern_layer_rows)
    if (rest.starts_with(std::string(row.canonical) + ".")) {
      rest = std::string(row.checkpoint) + rest.substr(row.canonical.size());
      break;
    }
  return "model.layers." + canonical.substr(layer.size(), dot - layer.size()) + "." + rest;
}

// Every tensor the model declares, random, under the checkpoint's names: norm gains near 1, the rest
// large enough that attention is far from uniform.
Weights random_checkpoint(const ModelConfig& config) {
  Weights out;
  std::uint32_t seed = 500;
  for (const TensorDecl& t : model_tensors(config)) {
    const auto n = static_cast<std::size_t>(shape_numel(t.shape));
    const bool gain = t.name.ends_with("norm.weight") || t.name.ends_with("LayerNorm.weight");
    const auto values = gain ? bktest::random_floats(n, seed++, 0.8f, 1.2f) : bktest::random_floats(n, seed++, -0.4f, 0.4f);
    std::vector<std::byte> bytes(n * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    out.add_owned(checkpoint_name(t.name), DType::F32, t.shape, std::move(bytes));
  }
  return out;
}

// ---- The plain reference of the same recipe, in double ------------------------------------------

// What the reference leaves out, to show the comparison sees it.
enum class Omit { Nothing, Window, LayerThetas };

using Rows = std::vector<double>;  // [tokens, width] row-major

// out[t, o] = Σ_i W[o, i]·x[t, i], W the tensor `name` [out, in].
Rows times(const Weights& w, const std::string& name, const Rows& x, std::int64_t tokens, std::int64_t out,
           std::int64_t in) {
  const auto m = w.require(name, {out, in}).f32();
  Rows y(static_cast<std::size_t>(tokens * out), 0.0);
  for (std::int64_t t = 0; t < tokens; ++t)
    for (std::int64_t o = 0; o < out; ++o)
      for (std::int64_t i = 0; i < in; ++i) y[t * out + o] += double(m[o * in + i]) * x[t * in + i];
  return y;
}

// Each row: (x − mean) / √(var + eps) · gain (+ bias when given).
Rows normed(const Rows& x, std::int64_t width, std::span<const float> gain, std::span<const float> bias, double eps) {
  const std::vector<float> g(gain.begin(), gain.end());
  const std::vector<float> b = bias.empty() ? std::vector<float>(gain.size(), 0.0f) : std::vector<float>(bias.begin(), bias.end());
  Rows y(x.size());
  for (std::size_t t = 0; t * width < x.size(); ++t) {
    std::vector<double> row(x.begin() + t * width, x.begin() + (t + 1) * width);
    bktest::reference_layer_norm(row, g, b, eps);
    std::copy(row.begin(), row.end(), y.begin() + t * width);
  }
  return y;
}

// Rotates Q's and K's heads of qkv [tokens, 3h] in place: pairs (c, c + d/2) by position · theta^(−2c/d).
void rotate(Rows& qkv, std::int64_t tokens, std::int64_t h, std::int64_t d, double theta) {
  for (std::int64_t t = 0; t < tokens; ++t)
    for (std::int64_t v = 0; v < 2 * h / d; ++v)
      for (std::int64_t c = 0; c < d / 2; ++c) {
        const double angle = double(t) * std::pow(theta, -2.0 * double(c) / double(d));
        double& a = qkv[t * 3 * h + v * d + c];
        double& b = qkv[t * 3 * h + v * d + c + d / 2];
        const double a0 = a, b0 = b;
        a = a0 * std::cos(angle) - b0 * std::sin(angle);
        b = b0 * std::cos(angle) + a0 * std::sin(angle);
      }
}

// softmax(q·k/√d over the keys in the window)·v per head: [tokens, h].
Rows attend(const Rows& qkv, std::int64_t tokens, std::int64_t h, std::int64_t d, std::int64_t window) {
  Rows ctx(static_cast<std::size_t>(tokens * h), 0.0);
  for (std::int64_t head = 0; head < h / d; ++head)
    for (std::int64_t i = 0; i < tokens; ++i) {
      std::vector<double> scores;
      std::vector<std::int64_t> keys;
      for (std::int64_t j = 0; j < tokens; ++j) {
        if (window >= 0 && std::abs(j - i) > window) continue;
        double s = 0;
        for (std::int64_t c = 0; c < d; ++c) s += qkv[i * 3 * h + head * d + c] * qkv[j * 3 * h + h + head * d + c];
        scores.push_back(s / std::sqrt(double(d)));
        keys.push_back(j);
      }
      bktest::reference_softmax(scores);
      for (std::size_t k = 0; k < keys.size(); ++k)
        for (std::int64_t c = 0; c < d; ++c) ctx[i * h + head * d + c] += scores[k] * qkv[keys[k] * 3 * h + 2 * h + head * d + c];
    }
  return ctx;
}

// The hidden states of one sequence: the embeddings' output, then every layer's.
std::vector<Rows> reference_layers(const Weights& w, const ModelConfig& c, const std::vector<std::int32_t>& ids,
                                   Omit omit = Omit::Nothing) {
  const std::int64_t n = static_cast<std::int64_t>(ids.size()), h = c.hidden_size, d = h / c.num_heads,
                     inter = c.intermediate_size;
  const auto words = w.require("embeddings.word_embeddings.weight", {c.vocab_size, h}).f32();
  const auto positions = w.require("embeddings.position_embeddings.weight", {c.max_position_embeddings, h}).f32();
  const auto types = w.require("embeddings.token_type_embeddings.weight", {c.type_vocab_size, h}).f32();
  Rows x(static_cast<std::size_t>(n * h));
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t j = 0; j < h; ++j) x[t * h + j] = double(words[ids[t] * h + j]) + positions[t * h + j] + types[j];
  x = normed(x, h, w.require("embeddings.LayerNorm.weight", {h}).f32(), w.require("embeddings.LayerNorm.bias", {h}).f32(),
             c.layer_norm_eps);
  std::vector<Rows> layers{x};
  for (int l = 0; l < c.num_layers; ++l) {
    TensorDecls decls;
    const ModernTensors t = declare_modern(c, l, decls);
    Rows qkv = times(w, t.qkv, normed(x, h, w.require(t.attention_norm, {h}).f32(), {}, c.layer_norm_eps), n, 3 * h, h);
    rotate(qkv, n, h, d, omit == Omit::LayerThetas ? 10000.0 : double(layer_theta(l)));
    const Rows ctx = attend(qkv, n, h, d, omit == Omit::Window ? -1 : layer_window(l));
    const Rows projected = times(w, t.attention_out, ctx, n, h, h);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] += projected[k];
    const Rows up = times(w, t.mlp_in, normed(x, h, w.require(t.mlp_norm, {h}).f32(), {}, c.layer_norm_eps), n, 2 * inter, h);
    Rows gated(static_cast<std::size_t>(n * inter));
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t k = 0; k < inter; ++k)
        gated[r * inter + k] = bktest::reference_gelu(up[r * 2 * inter + k]) * up[r * 2 * inter + inter + k];
    const Rows down = times(w, t.mlp_out, gated, n, h, inter);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] += down[k];
    layers.push_back(x);
  }
  return layers;
}

// The largest difference between the encoder's hidden states (every layer) and the reference's.
double worst_difference(const EncoderOutput& out, const Weights& w, const ModelConfig& c,
                        const std::vector<std::vector<std::int32_t>>& batch, Omit omit) {
  double worst = 0;
  for (std::size_t s = 0; s < batch.size(); ++s) {
    const auto want = reference_layers(w, c, batch[s], omit);
    for (std::size_t l = 0; l < want.size(); ++l)
      for (std::size_t k = 0; k < want[l].size(); ++k)
        worst = std::max(worst, std::abs(out.layers[l][out.offsets[s] * c.hidden_size + k] - want[l][k]));
  }
  return worst;
}

}  // namespace

TEST_CASE("block recipe: a pre-norm rotary GeGLU windowed layer kind runs through the encoder like its reference") {
  const nlohmann::json json = {{"model_type", "bert"},   {"vocab_size", 40},           {"hidden_size", 16},
                               {"num_hidden_layers", 4}, {"num_attention_heads", 2},   {"intermediate_size", 24},
                               {"max_position_embeddings", 80}, {"layer_norm_eps", 1e-5}, {"hidden_act", "gelu"}};
  ModelConfig config = parse_model_config(json.dump(), "test");
  const FamilySpec family = modern_family();
  config.family = &family;
  config.architecture = "TestModernModel";

  // Written under the checkpoint's names and read back by the loader: the name rows map them onto what
  // the recipe declares, and nothing is missing or left over.
  bktest::TempDir dir;
  write_safetensors(random_checkpoint(config), dir / "model.safetensors");
  LoadedWeights loaded = load_weights(read_safetensors(dir / "model.safetensors"), config, "test checkpoint");
  CHECK(loaded.unexpected.empty());
  auto weights = std::make_shared<const Weights>(std::move(loaded.weights));
  REQUIRE(weights->find("encoder.layer.3.attention.Wqkv.weight"));

  // Lengths past the window, past a 64-query tile, and of one token, packed in one batch.
  std::mt19937 gen(29);
  std::uniform_int_distribution<std::int32_t> id(0, 39);
  std::vector<std::vector<std::int32_t>> ids;
  for (std::size_t length : {70, 1, 9, 5}) {
    ids.emplace_back(length);
    for (auto& v : ids.back()) v = id(gen);
  }
  std::vector<TokenSequence> batch;
  for (const auto& seq : ids) batch.push_back({seq, {}});

  Encoder encoder(config, weights);
  EncoderOutput out;
  encoder.forward(batch, out, /*all_layers=*/true);
  REQUIRE(out.layers.size() == 5);
  INFO("CPU path " << cpu_path_name(cpu_selection().path));
  CHECK(worst_difference(out, *weights, config, ids, Omit::Nothing) < 1e-5);
  // The comparison sees the window and the per-layer theta: leaving either out of the reference shows.
  CHECK(worst_difference(out, *weights, config, ids, Omit::Window) > 1e-2);
  CHECK(worst_difference(out, *weights, config, ids, Omit::LayerThetas) > 1e-2);
}
