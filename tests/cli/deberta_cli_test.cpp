// DeBERTa-v2/v3 folders through the binary before their spm.model tokenizer is read: `info` describes
// each fixture (its family, head, labels and disentangled-attention settings, the weights of a
// pytorch_model.bin zip as of a safetensors file), and settings bertkit does not compute are refused
// with one line naming config.json and the key (exit 3). The model's numbers are checked from the
// goldens' token ids in tests/golden/deberta_goldens_test.cpp.
#include "support.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace {

std::string deberta_fixture(const char* name) { return bktest::shared(std::string("fixtures/models3/") + name).string(); }

}  // namespace

TEST_CASE("info: the DeBERTa-v3 folders, their heads and disentangled attention as config.json sets it") {
  struct Expected {
    const char* name;
    const char* head;
    int buckets, layers, labels;
  };
  for (const Expected& e : {Expected{"deberta-v3-nli", "sequence-classification", 16, 2, 3},
                            Expected{"deberta-v3-rerank", "sequence-classification", 32, 2, 1},
                            Expected{"deberta-v3-ner", "token-classification", 16, 3, 9},
                            Expected{"deberta-v3-mlm", "masked-lm", 32, 2, 0}}) {
    INFO(e.name);
    auto r = bktest::run_bertkit({"info", "--json", deberta_fixture(e.name)});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["model_type"] == "deberta-v2");
    CHECK(j["head"] == e.head);
    CHECK(j["num_layers"] == e.layers);
    CHECK(j["vocab_size"] == 128100);
    CHECK(j["type_vocab_size"] == 0);
    CHECK(!j.contains("embedding_size"));  // none in config.json: hidden_size, no projection
    CHECK(j["layer_norm_eps"].get<double>() == 1e-7);
    CHECK(j["pos_att_type"] == "c2p|p2c");  // a list in nli and ner, the string "p2c|c2p" in rerank and mlm
    CHECK(j["relative_attention"] == true);
    CHECK(j["position_buckets"] == e.buckets);
    CHECK(j["max_relative_positions"] == 512);  // -1: max_position_embeddings
    CHECK(j["share_att_key"] == true);
    CHECK(j["norm_rel_ebd"] == true);
    CHECK(j.value("num_labels", 0) == e.labels);
  }
}

TEST_CASE("deberta-v2: settings bertkit does not compute are refused naming config.json and the key, exit 3") {
  bktest::TempDir dir;
  const auto folder = dir / "nli";
  std::filesystem::copy(deberta_fixture("deberta-v3-nli"), folder, std::filesystem::copy_options::recursive);
  std::filesystem::permissions(folder / "config.json", std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  auto config = bktest::read_json(folder / "config.json");
  config["conv_kernel_size"] = 3;
  bktest::write_file(folder / "config.json", config.dump());
  auto r = bktest::run_bertkit({"info", folder.string()});
  CHECK(r.exit_code == 3);
  CHECK(r.out.empty());
  CHECK(bktest::split_lines(r.err).size() == 1);
  CHECK(r.err.find("config.json") != std::string::npos);
  CHECK(r.err.find("conv_kernel_size") != std::string::npos);

  config.erase("conv_kernel_size");
  config["model_type"] = "deberta";  // DeBERTa v1
  bktest::write_file(folder / "config.json", config.dump());
  r = bktest::run_bertkit({"info", folder.string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("unsupported model_type \"deberta\"") != std::string::npos);
}
