#pragma once
// An allow-list interpreter for the pickles torch.save writes for a state dict. It knows the opcodes of
// protocols 2-5 that build plain data (ints, strings, tuples, lists, dicts) and exactly these globals:
// collections.OrderedDict, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter and the
// torch.*Storage types. Any other global or opcode stops with BadInput before anything is built from
// it: nothing in the file is ever executed.
#include "core/tensor.h"

#include <cstddef>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::core {

// A storage as the pickle refers to it (persistent id): its bytes live outside the pickle.
struct PickledStorage {
  DType dtype = DType::F32;
  std::int64_t numel = 0;  // as the pickle claims it; checked against the data by the caller
};

struct PickledTensor {
  std::string storage_key;
  std::int64_t offset = 0;  // in elements
  Shape shape;
  std::vector<std::int64_t> stride;
};

// Values live in an arena owned by Unpickled and point to each other with plain pointers, so hostile
// nesting or cycles cannot overflow the stack or leak when they are destroyed.
struct PickleValue {
  enum class Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Global, Storage, Tensor };
  Kind kind = Kind::None;
  std::int64_t integer = 0;  // Bool, Int
  double number = 0;
  std::string text;                    // String; Global "module.name"; Storage key
  std::vector<PickleValue*> items;     // Tuple, List; Dict as key, value, key, value, ...
  PickledTensor tensor;                // Tensor
};

struct Unpickled {
  std::deque<PickleValue> values;  // the arena (a deque: moving it keeps the pointers valid)
  const PickleValue* root = nullptr;
  std::map<std::string, PickledStorage> storages;  // by key
};

// Runs the pickle that starts at bytes[pos]; on return pos is just past its STOP opcode.
// `where` names the file in errors.
Unpickled unpickle(std::span<const std::byte> bytes, std::size_t& pos, std::string_view where);

// The root of a state dict pickle as (name, tensor) pairs, in file order.
std::vector<std::pair<std::string, PickledTensor>> state_dict_tensors(const Unpickled& pickle,
                                                                      std::string_view where);

}  // namespace bertkit::core
