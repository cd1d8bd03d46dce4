// DeBERTa-v2's settings that the wave-3 fixtures do not exercise, each through the encoder against a
// double-precision reference written out in loops from transformers' DebertaV2Model (4.33): absolute
// positions (position_biased_input) with token types and the embedding projection (embedding_size ≠
// hidden, bias-free, before the LayerNorm), c2p alone, p2c alone, separate position projections
// (share_att_key false), relative positions without buckets (clipped at max_relative_positions), no
// normalisation of the relative embeddings, and no relative attention at all (still scaled by the
// terms pos_att_type names). The reference itself is first checked against transformers' own numbers
// (fixtures/models3/deberta-v3-nli). Weights are random and wide (±0.5) so that every term shows.
#include "support.h"
#include "unit/reference_math.h"

#include "core/bench/model_shapes.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/loading/model_source.h"
#include "core/model/encoder.h"
#include "core/ops/cpu_features.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace bertkit::core;
using nlohmann::json;

// Named, not anonymous: unity builds put this file beside others with helpers of the same names.
namespace deberta_reference {

using Matrix = std::vector<double>;  // row-major

std::vector<float> tensor(const Weights& w, const std::string& name) { return to_f32(*w.find(name)); }

// x [rows, in] · W[out, in]ᵀ + b (the module's bias where it has one).
Matrix linear(const Weights& w, const std::string& module, const Matrix& x, std::int64_t rows, std::int64_t in) {
  const std::vector<float> weight = tensor(w, module + ".weight");
  const std::vector<float> bias = w.find(module + ".bias") ? tensor(w, module + ".bias") : std::vector<float>();
  return bktest::reference_linear(x, weight, bias, rows, in, static_cast<std::int64_t>(weight.size()) / in);
}

void layer_norm(const Weights& w, const std::string& module, Matrix& x, std::int64_t width, double eps) {
  const std::vector<float> gamma = tensor(w, module + ".weight"), beta = tensor(w, module + ".bias");
  for (std::size_t r = 0; r < x.size() / width; ++r) {
    std::vector<double> row(x.begin() + r * width, x.begin() + (r + 1) * width);
    bktest::reference_layer_norm(row, gamma, beta, eps);
    std::copy(row.begin(), row.end(), x.begin() + r * width);
  }
}

// make_log_bucket_position in double (equal to float32's at these sizes).
std::int64_t bucket(std::int64_t delta, int buckets, int max_position) {
  const std::int64_t mid = buckets / 2, magnitude = std::abs(delta);
  if (buckets <= 0 || magnitude <= mid) return delta;
  const double scaled = std::log(double(magnitude) / mid) / std::log(double(max_position - 1) / mid) * (mid - 1);
  const double log_pos = std::ceil(scaled) + mid;
  return delta < 0 ? -static_cast<std::int64_t>(log_pos) : static_cast<std::int64_t>(log_pos);
}

// One layer's self-attention context [n, h] from its q, k, v and the projected relative embeddings.
Matrix attention(const ModelConfig& c, const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& pq,
                 const Matrix& pk, std::int64_t n) {
  const DisentangledAttention& a = c.disentangled;
  const std::int64_t h = c.hidden_size, d = h / c.num_heads, span = a.span();
  const double scale = std::sqrt(double(d) * a.scale_factor());
  Matrix ctx(static_cast<std::size_t>(n * h), 0.0);
  auto dot = [&](const Matrix& x, std::int64_t xr, const Matrix& y, std::int64_t yr, std::int64_t head) {
    double s = 0;
    for (std::int64_t e = 0; e < d; ++e) s += x[xr * h + head * d + e] * y[yr * h + head * d + e];
    return s;
  };
  for (std::int64_t head = 0; head < c.num_heads; ++head)
    for (std::int64_t i = 0; i < n; ++i) {
      std::vector<double> scores(static_cast<std::size_t>(n));
      for (std::int64_t j = 0; j < n; ++j) {
        double s = dot(q, i, k, j, head);
        const std::int64_t c2p = std::clamp<std::int64_t>(bucket(i - j, a.buckets, a.max_relative) + span, 0, 2 * span - 1);
        const std::int64_t p2c = std::clamp<std::int64_t>(-bucket(j - i, a.buckets, a.max_relative) + span, 0, 2 * span - 1);
        if (a.relative && a.c2p) s += dot(q, i, pk, c2p, head);
        if (a.relative && a.p2c) s += dot(k, j, pq, p2c, head);
        scores[j] = s / scale;
      }
      bktest::reference_softmax(scores);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t e = 0; e < d; ++e) ctx[i * h + head * d + e] += scores[j] * v[j * h + head * d + e];
    }
  return ctx;
}

