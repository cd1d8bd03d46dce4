// A head whose tensors are all absent is not there (issue 30 item 0): all-mpnet-base-v2's Hub
// config.json names MPNetForMaskedLM over MPNetModel's weights, and sentence-transformers and
// AutoModel load the encoder; so do embed, similarity, info and convert. A command that needs the head
// says which and which tensors are missing; a head in part present is refused naming what it lacks.
#include "cli/task_cli_helpers.h"
#include "unit/checkpoint_builders.h"

#include <cstring>

namespace fs = std::filesystem;

namespace {

// A copy of fixture `from` (a folder of ../shared/fixtures) whose config.json names `architecture`,
// laid out as the Hub lays the original out (modules.json, 1_Pooling, ...).
std::string with_architecture(const bktest::TempDir& dir, const std::string& from, const std::string& architecture) {
  const fs::path to = dir / "model";
  fs::copy(bktest::shared("fixtures/" + from), to, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(to))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  auto config = bktest::read_json(to / "config.json");
  config["architectures"] = {architecture};
  bktest::write_file(to / "config.json", config.dump(2));
  return to.string();
}

// The tensors of a safetensors file, for a test to rewrite it without some.
std::vector<bktest::TestTensor> read_tensors(const fs::path& file) {
  const std::string bytes = bktest::read_file(file);
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  const auto header = nlohmann::json::parse(bytes.substr(8, n));
  std::vector<bktest::TestTensor> out;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    const auto begin = t["data_offsets"][0].get<std::size_t>(), end = t["data_offsets"][1].get<std::size_t>();
    out.push_back({name, t["dtype"], t["shape"].get<std::vector<std::int64_t>>(), bytes.substr(8 + n + begin, end - begin)});
  }
  return out;
}

const std::vector<std::string> kHeadlessTexts = {"A man is eating food.", "Someone plays the guitar."};

std::vector<std::string> with_texts(std::vector<std::string> args) {
  args.insert(args.end(), kHeadlessTexts.begin(), kHeadlessTexts.end());
  return args;
}

// embed, similarity, info and convert take the folder as the bare encoder's; fill-mask names the head.
void check_encoder_alone(const std::string& bare, const std::string& named, const std::string& architecture,
                         const std::vector<std::string>& head_tensors) {
  for (const std::string command : {"embed", "similarity"}) {
    INFO(command);
    auto want = bktest::run_bertkit(with_texts({command, "-m", bare}));
    auto got = bktest::run_bertkit(with_texts({command, "-m", named}));
    INFO(got.err);
    REQUIRE(want.exit_code == 0);
    CHECK(got.exit_code == 0);
    CHECK(got.out == want.out);
  }
  auto info = bktest::run_bertkit({"info", named});
  INFO(info.err);
  CHECK(info.exit_code == 0);
  CHECK(info.out.find(architecture) != std::string::npos);
  CHECK(info.out.find("absent_head") != std::string::npos);

  bktest::TempDir out;
  const std::string converted = (out / "model.bk").string();
  auto convert = bktest::run_bertkit({"convert", named, converted});
  INFO(convert.err);
  REQUIRE(convert.exit_code == 0);
  auto want = bktest::run_bertkit(with_texts({"embed", "-m", bare}));
  auto got = bktest::run_bertkit(with_texts({"embed", "-m", converted}));
  CHECK(got.exit_code == 0);
  CHECK(got.out == want.out);

  for (const std::string& model : {named, converted}) {
    auto fill = bktest::run_bertkit({"fill-mask", "-m", model, "Paris is the <mask> of France."});
    CHECK(fill.exit_code == 3);
    CHECK(fill.out.empty());
    CHECK(fill.err.find("masked-language") != std::string::npos);
    CHECK(fill.err.find(architecture) != std::string::npos);
    for (const auto& tensor : head_tensors) CHECK(fill.err.find(tensor) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("absent head: all-mpnet-base-v2's layout (MPNetForMaskedLM over MPNetModel) runs as its encoder") {
  bktest::TempDir dir;
  const std::string named = with_architecture(dir, "models2/mpnet-embed", "MPNetForMaskedLM");
  check_encoder_alone(bktest::models2_path("mpnet-embed"), named, "MPNetForMaskedLM",
                      {"lm_head.dense.weight", "lm_head.bias"});
}

TEST_CASE("absent head: a BERT folder naming BertForMaskedLM over a bare encoder runs as its encoder") {
  bktest::TempDir dir;
  const std::string named = with_architecture(dir, "models/minilm-embed", "BertForMaskedLM");
  check_encoder_alone(bktest::fixture_path("minilm-embed"), named, "BertForMaskedLM",
                      {"cls.predictions.transform.dense.weight", "cls.predictions.bias"});
}

TEST_CASE("absent head: a command needing another head keeps its usage error, one of classify's is absent too") {
  bktest::TempDir dir;
  const std::string named = with_architecture(dir, "models2/mpnet-embed", "MPNetForSequenceClassification");
  auto embed = bktest::run_bertkit(with_texts({"embed", "-m", named}));
  CHECK(embed.exit_code == 0);
  auto classify = bktest::run_bertkit({"classify", "-m", named, "great"});
  CHECK(classify.exit_code == 3);
  CHECK(classify.err.find("sequence-classification") != std::string::npos);
  CHECK(classify.err.find("classifier.out_proj.weight") != std::string::npos);
  auto ner = bktest::run_bertkit({"ner", "-m", named, "Angela Merkel"});
  CHECK(ner.exit_code == 2);
  CHECK(ner.err.find("token-classification") != std::string::npos);
}

TEST_CASE("absent head: a head in part present is refused naming the tensor it lacks, as the checkpoint spells it") {
  bktest::TempDir dir;
  const fs::path to = dir / "model";
  fs::copy(bktest::shared("fixtures/models/bert-uncased-mlm"), to, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(to))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  fs::remove(to / "pytorch_model.bin");
  auto tensors = read_tensors(to / "model.safetensors");
  const auto before = tensors.size();
  std::erase_if(tensors, [](const auto& t) { return t.name == "cls.predictions.bias"; });
  REQUIRE(tensors.size() == before - 1);
  bktest::write_file(to / "model.safetensors", bktest::safetensors(tensors));
  for (const std::string command : {"embed", "fill-mask"}) {
    auto r = bktest::run_bertkit({command, "-m", to.string(), "Paris is the [MASK] of France."});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("missing tensor cls.predictions.bias (shape [") != std::string::npos);
  }
}
