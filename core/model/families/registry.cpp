// The families bertkit runs, by model_type. A new family: its file in this folder, then a line in
// each list below.
#include "core/model/family_spec.h"

#include "core/error.h"

#include <fmt/format.h>

namespace bertkit::core {

const FamilySpec& bert_family();         // bert.cpp
const FamilySpec& distilbert_family();   // distilbert.cpp
const FamilySpec& electra_family();      // electra.cpp
const FamilySpec& roberta_family();      // roberta.cpp
const FamilySpec& xlm_roberta_family();  // roberta.cpp
const FamilySpec& camembert_family();    // roberta.cpp
const FamilySpec& mpnet_family();        // mpnet.cpp
const FamilySpec& modernbert_family();   // modernbert.cpp
const FamilySpec& nomic_bert_family();   // nomic_bert.cpp
const FamilySpec& deberta_v2_family();   // deberta_v2.cpp

std::span<const FamilySpec* const> families() {
  static const FamilySpec* const all[] = {&bert_family(),    &distilbert_family(),  &electra_family(),
                                          &roberta_family(), &xlm_roberta_family(), &camembert_family(),
                                          &mpnet_family(),   &modernbert_family(),  &nomic_bert_family(),
                                          &deberta_v2_family()};
  return all;
}

const FamilySpec* find_family(std::string_view model_type) {
  for (const FamilySpec* family : families())
    if (family->model_type == model_type) return family;
  return nullptr;
}

std::string supported_model_types() {
  std::string out;
  for (const FamilySpec* family : families()) out += fmt::format("{}{}", out.empty() ? "" : ", ", family->model_type);
  return out;
}

const ArchitectureSpec* FamilySpec::architecture(HeadKind head) const {
  for (const ArchitectureSpec& a : architectures)
    if (a.head == head) return &a;
  return nullptr;
}

const ArchitectureSpec* FamilySpec::architecture(std::string_view name) const {
  for (const ArchitectureSpec& a : architectures)
    if (a.name == name) return &a;
  return nullptr;
}

const ArchitectureSpec& architecture_spec(const ModelConfig& config) {
  const ArchitectureSpec* a = config.family ? config.family->architecture(config.head) : nullptr;
  if (!a) runtime_error("no architecture of model_type {} has a {} head", family_name(config.family), head_name(config.head));
  return *a;
}

}  // namespace bertkit::core
