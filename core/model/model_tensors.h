#pragma once
// The tensors a model reads: the union of what its parts declare (the embeddings, the relative position
// bias, each layer's block recipe, the pooler and the heads of config.json's architecture), in the
// order they read them. Loading checks a checkpoint against it; nothing else lists tensors.
#include "core/model/config.h"
#include "core/model/tensor_decls.h"

#include <functional>
#include <string_view>
#include <vector>

namespace bertkit::core {

std::vector<TensorDecl> model_tensors(const ModelConfig& config);

// A head whose tensors are all absent is not there: when `present` (a canonical name) finds none of
// the tensors config.json's head adds to the encoder, `config` becomes the encoder alone (head None)
// and absent_head names the head and its tensors as the checkpoint would spell them. A head in part
// present stays, to be refused naming what it lacks.
void drop_absent_head(ModelConfig& config, const std::function<bool(std::string_view)>& present);

}  // namespace bertkit::core
