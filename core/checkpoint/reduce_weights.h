#pragma once
// A model's weights in another store type, in memory: what `convert --dtype` writes, for `--dtype`
// at run time on a file of another type.
#include "core/checkpoint/converted_file.h"
#include "core/checkpoint/weights.h"

#include <string>

namespace bertkit::core {

// Linear weights [out, in] take the reduced type; embedding tables, LayerNorm parameters and biases
// stay f32.
bool reducible(const std::string& name, const TensorView& view);

// The same tensors with every reducible one in `type` (quantised or rounded by the functions convert
// uses, so the values equal a file converted to `type`; tensors already in `type` are shared), the
// others f32. Tied weights stay tied, taking the type of the first name, as convert stores them.
Weights with_store_type(const Weights& weights, StoreType type);

}  // namespace bertkit::core
