#include "core/model/blocks/deberta_block.h"

#include "core/error.h"
#include "core/model/family_spec.h"
#include "core/model/packed_linears.h"
#include "core/ops/disentangled_terms.h"
#include "core/ops/kernel_table.h"
#include "core/ops/op_profile.h"
#include "core/ops/threading.h"

#include <fmt/format.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>
#include <vector>

namespace bertkit::core {
namespace {

// Floats from one row of a sequence's c2p or p2c products to the next: its relative rows, and room for a
// band of them to be written rounded up to 32 (the attention kernels' products) from any of them.
std::int64_t product_width(const RelativeRows::Range& range) { return (range.count + 31 + 31) / 32 * 32; }

// Content rows (queries for c2p, keys for p2c) whose products the attention kernel computes together: a
// tile meets only length + kProductTile − 1 values of δ, fewer relative rows than the sequence's
// 2·length − 1 where they are not bucketed (up to position_buckets / 2 tokens). The kernel's products do
// not depend on the tile; sgemm takes a sequence's at once (its calls' overhead ate the saving: f32
// deberta-v3-base, 2 threads, 1x128 and 16x48 no faster).
constexpr std::int64_t kProductTile = 32;

// Adds the c2p and p2c terms of queries query .. query+rows and keys key .. key+keys (ScoreTerm::add).
void add_terms(const void* context, int head, std::int64_t first_row, std::int64_t length, std::int64_t query,
               std::int64_t rows, std::int64_t key, std::int64_t keys, float* scores, std::int64_t stride) {
  const auto& t = *static_cast<const DisentangledTerms*>(context);
  const auto sequence = std::upper_bound(t.offsets.begin(), t.offsets.end(), first_row) - t.offsets.begin() - 1;
  const RelativeRows::Range range = t.rows->range(length);
  const std::int64_t plane = length * product_width(range);
  const float* base = t.products + t.bases[static_cast<std::size_t>(sequence)] + head * plane;
  DisentangledPlanes planes;
  planes.c2p = t.c2p ? base : nullptr;
  planes.p2c = t.p2c ? base + (t.c2p ? t.heads * plane : 0) : nullptr;
  planes.width = product_width(range);
  planes.row_of = t.rows->at_zero();
  planes.first = static_cast<std::int32_t>(range.first);
  add_disentangled_terms(planes, query, rows, key, keys, scores, stride);
}

}  // namespace

const BlockRecipe deberta_block_recipe = recipe_of<DebertaBlock>();

DebertaBlockTensors DebertaBlock::declare(const ModelConfig& config, int index, TensorDecls& decls) {
  DebertaBlockTensors t;
  if (index == 0) t.relative = declare_relative_embeddings(config, decls);
  BertBlock::declare(config, index, decls);
  const DisentangledAttention& a = config.disentangled;
  if (a.relative && !a.share_key) {
    const std::int64_t h = config.hidden_size;
    const std::string p = fmt::format("encoder.layer.{}.attention.self.", index);
    if (a.p2c) t.pos_query = decls.linear(p + "pos_query_proj", h, h);
    if (a.c2p) t.pos_key = decls.linear(p + "pos_key_proj", h, h);
  }
  return t;
}

DebertaBlock::DebertaBlock(const ModelConfig& config, const Weights& weights, int index)
    : BertBlock(config, weights, index), attention_(config.disentangled) {
  const std::int64_t h = config.hidden_size, d = h / config.num_heads;
  scale_ = 1.0f / std::sqrt(static_cast<float>(d) * static_cast<float>(attention_.scale_factor()));
  TensorDecls decls;
  const DebertaBlockTensors& t = tensors_ = declare(config, index, decls);
  if (t.pos_query) pos_query_ = packed_or_plain(weights, *t.pos_query);
  if (t.pos_key) pos_key_ = packed_or_plain(weights, *t.pos_key);
  auto project = [this, h](const float* x, std::int64_t rows, float* pq, float* pk) {
    if (!attention_.share_key) {
      if (pq) pos_query_.forward(x, rows, pq);
      if (pk) pos_key_.forward(x, rows, pk);
      return;
    }
    std::vector<float> qkv(static_cast<std::size_t>(rows * 3 * h));
    project_qkv(x, rows, qkv.data());
    // Q's columns for p2c, K's for c2p.
    for (std::int64_t r = 0; r < rows; ++r) {
      if (pq) std::copy_n(qkv.data() + r * 3 * h, h, pq + r * h);
      if (pk) std::copy_n(qkv.data() + r * 3 * h + h, h, pk + r * h);
    }
  };
  positions_ = RelativeProjections(config, weights, project);
}

void DebertaBlock::add_packed_to(const Weights& source, Weights& weights) const {
  BertBlock::add_packed_to(source, weights);
  std::vector<PackedLayer> layers;
  for (const auto& [decl, layer] : {std::pair{&tensors_.pos_query, &pos_query_}, std::pair{&tensors_.pos_key, &pos_key_}})
    if (*decl) layers.push_back({(*decl)->weight(), {(*decl)->weight()}, {layer}});
  add_packed_layers(source, weights, layers);
}

void DebertaBlock::prepare(std::int64_t longest) const {
  if (positions_.empty() || longest <= 0) return;
  rows_.tabulate(attention_, longest);
  positions_.cover(rows_.range(longest));  // every shorter sequence's rows are among the longest's
}

ScoreModifier DebertaBlock::score_modifier(const float* qkv, std::span<const std::int64_t> offsets, LayerScratch& s,
                                           const LayerContext& context) const {
  ScoreModifier modifier;
  modifier.scale = scale_;
  modifier.attended_keys = context.attended_keys;
  if (positions_.empty()) return modifier;
  const std::int64_t h = hidden_size(), d = h / heads();
  const auto sequences = static_cast<std::int64_t>(offsets.size()) - 1;
  std::int64_t longest = 0;
  for (std::int64_t i = 0; i < sequences; ++i) longest = std::max(longest, offsets[i + 1] - offsets[i]);
  prepare(longest);  // done already when the encoder prepared this batch

  // Per sequence, term and head: c2p = Q_h · pk_hᵀ or p2c = K_h · pq_hᵀ over the rows the sequence reads,
  // by the attention kernel's products where it has its own (bf16, as its scores), else oneDNN's sgemm.
  const bool c2p = positions_.key() != nullptr, p2c = positions_.query() != nullptr;
  const int terms = int{c2p} + int{p2c};
  terms_ = {offsets, {}, nullptr, c2p, p2c, heads(), &rows_};
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < sequences; ++i) {
    terms_.bases.push_back(total);
    total += terms * heads() * (offsets[i + 1] - offsets[i]) * product_width(rows_.range(offsets[i + 1] - offsets[i]));
  }
  const AttentionKernel* attention = kernels().attention(attention_products(), d);
  const AttentionKernel* kernel = attention && attention->products ? attention : nullptr;
  const std::int64_t per_thread = kernel ? kernel->products_scratch(rows_.range(longest).count, d) : 0;
  float* products = grown(s.positional, total + per_thread * omp_get_max_threads());
  terms_.products = products;
  const std::int64_t tasks = sequences * terms * heads();
  const ProfiledOp op("disentangled products");
  std::atomic<bool> failed{false};
  SerialScope serial(total * d < kMinParallelWork);
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t task = 0; task < tasks; ++task) {
    const std::int64_t seq = task / (terms * heads()), term = task / heads() % terms, head = task % heads();
    const std::int64_t length = offsets[seq + 1] - offsets[seq];
    const RelativeRows::Range range = rows_.range(length);
    const std::int64_t width = product_width(range);
    const bool content_to_position = terms_.c2p && term == 0;
    const float* content = qkv + offsets[seq] * 3 * h + (content_to_position ? 0 : h) + head * d;  // Q or K
    const float* position = (content_to_position ? positions_.key() : positions_.query()) + range.first * h + head * d;
    float* out = products + terms_.bases[static_cast<std::size_t>(seq)] + (term * heads() + head) * length * width;
    float* scratch = products + total + per_thread * omp_get_thread_num();
    const std::int64_t tiles_of = kernel ? kProductTile : length;
    for (std::int64_t at = 0; at < length; at += tiles_of) {
      const std::int64_t tile = std::min(tiles_of, length - at);
      const RelativeRows::Range band = rows_.band(length, at, tile, content_to_position);
      const float* c = content + at * 3 * h;
      const float* p = position + (band.first - range.first) * h;
      float* o = out + at * width + (band.first - range.first);
      if (kernel)
        kernel->products(c, 3 * h, p, h, tile, band.count, d, scale_, o, width, scratch);
      else if (dnnl_sgemm('N', 'T', tile, band.count, d, scale_, c, 3 * h, p, h, 0.0f, o, width) != dnnl_success)
        failed = true;
    }
  }
  if (failed) runtime_error("oneDNN sgemm failed in DeBERTa's disentangled attention");
  modifier.term = {&add_terms, &terms_};
  return modifier;
}

}  // namespace bertkit::core
