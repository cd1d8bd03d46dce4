// Static embedding models end to end through the binary (fixtures/models3/static-tiny,
// static-tiny-m2v): sentence-transformers' StaticEmbedding and model2vec's StaticModel.encode for every
// golden text within 1e-5, the token ids they averaged, similarity and search scores, the flags that do
// not apply, and hostile folders refused in one line.
#include "cli/task_cli_helpers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using nlohmann::json;

namespace {

constexpr double kStaticTolerance = 1e-5;  // RETRIEVAL.md: static embeddings within 1e-5

// The goldens' texts as a JSONL file (the empty and white-space texts included), one record each.
std::string texts_file(const bktest::TempDir& dir, const json& goldens) {
  std::string lines;
  for (const json& e : goldens.at("embeddings")) lines += json{{"text", e.at("text")}}.dump() + "\n";
  const auto path = dir / "texts.jsonl";
  bktest::write_file(path, lines);
  return path.string();
}

double worst_difference(const json& got, const json& want) {
  const auto a = got.get<std::vector<double>>();
  const auto b = want.get<std::vector<double>>();
  REQUIRE(a.size() == b.size());
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

double cosine(const json& x, const json& y) {
  const auto a = x.get<std::vector<double>>();
  const auto b = y.get<std::vector<double>>();
  const double dot = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  const double na = std::sqrt(std::inner_product(a.begin(), a.end(), a.begin(), 0.0));
  const double nb = std::sqrt(std::inner_product(b.begin(), b.end(), b.begin(), 0.0));
  return dot / std::max(na * nb, 1e-8);  // sentence-transformers' cos_sim clamps the norms
}

void check_static_embeddings(const std::string& fixture) {
  const json g = bktest::models3_goldens(fixture);
  const bktest::TempDir dir;
  const auto out = bktest::run_jsonl({"embed", "-m", bktest::models3_path(fixture), "-i", texts_file(dir, g)});
  const json& want = g.at("embeddings");
  REQUIRE(out.size() == want.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    INFO(fixture << " text " << i << ": " << want[i].at("text").get<std::string>().substr(0, 60));
    CHECK(worst_difference(out[i].at("embedding"), want[i].at("embedding")) <= kStaticTolerance);
  }
}

// The ids bertkit's tokenizer gives each text without special tokens.
std::vector<json> token_ids(const std::string& fixture, const json& goldens) {
  const bktest::TempDir dir;
  return bktest::run_jsonl({"tokenize", "-m", bktest::models3_path(fixture), "--no-special-tokens", "-i",
                            texts_file(dir, goldens)});
}

// A copy of a fixture to break, as dir/name.
std::filesystem::path copy_fixture(const bktest::TempDir& dir, const std::string& fixture, const std::string& name) {
  const auto to = dir / name;
  std::filesystem::copy(bktest::shared("fixtures/models3/" + fixture), to, std::filesystem::copy_options::recursive);
  for (const auto& f : std::filesystem::recursive_directory_iterator(to))
    std::filesystem::permissions(f.path(), std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::permissions(to, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  return to;
}

// One line on stderr naming `names`, and exit status `code`.
void check_refused(const std::vector<std::string>& args, int code, const std::string& names) {
  const auto r = bktest::run_bertkit(args);
  INFO(r.err);
  CHECK(r.exit_code == code);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(names) != std::string::npos);
}

}  // namespace

TEST_CASE("static embeddings: sentence-transformers StaticEmbedding and model2vec encode, every golden text") {
  check_static_embeddings("static-tiny");
  check_static_embeddings("static-tiny-m2v");
}

TEST_CASE("static embeddings: the ids averaged are the tokenizer's without special tokens") {
  const json g = bktest::models3_goldens("static-tiny");
  const auto out = token_ids("static-tiny", g);
  REQUIRE(out.size() == g.at("embeddings").size());
  for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i].at("ids") == g.at("embeddings")[i].at("input_ids"));
  // model2vec's ids are the tokenizer's where its rules removed and cut nothing.
  const json m = bktest::models3_goldens("static-tiny-m2v");
  const auto m2v = token_ids("static-tiny-m2v", m);
  std::size_t same = 0;
  for (std::size_t i = 0; i < m2v.size(); ++i) {
    const json& e = m.at("embeddings")[i];
    if (e.at("unk_removed") != 0 || e.at("input_ids").size() == 512) continue;
    CHECK(m2v[i].at("ids") == e.at("input_ids"));
    ++same;
  }
  CHECK(same == 8);
}

TEST_CASE("static embeddings: model2vec's goldens cover its unknown-token removal, character cut and 512 cut") {
  const json m = bktest::models3_goldens("static-tiny-m2v");
  bool removed = false, emptied = false, cut = false;
  for (const json& e : m.at("embeddings")) {
    removed = removed || e.at("unk_removed").get<int>() > 0;
    emptied = emptied || (e.at("unk_removed").get<int>() > 0 && e.at("input_ids").empty());
    cut = cut || (e.at("chars_cut_to").get<std::size_t>() == 512 * 6 && e.at("input_ids").size() == 512);
  }
  CHECK(removed);
  CHECK(emptied);  // "🙂" alone: no id left, the zero vector
  CHECK(cut);
  // --max-length is model2vec's encode(max_length=N): 4 ids of a text cut to 4 × 6 characters.
  const json& four = m.at("embeddings")[9];
  REQUIRE(four.at("text") == "word word word word");
  const auto out = bktest::run_jsonl({"embed", "-m", bktest::models3_path("static-tiny-m2v"), "--max-length", "4",
                                      "word word word word word word"});
  CHECK(worst_difference(out.at(0).at("embedding"), four.at("embedding")) <= kStaticTolerance);
}

