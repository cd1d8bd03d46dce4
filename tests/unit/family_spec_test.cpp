// The family registry: each family found by its model_type, with its base model first; the fields
// the later families set (positions after padding) doing what they say; every architecture running.
#include "core/bench/model_shapes.h"
#include "core/checkpoint/weights.h"
#include "core/error.h"
#include "core/model/classification_head.h"
#include "core/model/embeddings.h"
#include "core/model/encoder.h"
#include "core/model/family_spec.h"
#include "core/model/mlm_head.h"
#include "core/model/qa_head.h"
#include "core/model/token_classification_head.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

using namespace bertkit;
using namespace bertkit::core;

namespace {

// One sequence through the embeddings, validated first as the encoder does.
std::vector<float> embed_single_sequence(Embeddings& embeddings, std::span<const std::int32_t> ids, std::int64_t width) {
  const TokenSequence batch[] = {{ids, {}}};
  embeddings.validate(batch);
  const std::int64_t offsets[] = {0, static_cast<std::int64_t>(ids.size())};
  std::vector<float> out(ids.size() * static_cast<std::size_t>(width));
  embeddings.forward(batch, offsets, out.data());
  return out;
}

}  // namespace

TEST_CASE("families: the registry by model_type") {
  CHECK(supported_model_types() == "bert, distilbert, electra, roberta, xlm-roberta, camembert, mpnet, modernbert, nomic_bert, deberta-v2");
  CHECK(!find_family("gpt2"));
  for (const FamilySpec* family : families()) {
    INFO(family->model_type);
    CHECK(find_family(family->model_type) == family);
    CHECK(family_name(family) == family->model_type);
    REQUIRE(!family->architectures.empty());
    CHECK(family->architectures.front().head == HeadKind::None);
    std::set<HeadKind> heads;
    for (const ArchitectureSpec& a : family->architectures) {
      CHECK(heads.insert(a.head).second);  // architecture(HeadKind) finds one row
      CHECK(family->architecture(a.head) == &a);
      CHECK(family->architecture(a.name) == &a);
    }
  }
}

TEST_CASE("families: BERT's special tokens are the tokenizer's defaults") {
  const SpecialTokenNames& names = find_family("bert")->special_tokens;
  const tok::SpecialTokens defaults;
  CHECK(names.cls == defaults.cls);
  CHECK(names.sep == defaults.sep);
  CHECK(names.pad == defaults.pad);
  CHECK(names.mask == defaults.mask);
  CHECK(names.unk == defaults.unk);
}

TEST_CASE("families: RoBERTa's relatives share its names and heads under their own architecture names") {
  for (const char* model_type : {"roberta", "xlm-roberta", "camembert"}) {
    INFO(model_type);
    const FamilySpec& family = *find_family(model_type);
    CHECK(family.checkpoint_prefix == "roberta.");
    CHECK(family.positions_after_padding);
    CHECK(family.special_tokens.cls == "<s>");
    CHECK(family.special_tokens.mask == "<mask>");
    CHECK(family.classifier.dense == Eltwise::Tanh);
    CHECK(family.mlm.activation == Eltwise::Gelu);
    for (HeadKind head : {HeadKind::None, HeadKind::MaskedLM, HeadKind::SequenceClassification,
                          HeadKind::QuestionAnswering, HeadKind::TokenClassification})
      CHECK(family.architecture(head));
    CHECK(family.architecture(HeadKind::None)->pooler == PoolerUse::Optional);
    CHECK(family.architecture(HeadKind::SequenceClassification)->pooler == PoolerUse::None);
  }
  CHECK(find_family("xlm-roberta")->architecture("XLMRobertaForTokenClassification"));
  CHECK(find_family("camembert")->architecture("CamembertForSequenceClassification"));
  CHECK(!find_family("roberta")->architecture("CamembertForSequenceClassification"));
}

TEST_CASE("families: a position offset starts a sequence that many rows into the position table") {
  // Two positions of offset 2 against the same rows with no offset: the same embeddings, bit for bit.
  const std::int64_t vocab = 3, width = 4, positions = 5;
  auto weights_with = [&](std::int64_t skipped_rows) {
    Weights w;
    auto add = [&w](const char* name, Shape shape, const std::vector<float>& values) {
      std::vector<std::byte> bytes(values.size() * sizeof(float));
      std::memcpy(bytes.data(), values.data(), bytes.size());
      w.add_owned(name, DType::F32, std::move(shape), std::move(bytes));
    };
    std::vector<float> word, position(static_cast<std::size_t>(skipped_rows * width), 9.0f);
    for (int i = 0; i < vocab * width; ++i) word.push_back(0.25f * float(i % 7) - 0.5f);
    for (int i = 0; i < positions * width; ++i) position.push_back(0.125f * float(i % 5));
    add("embeddings.word_embeddings.weight", {vocab, width}, word);
    add("embeddings.position_embeddings.weight", {positions + skipped_rows, width}, position);
    add("embeddings.LayerNorm.weight", {width}, std::vector<float>(width, 1.0f));
    add("embeddings.LayerNorm.bias", {width}, std::vector<float>(width, 0.0f));
    return w;
  };
  ModelConfig config;
  config.family = find_family("distilbert");  // no token types
  config.vocab_size = int(vocab), config.hidden_size = int(width), config.embedding_size = int(width);
  config.type_vocab_size = 0;
  auto embed = [&](int offset, const Weights& weights, std::span<const std::int32_t> ids) {
    config.position_offset = offset;
    config.max_position_embeddings = int(positions) + offset;
    Embeddings embeddings(config, weights);
    return embed_single_sequence(embeddings, ids, width);
  };
  const std::int32_t ids[] = {2, 0, 1, 1, 2};
  Weights shifted = weights_with(2), plain = weights_with(0);
  CHECK(embed(2, shifted, ids) == embed(0, plain, ids));
  const std::int32_t too_long[] = {0, 0, 0, 0, 0, 0};
  CHECK_THROWS_WITH_AS(embed(2, shifted, too_long), doctest::Contains("at most 5"), Error);
}

