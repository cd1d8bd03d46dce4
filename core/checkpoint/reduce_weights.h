#pragma once
// A model's weights in another store type, in memory: what `convert --dtype` writes, for `--dtype`
// at run time on a file of another type.
#include "core/checkpoint/store_type.h"
#include "core/checkpoint/weights.h"

#include <string>

namespace bertkit::core {

// Whether a tensor is stored in `target` (F16, BF16 or I8) in a file of that type: Linear weights
// [out, in] in every reduced type; the word embedding table in bf16 too (half of a MiniLM's weights: a
// bf16 file is then half the f32 one; the table is only read, a row per token, widened exactly); the
// other embedding tables, LayerNorm parameters and biases stay f32.
bool reducible(const std::string& name, const Shape& shape, DType target);

// The same tensors with every reducible one in `type` (quantised or rounded; tensors already in `type`
// are shared), the others f32; int8 ones with their "<name>.scale". What a converted file of `type`
// holds: write_converted_file serialises these. Tied weights stay tied (one view under both names),
// taking the type of the first name. With F32: every tensor widened or dequantised, for code that only
// runs f32 on a reduced file.
Weights with_store_type(const Weights& weights, StoreType type);

}  // namespace bertkit::core
