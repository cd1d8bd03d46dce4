// DeBERTa-v3 end to end through the binary (fixtures/models3/deberta-v3-*, issue 32): every record of
// transformers' text-classification (NLI pairs, single texts and the one-logit reranker: top-1, every
// label, raw logits), token-classification (aggregation none and simple) and fill-mask pipelines (several masks,
// targets written with and without a leading space), from each folder and from its f32 file. The
// pipelines ran the slow DebertaV2Tokenizer, which gives no offsets: their start and end are null, and
// only what they have is compared.
#include "cli/task_cli_helpers.h"

#include <string>
#include <vector>

using nlohmann::json;

namespace {

using bktest::check_predictions;

// The targets as one --targets value: the pipeline's list, joined (spaces inside a word are kept).
std::string joined_targets(const json& targets) {
  std::string out;
  for (const json& t : targets) out += (out.empty() ? "" : ",") + t.get<std::string>();
  return out;
}

void check_fill_mask(const std::string& model) {
  const auto fills = bktest::pipeline_records(bktest::models3_goldens("deberta-v3-mlm"), "fill-mask");
  REQUIRE(fills.size() >= 10);
  for (const json& p : fills) {
    INFO(model << ": " << p.at("input") << " " << p.at("call").dump());
    std::vector<std::string> args{"fill-mask", "-m", model, "--top-k", std::to_string(p.at("call").at("top_k").get<int>())};
    if (p.at("call").contains("targets")) args = bktest::with(args, {"--targets", joined_targets(p.at("call").at("targets"))});
    const auto out = bktest::run_jsonl(bktest::with(args, {p.at("input").get<std::string>()}));
    REQUIRE(out.size() == 1);
    const json& got = out[0].at("predictions");
    const json& want = p.at("output");
    if (!want.empty() && want[0].is_array()) {  // several masks: a list per mask
      REQUIRE(got.size() == want.size());
      for (std::size_t m = 0; m < want.size(); ++m) check_predictions(got[m], want[m]);
    } else {
      check_predictions(got, want);
    }
  }
}

// classify's arguments for a text-classification call (a pair or one text): top_k None = every label,
// function_to_apply.
std::vector<std::string> classify_args(const std::string& model, const json& call, bool pair) {
  std::vector<std::string> args{"classify", "-m", model};
  if (pair) args.push_back("--pairs");
  if (call.contains("top_k")) args = bktest::with(args, {"--top-k", "all"});
  if (call.contains("function_to_apply")) args = bktest::with(args, {"--function", call.at("function_to_apply").get<std::string>()});
  return args;
}

void check_classify(const std::string& fixture, const std::string& model) {
  const auto classes = bktest::pipeline_records(bktest::models3_goldens(fixture), "text-classification");
  REQUIRE(!classes.empty());
  for (const json& p : classes) {
    const json& in = p.at("input");
    INFO(model << ": " << in.dump() << " " << p.at("call").dump());
    const std::string text = in.is_string() ? in.get<std::string>()
                                            : in.at("text").get<std::string>() + "\t" + in.at("text_pair").get<std::string>();
    const auto out = bktest::run_jsonl(bktest::with(classify_args(model, p.at("call"), !in.is_string()), {text}));
    REQUIRE(out.size() == 1);
    const json& want = p.at("output");
    if (!p.at("call").contains("top_k")) {  // the top label alone (a list of it for a text, as 4.33 returns it)
      const json& top = want.is_array() ? want.at(0) : want;
      CHECK(out[0].at("label") == top.at("label"));
      CHECK(bktest::near_score(out[0].at("score"), top.at("score")));
      continue;
    }
    const json& got = out[0].at("scores");
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
      CHECK(got[k].at("label") == want[k].at("label"));
      CHECK(bktest::near_score(got[k].at("score"), want[k].at("score")));
    }
  }
}

void check_ner(const std::string& model) {
  const auto tagged = bktest::pipeline_records(bktest::models3_goldens("deberta-v3-ner"), "token-classification");
  REQUIRE(tagged.size() >= 20);
  for (const json& p : tagged) {
    const std::string aggregation = p.at("call").at("aggregation_strategy").get<std::string>();
    INFO(model << ": " << aggregation << " " << p.at("input"));
    const auto out = bktest::run_jsonl({"ner", "-m", model, "--aggregation", aggregation, p.at("input").get<std::string>()});
    REQUIRE(out.size() == 1);
    bktest::check_entities(out[0].at("entities"), p.at("output"));
  }
}

}  // namespace

TEST_CASE("deberta-v3 fill-mask: every pipeline record (several masks, targets with a leading space), folder and f32 file") {
  check_fill_mask(bktest::models3_path("deberta-v3-mlm"));
  const bktest::TempDir dir;
  check_fill_mask(bktest::converted_f32(dir, bktest::models3_path("deberta-v3-mlm"), "mlm"));
}

TEST_CASE("deberta-v3 classify: the NLI and reranker pipelines' top label, every label and raw logits, folder and f32 file") {
  const bktest::TempDir dir;
  for (const char* fixture : {"deberta-v3-nli", "deberta-v3-rerank"}) {
    check_classify(fixture, bktest::models3_path(fixture));
    check_classify(fixture, bktest::converted_f32(dir, bktest::models3_path(fixture), fixture));
  }
}

TEST_CASE("deberta-v3 ner: the token-classification pipeline without aggregation and with simple, folder and f32 file") {
  check_ner(bktest::models3_path("deberta-v3-ner"));
  const bktest::TempDir dir;
  check_ner(bktest::converted_f32(dir, bktest::models3_path("deberta-v3-ner"), "ner"));
}

// transformers takes a target as written: in a byte-level BPE vocabulary " Paris" is "ĠParis", another
// token than "Paris" (wave 2's roberta-mlm record), so --targets keeps the spaces it is given.
TEST_CASE("fill-mask --targets keeps a word's leading space, as the pipeline's list does (roberta-mlm)") {
  const json g = bktest::models2_goldens("roberta-mlm");
  for (const json& p : bktest::pipeline_records(g, "fill-mask")) {
    if (!p.at("call").contains("targets")) continue;
    INFO(p.at("call").dump());
    const auto out = bktest::run_jsonl({"fill-mask", "-m", bktest::models2_path("roberta-mlm"), "--top-k",
                                        std::to_string(p.at("call").at("top_k").get<int>()), "--targets",
                                        joined_targets(p.at("call").at("targets")), p.at("input").get<std::string>()});
    REQUIRE(out.size() == 1);
    check_predictions(out[0].at("predictions"), p.at("output"));
  }
}

// int8 keeps the relative embeddings a float table (they are normalised as rows; an int8 file once
// failed to load with "tensor of dtype I8 is not floating point"), bf16 widens them as read.
TEST_CASE("deberta-v3 convert --verify: bf16 and int8 files load and keep the classifier's choices") {
  for (const char* dtype : {"bf16", "int8"}) bktest::check_convert_verify(bktest::models3_path("deberta-v3-nli"), dtype);
}
