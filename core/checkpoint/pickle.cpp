#include "core/checkpoint/pickle.h"

#include "core/error.h"

#include <cstring>
#include <optional>
#include <unordered_map>

namespace bertkit::core {

namespace {

using Kind = PickleValue::Kind;

std::optional<DType> storage_dtype(std::string_view global) {
  static const std::pair<std::string_view, DType> known[] = {
      {"torch.FloatStorage", DType::F32}, {"torch.HalfStorage", DType::F16},
      {"torch.BFloat16Storage", DType::BF16}, {"torch.LongStorage", DType::I64},
      {"torch.IntStorage", DType::I32}, {"torch.CharStorage", DType::I8},
      {"torch.ByteStorage", DType::U8}, {"torch.BoolStorage", DType::Bool},
  };
  for (const auto& [name, dtype] : known)
    if (name == global) return dtype;
  return std::nullopt;
}

bool allowed_global(std::string_view name) {
  return name == "collections.OrderedDict" || name == "torch._utils._rebuild_tensor_v2" ||
         name == "torch._utils._rebuild_parameter" || storage_dtype(name).has_value();
}

class Machine {
 public:
  Machine(std::span<const std::byte> bytes, std::size_t pos, std::string_view where)
      : bytes_(bytes), pos_(pos), where_(where) {}

  Unpickled run(std::size_t& end) {
    for (;;) {
      op_pos_ = pos_;
      auto op = static_cast<unsigned char>(take(1)[0]);
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1 || !marks_.empty()) fail("the pickle does not end with exactly one value");
    end = pos_;
    Unpickled out;
    out.root = stack_.back();
    out.values = std::move(values_);
    out.storages = std::move(storages_);
    return out;
  }

 private:
  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    bad_input("{}: pickle offset {}: {}", where_, op_pos_, fmt::format(format, std::forward<Args>(args)...));
  }

  PickleValue* make(Kind kind) {
    values_.emplace_back();
    values_.back().kind = kind;
    return &values_.back();
  }

  PickleValue* make_int(std::int64_t i, Kind kind = Kind::Int) {
    auto v = make(kind);
    v->integer = i;
    return v;
  }

  std::span<const std::byte> take(std::size_t n) {
    if (n > bytes_.size() - pos_) fail("truncated (needs {} more bytes, {} left)", n, bytes_.size() - pos_);
    auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }

  std::uint64_t take_le(std::size_t n) {
    auto s = take(n);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(s[i])} << (8 * i);
    return v;
  }

  std::string take_string(std::size_t n) {
    auto s = take(n);
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }

  std::string take_line() {
    std::size_t start = pos_;
    while (pos_ < bytes_.size() && bytes_[pos_] != std::byte{'\n'}) ++pos_;
    if (pos_ >= bytes_.size()) fail("truncated (unterminated global name)");
    std::string line(reinterpret_cast<const char*>(bytes_.data() + start), pos_ - start);
    ++pos_;
    return line;
  }

