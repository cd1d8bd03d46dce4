#pragma once
// Reading config.json's fields with messages that name the file and the field: the config reader
// (core/model/config.cpp) and a family's own settings (FamilySpec::read_settings) share it.
#include "core/error.h"
#include "core/model/config.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bertkit::core {

// Upper bound for every size: far above any real model, low enough that products of two sizes fit
// in int64 and a hostile config cannot make later code allocate absurd buffers.
constexpr std::int64_t kMaxDim = std::int64_t{1} << 24;

class ConfigReader {
 public:
  using json = nlohmann::json;
  ConfigReader(const json& root, std::string_view source) : root_(root), source_(source) {}

  [[noreturn]] void refuse(std::string_view what) const { bad_input("{}: {}", source_, what); }

  int size(const char* key, std::optional<int> fallback = std::nullopt, std::int64_t min = 1) const {
    auto it = root_.find(key);
    if (it == root_.end() || it->is_null()) {
      if (!fallback) refuse(fmt::format("missing field \"{}\"", key));
      return *fallback;
    }
    if (!it->is_number_integer())
      refuse(fmt::format("field \"{}\" must be an integer, got {}", key, it->dump()));
    auto v = it->get<std::int64_t>();
    if (v < min || v > kMaxDim)
      refuse(fmt::format("field \"{}\" = {} is out of range [{}, {}]", key, v, min, kMaxDim));
    return static_cast<int>(v);
  }

  std::optional<std::string> text(const char* key) const {
    auto it = root_.find(key);
    if (it == root_.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) refuse(fmt::format("field \"{}\" must be a string, got {}", key, it->dump()));
    return it->get<std::string>();
  }

  bool flag(const char* key, bool fallback) const {
    auto it = root_.find(key);
    if (it == root_.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) refuse(fmt::format("field \"{}\" must be true or false, got {}", key, it->dump()));
    return it->get<bool>();
  }

  double number(const char* key, double fallback) const {
    auto it = root_.find(key);
    if (it == root_.end() || it->is_null()) return fallback;
    if (!it->is_number()) refuse(fmt::format("field \"{}\" must be a number, got {}", key, it->dump()));
    double v = it->get<double>();
    if (!(v > 0 && v < 1)) refuse(fmt::format("field \"{}\" = {} is out of range (0, 1)", key, v));
    return v;
  }

  // A positive number at `key` of `object` (the root or a nested object), `where` naming it in messages.
  double positive(const json& object, const char* key, double fallback, const std::string& where) const {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return fallback;
    if (!it->is_number() || !(it->get<double>() > 0))
      refuse(fmt::format("field \"{}\" must be a positive number, got {}", where, it->dump()));
    return it->get<double>();
  }

  const json& root() const { return root_; }

 private:
  const json& root_;
  std::string source_;
};

// config.json's activation name under `key` ("gelu" when absent); refuses one transformers' ACT2FN
// maps to something bertkit does not compute.
Activation parse_activation(const ConfigReader& r, const char* key);

}  // namespace bertkit::core
