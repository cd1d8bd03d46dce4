#pragma once
// A block recipe: one kind of transformer layer, as code over the shared ops (core/ops). It declares
// each layer's tensors (core/model/tensor_decls.h) and builds layers that run over packed sequences;
// the encoder (core/model/encoder.h) keeps the rest: embeddings, packing, threads, scratch and the
// layer loop, and hands every layer a LayerContext with what differs per layer or per batch. A family
// spec names its recipe (FamilySpec::block); a family whose layer is BERT's is data on BertBlock
// (core/model/blocks/bert_block.h), a new kind of layer is a new recipe beside it.
#include "core/checkpoint/weights.h"
#include "core/model/blocks/reduced_copy_buffer.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/ops/attention.h"
#include "core/ops/buffer.h"

#include <cstdint>
#include <memory>
#include <span>

namespace bertkit::core {

// Intermediate activations, shared by all layers and grown to the largest batch seen; a recipe uses
// the buffers it needs.
struct LayerScratch {
  FloatBuffer qkv;           // [tokens, 3·hidden]
  FloatBuffer context;       // [tokens, hidden]
  FloatBuffer intermediate;  // [tokens, intermediate_size]
  FloatBuffer positional;    // DeBERTa's c2p and p2c products: [terms, heads, tokens, relative rows used]
  // Rows also in the type of the layer that reads them next, written by the norm that wrote them:
  ReducedCopyBuffer hidden_copy;  // hidden's rows, or nothing (the encoder empties it before the first layer)
  ReducedCopyBuffer normed_copy;  // a pre-norm's output
  // bf16 layers' inputs, rounded by the op that writes them (Linear::reads_bf16()).
  Bf16Buffer intermediate_bf16;  // [tokens, intermediate_size]
  // int8 layers' inputs, quantised by the op that writes them (Linear::reads_s8()).
  AlignedBuffer<std::int8_t> intermediate_s8;  // [tokens, intermediate_size]
  FloatBuffer intermediate_scales;             // [tokens]
  SelfAttention attention;
};

// A scratch buffer of at least n values: scratch grows to the largest batch seen, later batches
// allocate nothing.
template <typename T>
T* grown(AlignedBuffer<T>& buffer, std::int64_t n) {
  return buffer.reserve(static_cast<std::size_t>(n));
}

// What the encoder gives layer `index` besides its input. A mechanism that differs per family or per
// layer travels here, not through the signatures of the layer, the attention and the kernel.
struct LayerContext {
  int index = 0;
  bool last = false;  // the encoder's last layer: nothing reads its output but in f32
  // Added to every head's attention scores (MPNet's relative position bias, tabulated once per batch
  // for the longest sequence); nullptr: none.
  const RelativeScoreBias* score_bias = nullptr;
  // Per sequence, the keys attended to (ScoreModifier::attended_keys); empty: all.
  std::span<const std::int64_t> attended_keys;
};

class Block {
 public:
  virtual ~Block() = default;
  // hidden: [tokens, hidden_size], updated in place; sequence i is rows offsets[i] .. offsets[i+1].
  // scratch.hidden_copy holds hidden's rows in a reduced type or nothing (clear it before calling with
  // rows it did not see written), and is left so.
  virtual void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
                       const LayerContext& context) const = 0;
  // Work the layer does once for the weights, as far as inputs of up to `longest` tokens need it (DeBERTa
  // projects relative embeddings as lengths first reach them): the encoder calls it before it times a
  // pass, so that the thread count is chosen on passes alone. forward() does it too if need be.
  virtual void prepare(std::int64_t /*longest*/) const {}
  // Adds the layer's packed matrices to `weights` (copies) for a converted file to store in place of
  // their plain parts: those that unpack to exactly the parts in `source`, the weights it was built from.
  virtual void add_packed_to(const Weights& source, Weights& weights) const = 0;
};

struct BlockRecipe {
  // Layer `layer`'s tensors, in the order it reads them.
  void (*declare)(const ModelConfig& config, int layer, TensorDecls& decls);
  std::unique_ptr<Block> (*build)(const ModelConfig& config, const Weights& weights, int layer);
};

// The recipe of a Block class with a static declare(config, layer, decls) and a (config, weights,
// layer) constructor.
template <class B>
constexpr BlockRecipe recipe_of() {
  return {[](const ModelConfig& config, int layer, TensorDecls& decls) { B::declare(config, layer, decls); },
          [](const ModelConfig& config, const Weights& weights, int layer) -> std::unique_ptr<Block> {
            return std::make_unique<B>(config, weights, layer);
          }};
}

}  // namespace bertkit::core
