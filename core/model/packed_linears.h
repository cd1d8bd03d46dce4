#pragma once
// Linear layers and the packed form a converted file keeps of them. A layer's matrix is stored packed, in
// the layout this machine's oneDNN uses (core/dnnl/layout_names.h), under a name that stands for the plain
// tensors it stacks by rows (its own weight's name, or a fused name such as BERT's Q|K|V); a load on a
// machine of the same layout uses it in place (nothing read, copied or reordered), any other packs the
// plain tensors, which the file recovers by unpacking.
#include "core/checkpoint/weights.h"
#include "core/model/tensor_decls.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bertkit::core {

// The layer from the packed form stored under `packed_name` when the file holds it in this machine's
// layout, else from `plain()`, packed now in its own type.
Linear packed_or_plain(const Weights& weights, const std::string& packed_name, std::span<const float> bias,
                       std::int64_t out, std::int64_t in, Eltwise activation, LinearOutput output,
                       const std::function<LinearWeight()>& plain);
// The layer `decl` declares, stored packed under its own weight's name.
Linear packed_or_plain(const Weights& weights, const LinearDecl& decl, Eltwise activation = Eltwise::Identity,
                       LinearOutput output = LinearOutput::Overwrite);

// The layers of `decl`'s matrix split into blocks of consecutive rows (one per activation, in order, the
// same number of rows each), when the packed form stored under its weight's name is in this machine's
// layout (packed_row_blocks below): each block's packed bytes used in place; nullopt otherwise.
std::optional<std::vector<Linear>> packed_row_blocks(const Weights& weights, const LinearDecl& decl,
                                                     std::span<const Eltwise> activations);

// Layers to store packed under `name`, standing for the plain tensors `parts` stacked by rows: one
// layer, or layers that each compute consecutive rows of one matrix (a gated layer's halves). Several
// layers are stored as their packed bytes one after the other, which is only done where that is also
// the packing of the whole matrix in the same layout (a layout blocked outermost by rows), so that the
// file's packed entry is the ordinary one; packed_row_blocks splits it again.
struct PackedLayer {
  std::string name;
  std::vector<std::string> parts;
  std::vector<const Linear*> layers;
};

// Adds to `weights` (copies) each entry's packed matrix that unpacks to exactly its plain parts in
// `source`, the weights the layers were built from; the others are left for the load to pack.
void add_packed_layers(const Weights& source, Weights& weights, std::span<const PackedLayer> entries);

}  // namespace bertkit::core