  PickleValue* pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("stack underflow");
    auto v = stack_.back();
    stack_.pop_back();
    return v;
  }

  PickleValue* top() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("stack underflow");
    return stack_.back();
  }

  std::vector<PickleValue*> pop_to_mark() {
    if (marks_.empty()) fail("no MARK on the stack");
    std::size_t mark = marks_.back();
    marks_.pop_back();
    std::vector<PickleValue*> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
    stack_.resize(mark);
    return items;
  }

  PickleValue* tuple(std::vector<PickleValue*> items) {
    auto t = make(Kind::Tuple);
    t->items = std::move(items);
    return t;
  }

  void memo_put(std::uint64_t index) { memo_[index] = top(); }

  PickleValue* memo_get(std::uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) fail("memo entry {} is not defined", index);
    return it->second;
  }

  void push_global(std::string module, std::string name) {
    std::string full = module + "." + name;
    if (!allowed_global(full))
      fail("refusing to load: the pickle references {}, which is not tensor data (only "
           "collections.OrderedDict, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter and "
           "torch.*Storage are allowed); nothing was executed",
           full);
    auto v = make(Kind::Global);
    v->text = std::move(full);
    stack_.push_back(std::move(v));
  }

  std::int64_t as_int(const PickleValue* v, std::string_view what) const {
    if (v->kind != Kind::Int && v->kind != Kind::Bool) fail("{} is not an integer", what);
    return v->integer;
  }

  std::vector<std::int64_t> as_ints(const PickleValue* v, std::string_view what) const {
    if (v->kind != Kind::Tuple && v->kind != Kind::List) fail("{} is not a tuple of integers", what);
    std::vector<std::int64_t> out;
    for (const auto& item : v->items) {
      auto i = as_int(item, what);
      if (i < 0) fail("{} has a negative entry", what);
      out.push_back(i);
    }
    return out;
  }

  // ('storage', torch.XStorage, key, location, numel[, view_metadata]) -> a Storage value.
  PickleValue* persistent_load(PickleValue* pid) {
    const auto& t = pid->items;
    if (pid->kind != Kind::Tuple || t.size() < 5 || t[0]->kind != Kind::String || t[0]->text != "storage" ||
        t[1]->kind != Kind::Global || t[2]->kind != Kind::String)
      fail("persistent id is not a torch storage reference");
    auto dtype = storage_dtype(t[1]->text);
    if (!dtype) fail("{} is not a storage type", t[1]->text);
    if (t.size() > 5 && t[5]->kind != Kind::None) fail("storage views are not supported");
    std::int64_t numel = as_int(t[4], "storage size");
    if (numel < 0) fail("storage {} has a negative size", t[2]->text);
    auto [it, inserted] = storages_.emplace(t[2]->text, PickledStorage{*dtype, numel});
    if (!inserted && (it->second.dtype != *dtype || it->second.numel != numel))
      fail("storage {} is declared twice with different types or sizes", t[2]->text);
    auto v = make(Kind::Storage);
    v->text = t[2]->text;
    return v;
  }

  PickleValue* reduce(PickleValue* callable, PickleValue* args) {
    if (callable->kind != Kind::Global || args->kind != Kind::Tuple) fail("REDUCE of something that is not a global");
    const auto& a = args->items;
    if (callable->text == "collections.OrderedDict") {
      if (!a.empty()) fail("OrderedDict with arguments");
      return make(Kind::Dict);
    }
    if (callable->text == "torch._utils._rebuild_tensor_v2") {
      if (a.size() < 4 || a[0]->kind != Kind::Storage) fail("_rebuild_tensor_v2 with unexpected arguments");
      auto v = make(Kind::Tensor);
      v->tensor.storage_key = a[0]->text;
      v->tensor.offset = as_int(a[1], "storage offset");
      if (v->tensor.offset < 0) fail("negative storage offset");
      v->tensor.shape = as_ints(a[2], "tensor size");
      v->tensor.stride = as_ints(a[3], "tensor stride");
      if (v->tensor.shape.size() != v->tensor.stride.size()) fail("tensor size and stride differ in length");
      return v;
    }
    if (callable->text == "torch._utils._rebuild_parameter") {
      if (a.empty() || a[0]->kind != Kind::Tensor) fail("_rebuild_parameter without a tensor");
      return a[0];
    }
    fail("{} cannot be called", callable->text);
  }

  void set_items(PickleValue* dict, std::vector<PickleValue*> items) {
    if (dict->kind != Kind::Dict) fail("SETITEM(S) on something that is not a dict");
    if (items.size() % 2 != 0) fail("SETITEMS with an odd number of values");
    for (auto* v : items) dict->items.push_back(v);
  }

  void step(unsigned char op) {
    switch (op) {
      case 0x80: {  // PROTO
        auto version = take_le(1);
        if (version < 2 || version > 5) fail("unsupported pickle protocol {}", version);
        return;
      }
      case 0x95: take_le(8); return;  // FRAME: a hint for buffering, no data of its own
      case '(': marks_.push_back(stack_.size()); return;
      case '}': stack_.push_back(make(Kind::Dict)); return;
      case ']': stack_.push_back(make(Kind::List)); return;
      case ')': stack_.push_back(make(Kind::Tuple)); return;
      case 'N': stack_.push_back(make(Kind::None)); return;
      case 0x88: stack_.push_back(make_int(1, Kind::Bool)); return;
      case 0x89: stack_.push_back(make_int(0, Kind::Bool)); return;
      case 'J': stack_.push_back(make_int(static_cast<std::int32_t>(take_le(4)))); return;
      case 'K': stack_.push_back(make_int(static_cast<std::int64_t>(take_le(1)))); return;
      case 'M': stack_.push_back(make_int(static_cast<std::int64_t>(take_le(2)))); return;
      case 0x8a: {  // LONG1
        auto n = take_le(1);
        if (n > 8) fail("integer of {} bytes is too large", n);
        std::uint64_t v = n ? take_le(n) : 0;
        if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~std::uint64_t{0} << (8 * n);  // sign-extend
        stack_.push_back(make_int(static_cast<std::int64_t>(v)));
        return;
      }
      case 'G': {  // BINFLOAT, big-endian
        auto s = take(8);
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = (bits << 8) | static_cast<unsigned char>(s[i]);
        auto v = make(Kind::Float);
        std::memcpy(&v->number, &bits, 8);
        stack_.push_back(std::move(v));
        return;
      }
      case 'X': case 0x8c: case 0x8d: case 'T': case 'U': {  // unicode and byte strings
        std::size_t len_bytes = (op == 'X' || op == 'T') ? 4 : (op == 0x8d ? 8 : 1);
        auto v = make(Kind::String);
        v->text = take_string(take_le(len_bytes));
        stack_.push_back(std::move(v));
        return;
      }
      case 'q': memo_put(take_le(1)); return;
      case 'r': memo_put(take_le(4)); return;
      case 0x94: memo_put(memo_.size()); return;  // MEMOIZE
      case 'h': stack_.push_back(memo_get(take_le(1))); return;
      case 'j': stack_.push_back(memo_get(take_le(4))); return;
      case 't': stack_.push_back(tuple(pop_to_mark())); return;
      case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
        std::vector<PickleValue*> items(op - 0x84);
        for (auto it = items.rbegin(); it != items.rend(); ++it) *it = pop();
        stack_.push_back(tuple(std::move(items)));
        return;
      }
      case 'l': {
        auto v = make(Kind::List);
        v->items = pop_to_mark();
        stack_.push_back(std::move(v));
        return;
      }
      case 'd': {
        auto v = make(Kind::Dict);
        set_items(v, pop_to_mark());
        stack_.push_back(std::move(v));
        return;
      }
      case 'a': {
        auto item = pop();
        if (top()->kind != Kind::List) fail("APPEND to something that is not a list");
        top()->items.push_back(std::move(item));
        return;
      }
      case 'e': {
        auto items = pop_to_mark();
        if (top()->kind != Kind::List) fail("APPENDS to something that is not a list");
        for (auto* i : items) top()->items.push_back(i);
        return;
      }
      case 's': {
        auto value = pop();
        auto key = pop();
        set_items(top(), {std::move(key), std::move(value)});
        return;
      }
      case 'u': {
        auto items = pop_to_mark();
        set_items(top(), std::move(items));
        return;
      }
      case 'c': {
        auto module = take_line();
        auto name = take_line();
        push_global(std::move(module), std::move(name));
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        auto name = pop();
        auto module = pop();
        if (module->kind != Kind::String || name->kind != Kind::String) fail("STACK_GLOBAL of non-strings");
        push_global(module->text, name->text);
        return;
      }
      case 'R': {
        auto args = pop();
        auto callable = pop();
        stack_.push_back(reduce(callable, args));
        return;
      }
      case 'Q': {
        auto pid = pop();
        stack_.push_back(persistent_load(pid));
        return;
      }
      case 'b': {  // BUILD: an OrderedDict's attributes (state dict _metadata) carry no tensors
        pop();
        if (top()->kind != Kind::Dict) fail("BUILD on something that is not a dict");
        return;
      }
      default:
        fail("unsupported pickle opcode 0x{:02x}; only plain data and tensors are allowed", op);
    }
  }

  std::span<const std::byte> bytes_;
  std::deque<PickleValue> values_;
  std::size_t pos_;
  std::size_t op_pos_ = 0;
  std::string where_;
  std::vector<PickleValue*> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, PickleValue*> memo_;
  std::map<std::string, PickledStorage> storages_;
};

}  // namespace

Unpickled unpickle(std::span<const std::byte> bytes, std::size_t& pos, std::string_view where) {
  if (pos > bytes.size()) bad_input("{}: pickle starts past the end of the data", where);
  return Machine(bytes, pos, where).run(pos);
}

std::vector<std::pair<std::string, PickledTensor>> state_dict_tensors(const Unpickled& pickle,
                                                                      std::string_view where) {
  const PickleValue& root = *pickle.root;
  if (root.kind != Kind::Dict) bad_input("{}: the pickle does not hold a state dict (a dict of tensors)", where);
  std::vector<std::pair<std::string, PickledTensor>> out;
  for (std::size_t i = 0; i + 1 < root.items.size(); i += 2) {
    const auto& key = root.items[i];
    const auto& value = root.items[i + 1];
    if (key->kind != Kind::String) bad_input("{}: state dict key is not a string", where);
    if (value->kind != Kind::Tensor) bad_input("{}: state dict entry {} is not a tensor", where, key->text);
    out.emplace_back(key->text, value->tensor);
  }
  return out;
}

}  // namespace bertkit::core