TEST_CASE("static embeddings: similarity and search score the cosine of the two embeddings") {
  for (const char* fixture : {"static-tiny", "static-tiny-m2v"}) {
    INFO(fixture);
    const json e = bktest::models3_goldens(fixture).at("embeddings");
    const std::string model = bktest::models3_path(fixture);
    const auto pair = bktest::run_jsonl({"similarity", "-m", model, e[0].at("text"), e[1].at("text")});
    CHECK(std::abs(pair.at(0).at("score").get<double>() - cosine(e[0].at("embedding"), e[1].at("embedding"))) <=
          kStaticTolerance);
    const bktest::TempDir dir;
    const auto corpus = dir / "corpus.txt";
    bktest::write_file(corpus, e[1].at("text").get<std::string>() + "\n" + e[2].at("text").get<std::string>() + "\n");
    const auto found = bktest::run_jsonl({"similarity", "-m", model, "--query", e[0].at("text"), "--corpus",
                                          corpus.string(), "--top-k", "2"});
    const json& results = found.at(0).at("results");
    REQUIRE(results.size() == 2);
    for (const json& hit : results) {
      const json& doc = e[hit.at("index").get<std::size_t>() + 1];
      CHECK(std::abs(hit.at("score").get<double>() - cosine(e[0].at("embedding"), doc.at("embedding"))) <=
            kStaticTolerance);
    }
  }
}

TEST_CASE("static embeddings: --dry-run and info say what the folder is") {
  const auto plan = bktest::run_bertkit({"embed", "-m", bktest::models3_path("static-tiny-m2v"), "--dry-run", "x"});
  REQUIRE(plan.exit_code == 0);
  CHECK(plan.out.find("static embeddings (model2vec StaticModel)") != std::string::npos);
  CHECK(plan.out.find("x / (|x| + 1e-32) (normalize of config.json)") != std::string::npos);
  CHECK(plan.out.find("512 tokens, the unknown token's removed, of a text cut to its first 3072 characters") !=
        std::string::npos);
  const auto info = bktest::run_bertkit({"info", "--json", bktest::models3_path("static-tiny")});
  REQUIRE(info.exit_code == 0);
  const json j = json::parse(info.out);
  CHECK(j.at("architecture") == "StaticEmbedding");
  CHECK(j.at("dimension") == 24);
  CHECK(j.at("vocab_size") == 30522);
  CHECK(j.at("normalize") == false);
}

TEST_CASE("static embeddings: flags that cannot apply, and other commands, are refused in one line") {
  const std::string st = bktest::models3_path("static-tiny");
  const std::string m2v = bktest::models3_path("static-tiny-m2v");
  check_refused({"embed", "-m", st, "--pooling", "cls", "x"}, 2, "--pooling");
  check_refused({"embed", "-m", st, "--token-embeddings", "x"}, 2, "--token-embeddings");
  check_refused({"embed", "-m", st, "--max-length", "8", "x"}, 2, "--max-length");
  check_refused({"embed", "-m", st, "--dtype", "bf16", "x"}, 2, "--dtype");
  check_refused({"embed", "-m", m2v, "--truncate", "error", "x"}, 2, "--truncate error");
  check_refused({"classify", "-m", st, "x"}, 3, "static embedding model");
  check_refused({"fill-mask", "-m", m2v, "a [MASK]"}, 3, "static embedding model");
}

TEST_CASE("static embeddings: a missing or malformed file is refused in one line naming it") {
  const bktest::TempDir dir;
  {
    const auto folder = copy_fixture(dir, "static-tiny", "no-tokenizer");
    std::filesystem::remove(folder / "0_StaticEmbedding" / "tokenizer.json");
    check_refused({"embed", "-m", folder.string(), "x"}, 3, "tokenizer.json");
  }
  {
    const auto folder = copy_fixture(dir, "static-tiny-m2v", "other-table");
    std::filesystem::remove(folder / "model.safetensors");
    std::filesystem::copy_file(bktest::shared("fixtures/models3/static-tiny/0_StaticEmbedding/model.safetensors"),
                               folder / "model.safetensors");
    check_refused({"embed", "-m", folder.string(), "x"}, 3, "embeddings");
  }
  {
    const auto folder = copy_fixture(dir, "static-tiny-m2v", "bad-normalize");
    json config = bktest::read_json(folder / "config.json");
    config["normalize"] = "yes";
    bktest::write_file(folder / "config.json", config.dump());
    check_refused({"embed", "-m", folder.string(), "x"}, 3, "normalize");
  }
  {
    const auto folder = copy_fixture(dir, "static-tiny", "dense-after");
    json modules = bktest::read_json(folder / "modules.json");
    modules.push_back({{"idx", 1}, {"name", "1"}, {"path", "1_Dense"}, {"type", "sentence_transformers.models.Dense"}});
    bktest::write_file(folder / "modules.json", modules.dump());
    check_refused({"embed", "-m", folder.string(), "x"}, 3, "1_Dense");
  }
}
