// config.json parsing (core/model/config.h) on arbitrary bytes. Beyond not crashing: a config that
// parses has a positive size for every dimension the encoder allocates from, whole attention heads and
// one label name per class, (ModernBERT) attention settings for every layer, and (DeBERTa) a positive
// relative span.
#include "core/error.h"
#include "core/model/config.h"

#include <cstdlib>
#include <string_view>

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ModelConfig c = parse_model_config(text, "fuzz/config.json");
    const bool ok = c.vocab_size > 0 && c.hidden_size > 0 && c.num_layers > 0 && c.num_heads > 0 &&
                    c.intermediate_size > 0 && c.max_position_embeddings > 0 && c.embedding_size > 0 &&
                    c.type_vocab_size >= 0 && c.hidden_size % c.num_heads == 0 &&
                    c.num_labels == static_cast<int>(c.id2label.size()) && c.layer_norm_eps > 0 &&
                    c.layer_norm_eps < 1;
    // ModernBERT: every layer has its attention, a positive theta and a window (-1: global).
    bool layers_ok = c.layer_attention.empty() || c.layer_attention.size() == static_cast<std::size_t>(c.num_layers);
    for (const LayerAttention& a : c.layer_attention) layers_ok = layers_ok && a.rope_theta > 0 && a.window >= -1;
    if (!layers_ok) std::abort();
    // DeBERTa with relative attention: no negative buckets, a relative span for the relative embeddings'
    // rows (other families have no relative embeddings: nothing to check).
    const DisentangledAttention& d = c.disentangled;
    if (d.relative && (d.buckets < 0 || d.max_relative < 1 || d.span() < 1)) std::abort();
    if (!ok) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
