// Converted files hold the encoder's Linear weights only packed, in the layout this machine's oneDNN
// wants: used in place they give bitwise the outputs of the same weights packed at load, whether the
// layout matches (in place), the weights are read plain (recovered by unpacking) or the file was packed
// for another machine (another layout: recovered, then packed at load).
#include "support.h"

#include "commands/convert.h"
#include "core/loading/converted_file.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/dnnl/layout_names.h"
#include "core/model/encoder.h"
#include "core/ops/cpu_features.h"
#include "core/ops/linear.h"
#include "golden/encoder_fixtures.h"
#include "unit/checkpoint_builders.h"
#include "unit/same_weights.h"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

using namespace bertkit;
using namespace bertkit::core;

namespace {

// Whether this machine's oneDNN packs s8 weights in a layout a name describes: oneDNN 3's s8 layouts
// with their compensation have none (Debian 13's oneDNN 3.7 on a VNNI CPU), and a file keeps them plain.
bool int8_layout_named() {
  const std::int64_t n = 64;
  const std::vector<std::int8_t> values(static_cast<std::size_t>(n * n), 1);
  const std::vector<float> scales(static_cast<std::size_t>(n), 0.5f);
  return Linear({DType::I8, values.data(), scales}, {}, n, n).packed_layout().has_value();
}

// Whether a converted file here stores `type` packed: this machine computes the type natively
// (cpu_features.h: bf16 needs AVX-512, int8 VNNI; elsewhere a file keeps those matrices plain and they
// are widened to f32 at load), in a layout with a name.
bool packs(StoreType type) {
  if (type == StoreType::BF16) return bf16_matmul_supported(cpu_selection());
  if (type == StoreType::Int8) return int8_matmul_supported(cpu_selection()) && int8_layout_named();
  return true;
}

// Every tensor of `w`, read plain (recovering those stored only packed), without the packed forms.
std::shared_ptr<const Weights> plain_only(const Weights& w) {
  auto out = std::make_shared<Weights>();
  for (const auto& name : w.names()) out->add(name, *w.find(name));
  out->keep_owners_of(w);
  return out;
}

// The last hidden states of two sequences of ids spread over the vocabulary.
std::vector<float> run(const ModelConfig& config, std::shared_ptr<const Weights> weights) {
  std::vector<std::int32_t> a, b;
  for (int i = 0; i < 9; ++i) a.push_back(static_cast<std::int32_t>((i * 7919 + 3) % config.vocab_size));
  for (int i = 0; i < 5; ++i) b.push_back(static_cast<std::int32_t>((i * 104729 + 11) % config.vocab_size));
  const std::vector<TokenSequence> batch = {{a, {}}, {b, {}}};
  Encoder encoder(config, std::move(weights));
  EncoderOutput out;
  encoder.forward(batch, out);
  return {out.last().begin(), out.last().end()};
}

// The header of a converted file.
nlohmann::json header_of(const std::filesystem::path& file) {
  std::string bytes = bktest::read_file(file);
  std::uint64_t len = 0;
  std::memcpy(&len, bytes.data() + 16, 8);
  return nlohmann::json::parse(bytes.substr(24, len));
}

// A file as version 1 wrote f32 ones: every tensor of `plain` (a file without packed matrices), then the
// packed matrices of `packed` (a version 2 f32 file) also stored, named by their bare format tag.
std::string as_version_1(const std::string& plain, const std::string& packed) {
  auto split = [](const std::string& file) {
    std::uint64_t len = 0;
    std::memcpy(&len, file.data() + 16, 8);
    const std::size_t data_start = (24 + len + 63) / 64 * 64;
    return std::make_pair(nlohmann::json::parse(file.substr(24, len)), data_start);
  };
  auto [header, data_start] = split(plain);
  const auto [packed_header, packed_start] = split(packed);
  std::string data = plain.substr(data_start, plain.size() - 16 - data_start);
  header["packed"] = nlohmann::json::array();
  for (const auto& e : packed_header["packed"]) {
    data.resize((data.size() + 63) / 64 * 64, '\0');
    const std::string layout = e["layout"];
    REQUIRE(layout.starts_with("f32:"));
    header["packed"].push_back({{"name", e["name"]}, {"layout", layout.substr(4)}, {"offset", data.size()}, {"nbytes", e["nbytes"]}});
    data += packed.substr(packed_start + e["offset"].get<std::size_t>(), e["nbytes"].get<std::size_t>());
  }
  header["data_size"] = data.size();
  const std::string text = header.dump();
  std::string out = plain.substr(0, 8) + bktest::le(1, 4) + bktest::le(0, 4) + bktest::le(text.size(), 8) + text;
  out.resize((out.size() + 63) / 64 * 64, '\0');
  return out + data + plain.substr(plain.size() - 16);
}

}  // namespace

