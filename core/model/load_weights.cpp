#include "core/model/load_weights.h"

#include "core/model/name_map.h"
#include "core/error.h"
#include "core/model/model_tensors.h"

#include <cstring>
#include <map>
#include <set>

namespace bertkit::core {

namespace {

bool same_bytes(const TensorView& a, const TensorView& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.nbytes == b.nbytes &&
         (a.data == b.data || std::memcmp(a.data, b.data, a.nbytes) == 0);
}

}  // namespace

LoadedWeights load_weights(RawCheckpoint raw, ModelConfig& config, std::string_view source) {
  std::set<std::string, std::less<>> present;
  for (const RawTensor& t : raw.tensors)
    if (auto canonical = canonical_name(*config.family, architecture_spec(config), t.name))
      present.insert(std::move(*canonical));
  drop_absent_head(config, [&](std::string_view name) { return present.count(name) > 0; });

  const FamilySpec& family = *config.family;
  const ArchitectureSpec& architecture = architecture_spec(config);
  std::map<std::string, TensorDecl, std::less<>> expected;
  for (auto& e : model_tensors(config)) expected.emplace(e.name, e);

  LoadedWeights out;
  // canonical name -> the checkpoint tensor chosen for it
  std::map<std::string, const RawTensor*, std::less<>> chosen;
  for (const RawTensor& t : raw.tensors) {
    auto canonical = canonical_name(family, architecture, t.name);
    if (canonical && canonical->empty()) continue;  // buffers without weights
    auto want = canonical ? expected.find(*canonical) : expected.end();
    if (want == expected.end()) {
      out.unexpected.push_back(t.name);
      continue;
    }
    if (!is_float(t.view.dtype))
      bad_input("{}: tensor {} has dtype {}; weights must be F32, F16 or BF16", source, t.name,
                dtype_name(t.view.dtype));
    if (t.view.shape != want->second.shape)
      bad_input("{}: tensor {} has shape {}, expected {} for this config.json", source, t.name,
                shape_string(t.view.shape), shape_string(want->second.shape));
    auto [it, inserted] = chosen.emplace(*canonical, &t);
    // BERT files may hold both cls.predictions.bias and its tied alias cls.predictions.decoder.bias.
    if (!inserted && !same_bytes(it->second->view, t.view))
      bad_input("{}: tensors {} and {} are the same parameter ({}) but hold different values", source,
                it->second->name, t.name, *canonical);
  }

  bool tie_decoder = false;
  for (const auto& [name, want] : expected) {
    auto it = chosen.find(name);
    if (it != chosen.end()) {
      out.weights.add_f32(name, it->second->view);
      continue;
    }
    // transformers ties the MLM decoder to the word embeddings when the file has no decoder of its own.
    if (name == "mlm.decoder.weight" && config.tie_word_embeddings) {
      tie_decoder = true;
      continue;
    }
    if (want.optional) continue;
    bad_input("{}: missing tensor {} (shape {}) needed by {}", source, checkpoint_spelling(family, architecture, name),
              shape_string(want.shape), config.architecture);
  }
  if (tie_decoder) {
    const TensorView* embeddings = out.weights.find("embeddings.word_embeddings.weight");
    if (!embeddings) bad_input("{}: missing tensor embeddings.word_embeddings.weight", source);
    out.weights.add("mlm.decoder.weight", *embeddings);
  }
  for (auto& owner : raw.owners) out.weights.keep(std::move(owner));
  return out;
}

}  // namespace bertkit::core