// DebertaV2Model's last hidden state for one sequence, from canonical weights.
Matrix reference_forward(const ModelConfig& c, const Weights& w, const std::vector<std::int32_t>& ids,
                         const std::vector<std::int32_t>& types) {
  const std::int64_t n = std::ssize(ids), h = c.hidden_size, width = c.embedding_size > 0 ? c.embedding_size : h;
  const std::vector<float> word = tensor(w, "embeddings.word_embeddings.weight");
  Matrix x(static_cast<std::size_t>(n * width));
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t e = 0; e < width; ++e) {
      double v = word[ids[t] * width + e];
      if (c.absolute_positions) v += tensor(w, "embeddings.position_embeddings.weight")[t * width + e];
      if (c.type_vocab_size > 0) v += tensor(w, "embeddings.token_type_embeddings.weight")[types[t] * width + e];
      x[t * width + e] = v;
    }
  if (width != h) x = linear(w, "embeddings_project", x, n, width);
  layer_norm(w, "embeddings.LayerNorm", x, h, c.layer_norm_eps);
  const DisentangledAttention& a = c.disentangled;
  Matrix relative;
  if (a.relative) {
    const std::vector<float> table = tensor(w, "encoder.rel_embeddings.weight");
    relative.assign(table.begin(), table.end());
    if (a.norm_relative) layer_norm(w, "encoder.LayerNorm", relative, h, c.layer_norm_eps);
  }
  const std::int64_t rows = static_cast<std::int64_t>(relative.size()) / h;
  for (int l = 0; l < c.num_layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    const Matrix q = linear(w, p + "attention.self.query", x, n, h), k = linear(w, p + "attention.self.key", x, n, h),
                 v = linear(w, p + "attention.self.value", x, n, h);
    Matrix pq, pk;
    const std::string pos_query = a.share_key ? "attention.self.query" : "attention.self.pos_query_proj";
    const std::string pos_key = a.share_key ? "attention.self.key" : "attention.self.pos_key_proj";
    if (a.relative && a.p2c) pq = linear(w, p + pos_query, relative, rows, h);
    if (a.relative && a.c2p) pk = linear(w, p + pos_key, relative, rows, h);
    Matrix out = linear(w, p + "attention.output.dense", attention(c, q, k, v, pq, pk, n), n, h);
    for (std::size_t e = 0; e < out.size(); ++e) out[e] += x[e];
    layer_norm(w, p + "attention.output.LayerNorm", out, h, c.layer_norm_eps);
    Matrix inner = linear(w, p + "intermediate.dense", out, n, h);
    for (double& e : inner) e = bktest::reference_gelu(e);
    x = linear(w, p + "output.dense", inner, n, c.intermediate_size);
    for (std::size_t e = 0; e < x.size(); ++e) x[e] += out[e];
    layer_norm(w, p + "output.LayerNorm", x, h, c.layer_norm_eps);
  }
  return x;
}

double worst(const std::vector<float>& got, const Matrix& want) {
  REQUIRE(got.size() == want.size());
  double diff = 0;
  for (std::size_t i = 0; i < got.size(); ++i) diff = std::max(diff, std::abs(got[i] - want[i]));
  return diff;
}

// A small DeBERTa-v3-shaped config.json: 8 buckets over max_relative_positions 32, so that 40 tokens
// reach the log buckets and the clipped rows.
json small_config() {
  return {{"model_type", "deberta-v2"}, {"architectures", {"DebertaV2Model"}}, {"vocab_size", 50},
          {"hidden_size", 16},          {"num_hidden_layers", 2},             {"num_attention_heads", 2},
          {"intermediate_size", 24},    {"max_position_embeddings", 48},      {"relative_attention", true},
          {"position_buckets", 8},      {"max_relative_positions", 32},       {"norm_rel_ebd", "layer_norm"},
          {"share_att_key", true},      {"pos_att_type", "p2c|c2p"},          {"position_biased_input", false},
          {"type_vocab_size", 0},       {"layer_norm_eps", 1e-7}};
}

}  // namespace deberta_reference

