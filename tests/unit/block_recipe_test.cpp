// A new kind of layer is a block recipe and a spec naming it: nothing in the encoder, the loader or the
// name map changes. A test-only recipe (each layer adds its own learned row, scaled by the layer index
// its LayerContext gives) runs through the encoder and is checked against a plain reference; the
// tensors it declares, and no BERT layer's, are what the model's tensor list and random weights see.
#include "core/bench/model_shapes.h"
#include "core/model/blocks/block.h"
#include "core/model/encoder.h"
#include "core/model/family_spec.h"
#include "core/model/model_tensors.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
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