TEST_CASE("convert: a version 1 f32 file, plain and packed by format tag, loads and uses its packed matrices") {
  bktest::TempDir dir;
  const auto folder = bktest::shared("fixtures/models/bert-uncased-mlm");
  LoadedModel original = load_model(folder.string());
  write_converted_file(original, dir / "plain.bk", StoreType::F32);  // nothing packed
  cmd::convert_model(folder.string(), dir / "packed.bk", StoreType::F32);
  bktest::write_file(dir / "v1.bk", as_version_1(bktest::read_file(dir / "plain.bk"), bktest::read_file(dir / "packed.bk")));
  LoadedModel old = load_model((dir / "v1.bk").string());
  REQUIRE(old.weights.packed().size() == 4 * static_cast<std::size_t>(old.config.num_layers));
  for (const auto& [packed_name, view] : old.weights.packed()) {
    const std::string& packed = packed_name;  // clang 14 cannot capture a structured binding in INFO's lambda
    INFO(packed);
    CHECK(view.parts.empty());  // its plain form is in the file too
    CHECK(view.layout.find(':') == std::string::npos);
  }
  const std::vector<float> expected = run(original.config, std::make_shared<const Weights>(std::move(original.weights)));
  CHECK(run(old.config, std::make_shared<const Weights>(std::move(old.weights))) == expected);
}

TEST_CASE("convert: f32, bf16 and int8 files hold the encoder's matrices only packed, with bitwise the outputs of packing at load") {
  bktest::TempDir dir;
  for (const std::string& name : bktest::fixture_model_names()) {
    const auto folder = bktest::shared("fixtures/models/" + name);
    for (StoreType type : {StoreType::F32, StoreType::BF16, StoreType::Int8}) {
      INFO(name << " " << store_type_name(type));
      const auto file = dir / (name + ".bk");
      cmd::convert_model(folder.string(), file, type);
      LoadedModel converted = load_model(file.string());
      const auto layers = static_cast<std::size_t>(converted.config.num_layers);

      // Q|K|V, attention output, feed-forward in and out of every layer: packed, and their plain parts
      // not in the file's tensor table.
      const nlohmann::json header = header_of(file);
      if (!packs(type)) {
        // Kept plain: nothing packed, and what is read is exactly what the file was converted from.
        CHECK(header["packed"].empty());
        bktest::check_same_weights(with_store_type(load_model(folder.string()).weights, type), converted.weights);
        continue;
      }
      REQUIRE(header["packed"].size() == 4 * layers);
      for (const auto& t : header["tensors"]) {
        const std::string tensor = t["name"];
        CHECK_FALSE((tensor.starts_with("encoder.layer.") && tensor.ends_with("dense.weight")));
        CHECK_FALSE((tensor.starts_with("encoder.layer.") && tensor.find(".attention.self.") != std::string::npos &&
                     tensor.ends_with(".weight")));
      }
      for (const auto& [packed_name, view] : converted.weights.packed()) {
        const std::string& packed = packed_name;  // clang 14 cannot capture a structured binding in INFO's lambda
        INFO(packed);
        CHECK(reinterpret_cast<std::uintptr_t>(view.data) % 64 == 0);
        const auto layout = layout_from_name({view.shape[1], view.shape[0]}, view.layout);
        REQUIRE(layout.has_value());
        CHECK(layout_dtype(*layout) == store_dtype(type));
      }

      // The tensors read plain are exactly those the file was converted from.
      LoadedModel original = load_model(folder.string());
      const Weights expected = with_store_type(original.weights, type);
      bktest::check_same_weights(expected, converted.weights);

      // In place, and packed at load from the plain tensors (read back from the packed ones).
      auto in_place = std::make_shared<const Weights>(std::move(converted.weights));
      const std::vector<float> packed_in_place = run(converted.config, in_place);
      CHECK(packed_in_place == run(converted.config, plain_only(*in_place)));
      CHECK(packed_in_place == run(original.config, std::make_shared<const Weights>(with_store_type(original.weights, type))));
    }
  }
}