TEST_CASE("deberta-v2 reference: the loops agree with transformers on fixtures/models3/deberta-v3-nli") {
  LoadedModel m = load_model(bktest::shared("fixtures/models3/deberta-v3-nli").string());
  const json goldens = bktest::read_json(bktest::shared("fixtures/models3/deberta-v3-nli/goldens.json"));
  const json& c = goldens.at("cases").at(0);
  const auto ids = c.at("input_ids").get<std::vector<std::int32_t>>();
  const deberta_reference::Matrix want = deberta_reference::reference_forward(m.config, m.weights, ids, {});
  const auto golden = c.at("last_hidden_state").get<std::vector<std::vector<float>>>();
  std::vector<float> flat;
  for (const auto& row : golden) flat.insert(flat.end(), row.begin(), row.end());
  CHECK(deberta_reference::worst(flat, want) <= 1e-5);
}

TEST_CASE("deberta-v2: settings the fixtures lack, through the encoder, against the reference") {
  const std::vector<std::pair<const char*, std::function<void(json&)>>> variants = {
      {"as deberta-v3", [](json&) {}},
      {"absolute positions, token types, embedding_size 8 projected",
       [](json& j) { j["position_biased_input"] = true, j["type_vocab_size"] = 2, j["embedding_size"] = 8; }},
      {"c2p alone", [](json& j) { j["pos_att_type"] = json::array({"c2p"}); }},
      {"p2c alone", [](json& j) { j["pos_att_type"] = "p2c"; }},
      {"share_att_key false: pos_query_proj and pos_key_proj", [](json& j) { j["share_att_key"] = false; }},
      {"no buckets: relative positions clipped at max_relative_positions 6",
       [](json& j) { j["position_buckets"] = -1, j["max_relative_positions"] = 6; }},
      {"relative embeddings not normalised", [](json& j) { j.erase("norm_rel_ebd"); }},
      {"no relative attention, absolute positions", [](json& j) {
         j["relative_attention"] = false, j["position_biased_input"] = true;
       }},
  };
  for (const auto& variant : variants) {
    INFO(variant.first);
    json config_json = deberta_reference::small_config();
    variant.second(config_json);
    const ModelConfig config = parse_model_config(config_json.dump(), "config.json");
    auto weights = std::make_shared<const Weights>(random_weights(config, 11, 1.0f));
    Encoder encoder(config, weights);
    std::vector<std::int32_t> ids(40), types(40);
    for (std::size_t t = 0; t < ids.size(); ++t) ids[t] = static_cast<std::int32_t>((t * 7 + 3) % 50), types[t] = t >= 20;
    const std::vector<std::int32_t> no_types;
    const std::vector<std::int32_t>& used_types = config.type_vocab_size > 0 ? types : no_types;
    const TokenSequence seq{ids, used_types};
    EncoderOutput out;
    encoder.forward({&seq, 1}, out);
    CHECK(deberta_reference::worst(out.last(), deberta_reference::reference_forward(config, *weights, ids, used_types)) <= 1e-5);
  }
}

namespace deberta_reference {

// Sequences of `lengths` tokens (ids from the length, so that each differs).
std::vector<TokenSequence> sequences(const std::vector<std::int64_t>& lengths, std::vector<std::vector<std::int32_t>>& ids) {
  ids.clear();
  for (std::int64_t n : lengths) {
    std::vector<std::int32_t>& seq = ids.emplace_back(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < n; ++t) seq[t] = static_cast<std::int32_t>((t * 7 + n) % 50);
  }
  std::vector<TokenSequence> batch;
  for (const auto& seq : ids) batch.push_back({seq, {}});
  return batch;
}

bool same_bytes(const std::vector<float>& a, const float* b) {
  return std::memcmp(a.data(), b, a.size() * sizeof(float)) == 0;
}

}  // namespace deberta_reference

