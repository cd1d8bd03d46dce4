#pragma once
// The tensors of one model under their canonical names (see core/model/name_map.h), whatever file
// they came from. Views point into memory maps or buffers that the Weights keep alive.
//
// Dtypes: weights read from a Hugging Face checkpoint are always F32 (f16/bf16 files are converted at
// load). A converted bertkit file hands each tensor out as stored: with `convert --dtype f16|bf16` the
// matrices are F16/BF16; with `--dtype int8` every Linear weight [out, in] is I8 and its per-output-channel
// f32 scales are the F32 tensor "<name>.scale" [out] (value = int8 * scale[row]). Embeddings, LayerNorm
// parameters and biases are F32 in every file. to_f32() (core/tensor.h) turns F16/BF16 into f32.
#include "core/tensor.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// A Linear weight [out, in] packed in a oneDNN layout named as core/dnnl/layout_names.h names it: a
// converted file holds them for the machine that converted it (see Linear::from_packed), and `parts`,
// the plain tensors it stacks by rows (Q, K and V in one), only in that form.
struct PackedView {
  std::string layout;
  const std::byte* data = nullptr;
  std::size_t nbytes = 0;
  Shape shape;                     // [out, in]
  std::vector<std::string> parts;  // the same number of rows each
};

struct TensorInfo {
  DType dtype = DType::F32;
  Shape shape;
};

class Weights {
 public:
  // The view's bytes must stay valid as long as this object: pass their owner to keep().
  void add(std::string name, TensorView view);
  // Stores bytes owned by the Weights themselves (e.g. f16 converted to f32 at load).
  void add_owned(std::string name, DType dtype, Shape shape, std::vector<std::byte> bytes);
  // Stores an F32/F16/BF16 tensor as f32: the view itself when it is aligned f32, else an owned copy.
  void add_f32(std::string name, const TensorView& view);
  // A tensor made by `recover` on its first find() (a Linear weight a converted file holds only packed):
  // loading needs no time for tensors that are never read.
  void add_recoverable(std::string name, TensorInfo info, std::function<std::vector<std::byte>()> recover);
  void keep(std::shared_ptr<const void> owner);
  void keep_owners_of(const Weights& other);  // after reading other's tensors (find() may add owners)
  // Packed weights under the name of the weight they pack (the fused Q|K|V projection of layer N is
  // "encoder.layer.N.attention.self.qkv.weight"); the bytes live as add()'s do.
  void add_packed(std::string name, PackedView view);
  void add_packed_owned(std::string name, PackedView view, std::vector<std::byte> bytes);  // view.data unused
  const PackedView* find_packed(std::string_view name) const;
  const std::map<std::string, PackedView, std::less<>>& packed() const { return packed_; }

  const TensorView* find(std::string_view name) const;  // recovers the tensor if need be
  std::optional<TensorInfo> info(std::string_view name) const;  // never recovers
  // Throws BadInput naming the tensor (and both shapes when they differ) if absent or mis-shaped.
  const TensorView& require(std::string_view name, const Shape& expected) const;
  std::vector<std::string> names() const;
  // The values of tensor `name` as f32 whatever its stored dtype: F16/BF16 widened, I8 multiplied by
  // its "<name>.scale" row scales. BadInput if absent.
  std::vector<float> values_f32(std::string_view name) const;
  bool empty() const { return tensors_.empty() && recoverable_.empty(); }

 private:
  struct Recoverable {
    TensorInfo info;
    std::function<std::vector<std::byte>()> recover;
  };
  // find() is const and may run on several threads: it moves a recovered tensor under the lock.
  mutable std::map<std::string, TensorView, std::less<>> tensors_;
  mutable std::map<std::string, Recoverable, std::less<>> recoverable_;
  mutable std::shared_ptr<std::mutex> lock_ = std::make_shared<std::mutex>();
  std::map<std::string, PackedView, std::less<>> packed_;
  mutable std::vector<std::shared_ptr<const void>> owners_;
};

// The model's tensors as convert, convert --check and info count them: an int8 matrix's row scales
// ("<name>.scale") belong to the matrix, not counted apart.
std::size_t model_tensor_count(const Weights& w);

// Tied weights (the MLM decoder and the word embedding table) are one tensor under two names: they share
// bytes, shape and dtype. Asked of each name in turn, this tells the later names from the first.
class TiedTensors {
 public:
  // The name asked before whose tensor shares t's bytes, shape and dtype; none when `name` is the first
  // with t's bytes (remembered for the later ones).
  std::optional<std::string> first_with(const std::string& name, const TensorView& t);

 private:
  std::map<const std::byte*, std::pair<std::string, TensorView>> first_;
};

}  // namespace bertkit::core