TEST_CASE("convert: a file packed in another layout (another machine) is unpacked and packed at load, same outputs") {
  bktest::TempDir dir;
  const auto folder = bktest::shared("fixtures/models/minilm-embed");
  for (StoreType type : {StoreType::F32, StoreType::BF16, StoreType::Int8}) {
    INFO(store_type_name(type));
    if (!packs(type)) continue;  // nothing packed here to move (the test above checks the plain file)
    const auto here = dir / "here.bk", elsewhere = dir / "elsewhere.bk";
    cmd::convert_model(folder.string(), here, type);
    LoadedModel model = load_model(here.string());
    const std::vector<float> in_place = run(model.config, std::make_shared<const Weights>(model.weights));
    CHECK(in_place == run(model.config, plain_only(model.weights)));
    const std::vector<float> widened = run(model.config, std::make_shared<const Weights>(with_store_type(model.weights, StoreType::F32)));

    // The same matrices in plain "ab" order ([in, out] row-major), s8 with room for a compensation that
    // the reader must not use; "ba" ([out, in] row-major) where this machine's oneDNN itself keeps f32
    // in "ab" (AVX2's sgemm).
    const std::string suffix = type == StoreType::Int8 ? ":comp2" : "";
    const std::string type_name = type == StoreType::F32 ? "f32" : type == StoreType::BF16 ? "bf16" : "s8";
    const bool here_ab = model.weights.packed().begin()->second.layout == type_name + ":ab" + suffix;
    const std::string order = here_ab ? ":ba" : ":ab";
    Weights moved = *plain_only(model.weights);
    for (const auto& [packed_name, view] : model.weights.packed()) {
      const std::int64_t out = view.shape[0], in = view.shape[1];
      const std::string layout = type_name + order + suffix;
      const auto desc = layout_from_name({in, out}, layout);
      REQUIRE(desc.has_value());
      CHECK(*desc != *layout_from_name({in, out}, view.layout));
      std::vector<std::byte> bytes(desc->get_size());
      const std::size_t element = dtype_size(layout_dtype(*desc));
      std::size_t row = 0;
      for (const auto& part : view.parts) {
        const TensorView& t = *model.weights.find(part);
        for (std::int64_t r = 0; r < t.shape[0]; ++r, ++row)
          for (std::int64_t c = 0; c < in; ++c)
            std::memcpy(bytes.data() + (here_ab ? row * static_cast<std::size_t>(in) + static_cast<std::size_t>(c)
                                                : static_cast<std::size_t>(c * out) + row) * element,
                        t.data + static_cast<std::size_t>(r * in + c) * element, element);
      }
      moved.add_packed_owned(packed_name, {layout, nullptr, 0, view.shape, view.parts}, std::move(bytes));
    }
    LoadedModel other = std::move(model);
    other.weights = std::move(moved);
    write_converted_file(other, elsewhere, type);
    LoadedModel loaded = load_model(elsewhere.string());
    REQUIRE(loaded.weights.packed().size() == 4 * static_cast<std::size_t>(loaded.config.num_layers));
    CHECK(loaded.weights.packed().begin()->second.layout == type_name + order + suffix);
    auto weights = std::make_shared<const Weights>(std::move(loaded.weights));
    CHECK(run(loaded.config, weights) == in_place);
    // The unpacked values are the file's own: widened to f32, they give what the first file gives.
    CHECK(run(loaded.config, std::make_shared<const Weights>(with_store_type(*weights, StoreType::F32))) == widened);
  }
}