TEST_CASE("deberta-v2: relative embeddings projected as batches first reach them give each sequence the bytes of a "
          "fresh encoder, whatever came before") {
  // Short, long (to the clipped rows), then shorter and longer again: the projected rows grow both ways
  // and are reused; a fresh encoder projects only its own sequence's rows.
  const std::vector<std::int64_t> lengths = {3, 40, 1, 12, 46, 7};
  for (bool share : {true, false}) {
    CAPTURE(share);
    json config_json = deberta_reference::small_config();
    config_json["share_att_key"] = share;
    const ModelConfig config = parse_model_config(config_json.dump(), "config.json");
    auto weights = std::make_shared<const Weights>(random_weights(config, 12, 1.0f));
    std::vector<std::vector<std::int32_t>> ids;
    const std::vector<TokenSequence> batch = deberta_reference::sequences(lengths, ids);
    Encoder one_by_one(config, weights), together(config, weights);
    EncoderOutput all;
    together.forward(batch, all);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      CAPTURE(lengths[i]);
      EncoderOutput got, fresh_out;
      one_by_one.forward({&batch[i], 1}, got);
      Encoder fresh(config, weights);
      fresh.forward({&batch[i], 1}, fresh_out);
      CHECK(deberta_reference::same_bytes(got.last(), fresh_out.last().data()));
      CHECK(deberta_reference::same_bytes(got.last(), all.row(i, 0)));
    }
  }
}

TEST_CASE("deberta-v2: share_att_key false, pos_query_proj and pos_key_proj are stored packed and run from the "
          "packed bytes alone") {
  json config_json = deberta_reference::small_config();
  config_json["share_att_key"] = false;
  const ModelConfig config = parse_model_config(config_json.dump(), "config.json");
  auto source = std::make_shared<const Weights>(random_weights(config, 13, 1.0f));
  Encoder encoder(config, source);
  auto packed = std::make_shared<Weights>();
  encoder.add_packed_to(*packed);
  const std::vector<std::string> names = {"encoder.layer.1.attention.self.pos_query_proj.weight",
                                          "encoder.layer.1.attention.self.pos_key_proj.weight"};
  if (!packed->find_packed(names[0])) {
    MESSAGE("not stored packed: this CPU's f32 matmul keeps plain weights");
    CHECK(cpu_selection().path != CpuPath::Avx512);
    return;
  }
  // A file holding only the packed form of the position projections (their plain weights absent).
  auto converted = std::make_shared<Weights>();
  for (const std::string& name : source->names())
    if (std::find(names.begin(), names.end(), name) == names.end()) converted->add(name, *source->find(name));
  converted->keep_owners_of(*source);
  converted->keep(source);
  for (const std::string& name : names) {
    REQUIRE(packed->find_packed(name));
    converted->add_packed(name, *packed->find_packed(name));
  }
  converted->keep(packed);
  std::vector<std::vector<std::int32_t>> ids;
  const std::vector<TokenSequence> batch = deberta_reference::sequences({5, 33}, ids);
  EncoderOutput want, got;
  encoder.forward(batch, want);
  Encoder(config, converted).forward(batch, got);
  CHECK(deberta_reference::same_bytes(want.last(), got.last().data()));
}

TEST_CASE("deberta-v2 in bf16 and int8, heads of 64 (the attention kernels' own products where they have them): "
          "each sequence the bytes of itself alone, near f32") {
  json config_json = deberta_reference::small_config();
  config_json["hidden_size"] = 128, config_json["num_attention_heads"] = 2, config_json["intermediate_size"] = 96;
  const ModelConfig config = parse_model_config(config_json.dump(), "config.json");
  const auto f32 = std::make_shared<const Weights>(random_weights(config, 14));
  std::vector<std::vector<std::int32_t>> ids;
  const std::vector<TokenSequence> batch = deberta_reference::sequences({3, 40, 46, 17}, ids);
  EncoderOutput want;
  Encoder(config, f32).forward(batch, want);
  for (StoreType type : {StoreType::BF16, StoreType::Int8}) {
    CAPTURE(static_cast<int>(type));
    auto weights = std::make_shared<const Weights>(with_store_type(*f32, type));
    Encoder encoder(config, weights);
    EncoderOutput all;
    encoder.forward(batch, all);
    double worst = 0;
    for (std::size_t i = 0; i < all.last().size(); ++i)
      worst = std::max(worst, double(std::abs(all.last()[i] - want.last()[i])));
    CHECK(worst < 0.02);  // measured 0.006 (bf16) and 0.003 (int8), 0.001 with f32 products (BERTKIT_CPU=avx2)
    for (std::size_t i = 0; i < batch.size(); ++i) {
      EncoderOutput alone;
      Encoder(config, weights).forward({&batch[i], 1}, alone);
      CHECK(deberta_reference::same_bytes(alone.last(), all.row(i, 0)));
    }
  }
}