TEST_CASE("families: positions after the padding index skip padding tokens, which take the padding position") {
  // transformers' create_position_ids_from_input_ids: with padding id 1, [a, <pad>, b] has positions
  // [2, 1, 3], so a and b embed as [a, b] does and the padding token as [<pad>] alone does.
  const std::int64_t vocab = 4, width = 4, positions = 8;
  Weights w;
  auto add = [&w](const char* name, Shape shape, const std::vector<float>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    w.add_owned(name, DType::F32, std::move(shape), std::move(bytes));
  };
  std::vector<float> word, position;
  for (int i = 0; i < vocab * width; ++i) word.push_back(0.25f * float(i % 7) - 0.5f);
  for (int i = 0; i < positions * width; ++i) position.push_back(0.125f * float(i % 9) - float(i / width));
  add("embeddings.word_embeddings.weight", {vocab, width}, word);
  add("embeddings.position_embeddings.weight", {positions, width}, position);
  add("embeddings.LayerNorm.weight", {width}, std::vector<float>(width, 1.0f));
  add("embeddings.LayerNorm.bias", {width}, std::vector<float>(width, 0.0f));
  ModelConfig config;
  config.family = find_family("roberta");
  config.vocab_size = int(vocab), config.hidden_size = int(width), config.embedding_size = int(width);
  config.type_vocab_size = 0;
  config.max_position_embeddings = int(positions);
  config.pad_token_id = 1;
  config.position_offset = 2;
  Embeddings embeddings(config, w);
  auto embed = [&](std::vector<std::int32_t> ids) { return embed_single_sequence(embeddings, ids, width); };
  auto row = [&](const std::vector<float>& rows, std::size_t r) {
    return std::vector<float>(rows.begin() + r * width, rows.begin() + (r + 1) * width);
  };
  const auto with_pad = embed({0, 1, 3}), without = embed({0, 3}), pad = embed({1});
  CHECK(row(with_pad, 0) == row(without, 0));
  CHECK(row(with_pad, 2) == row(without, 1));
  CHECK(row(with_pad, 1) == row(pad, 0));
  CHECK(row(embed({1, 0}), 1) == row(without, 0));  // a leading padding token moves nothing
}

// Every architecture of every family builds and runs from the tensors model_tensors lists for it
// (random values): the heads no fixture has (XLM-RoBERTa's, MPNet's classification, QA and token heads)
// read exactly the names and shapes the name map promises. Config keys as the family spells them.
TEST_CASE("families: every architecture of every family runs from the tensors its config expects") {
  for (const FamilySpec* family : families()) {
    for (const ArchitectureSpec& architecture : family->architectures) {
      INFO(architecture.name);
      nlohmann::json config = {{"model_type", family->model_type},
                               {"architectures", {architecture.name}},
                               {"vocab_size", 40},
                               {family->keys.hidden_size, 16},
                               {family->keys.num_layers, 1},
                               {family->keys.num_heads, 2},
                               {family->keys.intermediate_size, 32},
                               {"max_position_embeddings", 20},
                               {"pad_token_id", 1},
                               {"num_labels", 3}};
      if (family->keys.embedding_size) config[family->keys.embedding_size] = 16;
      const ModelConfig c = parse_model_config(config.dump(), architecture.name);
      auto weights = std::make_shared<const Weights>(random_weights(c, 7));
      Encoder encoder(c, weights);
      const std::vector<std::int32_t> ids = {0, 5, 1, 7, 2};
      const std::vector<TokenSequence> batch = {{ids, {}}};
      EncoderOutput out;
      encoder.forward(batch, out);
      CHECK(std::isfinite(out.row(0, 4)[15]));
      std::vector<float> logits;
      switch (c.head) {
        case HeadKind::MaskedLM:
        case HeadKind::PreTraining:
          if (architecture.mlm) {
            const TokenPosition at[] = {{0, 2}};
            MlmHead(c, *weights).forward(out, at, logits);
            CHECK(logits.size() == 40);
          }
          break;
        case HeadKind::SequenceClassification:
        case HeadKind::NextSentencePrediction:
          ClassificationHead(c, *weights).forward(out, logits);
          CHECK(logits.size() == (c.head == HeadKind::NextSentencePrediction ? 2u : 3u));
          break;
        case HeadKind::QuestionAnswering: {
          SpanLogits spans;
          QaHead(c, *weights).forward(out, spans);
          CHECK(spans.start.size() == ids.size());
          break;
        }
        case HeadKind::TokenClassification:
          TokenClassificationHead(c, *weights).forward(out, logits);
          CHECK(logits.size() == 3 * ids.size());
          break;
        case HeadKind::None: break;
      }
    }
  }
}
