#pragma once
// What a part of the model reads, declared once, by the part that reads it (llama.cpp's create_tensor
// in spirit): each of the embeddings, the block recipes and the heads declares its tensors' canonical
// names, shapes and optionality into a TensorDecls, and reads them back through what the declaration
// returned. Loading checks a checkpoint against the union of what the model's parts declare
// (core/model/model_tensors.h), so no second list of the same tensors exists anywhere.
#include "core/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::core {

struct TensorDecl {
  std::string name;  // canonical (core/model/name_map.h)
  Shape shape;
  bool optional = false;  // the model runs without it (a bare BertModel without its pooler)
};

// A Linear module: weight [out, in] and, unless has_bias is false (ModernBERT's), bias [out].
struct LinearDecl {
  std::string module;
  std::int64_t out = 0, in = 0;
  bool has_bias = true;
  std::string weight() const { return module + ".weight"; }
  std::string bias() const { return module + ".bias"; }
};

// A LayerNorm module: weight and, unless has_bias is false, bias, both [width].
struct NormDecl {
  std::string module;
  std::int64_t width = 0;
  bool has_bias = true;
};

class TensorDecls {
 public:
  TensorDecl tensor(std::string name, Shape shape, bool optional = false);
  LinearDecl linear(std::string module, std::int64_t out, std::int64_t in, bool optional = false,
                    bool has_bias = true);
  NormDecl layer_norm(std::string module, std::int64_t width, bool has_bias = true);

  // In declaration order.
  const std::vector<TensorDecl>& list() const { return list_; }
  std::vector<TensorDecl> take() { return std::move(list_); }

 private:
  std::vector<TensorDecl> list_;
};

}  // namespace bertkit::core
