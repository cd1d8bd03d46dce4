// Learned-sparse vectors end to end (issue 34): a sentence-transformers 6 SparseEncoder folder
// (splade-bert) and BGE-M3's three outputs, dense, sparse_linear.pt and colbert_linear.pt (bge-m3-tiny),
// from their folders and converted files, against the goldens of sentence-transformers' encode and
// FlagEmbedding's M3Embedder and compute_score.
#include "cli/task_cli_helpers.h"
#include "unit/checkpoint_builders.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

const std::string kSplade = bktest::shared("fixtures/models3/splade-bert").string();
const std::string kM3 = bktest::shared("fixtures/models3/bge-m3-tiny").string();

json splade_goldens() { return bktest::read_json(fs::path(kSplade) / "goldens.json"); }
json m3_goldens() { return bktest::read_json(fs::path(kM3) / "goldens.json"); }

std::string jsonl_of(const std::vector<std::string>& texts) {
  std::string lines;
  for (const std::string& t : texts) lines += json{{"text", t}}.dump() + "\n";
  return lines;
}

std::vector<std::string> splade_texts() { return splade_goldens().at("texts").get<std::vector<std::string>>(); }
std::vector<std::string> m3_texts() {
  std::vector<std::string> texts;
  const json g = m3_goldens();  // held: a loop over a temporary's member would read freed memory
  for (const json& e : g.at("embeddings")) texts.push_back(e.at("text"));
  return texts;
}

// The same ids, each value within 1e-4.
void check_sparse(const json& got, const json& expected) {
  REQUIRE(got.at("indices") == expected.at("indices"));
  const json& values = got.at("values");
  REQUIRE(values.size() == expected.at("values").size());
  double worst = 0;
  for (std::size_t k = 0; k < values.size(); ++k)
    worst = std::max(worst, std::abs(values[k].get<double>() - expected.at("values")[k].get<double>()));
  CHECK(worst <= bktest::kTolerance);
}

double dense_diff(const json& got, const json& expected) {
  REQUIRE(got.size() == expected.size());
  double worst = 0;
  for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::abs(got[k].get<double>() - expected[k].get<double>()));
  return worst;
}

// Σ over shared ids of a·b, from golden sparse vectors.
double golden_dot(const json& a, const json& b) {
  std::map<int, double> av;
  for (std::size_t k = 0; k < a.at("indices").size(); ++k) av[a["indices"][k].get<int>()] = a["values"][k].get<double>();
  double sum = 0;
  for (std::size_t k = 0; k < b.at("indices").size(); ++k)
    if (auto it = av.find(b["indices"][k].get<int>()); it != av.end()) sum += it->second * b["values"][k].get<double>();
  return sum;
}

std::string converted(const bktest::TempDir& dir, const std::string& model, const std::string& name) {
  const std::string file = (dir / name).string();
  const auto r = run_bertkit({"-q", "convert", model, file});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return file;
}

void check_splade_embed(const std::string& model) {
  const json g = splade_goldens();
  const auto rows = bktest::run_jsonl({"embed", "-m", model, "--jsonl"}, jsonl_of(splade_texts()));
  REQUIRE(rows.size() == g.at("sparse").size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("text " << i);
    CHECK(!rows[i].contains("embedding"));
    check_sparse(rows[i].at("sparse"), g.at("sparse")[i]);
  }
}

// Each token's vector within 1e-4 of the golden's, as many as it has.
void check_colbert(const json& got, const json& expected) {
  REQUIRE(got.size() == expected.size());
  double worst = 0;
  for (std::size_t t = 0; t < got.size(); ++t) worst = std::max(worst, dense_diff(got[t], expected[t]));
  CHECK(worst <= bktest::kTolerance);
}

void check_m3_embed(const std::string& model) {
  const json g = m3_goldens();
  const auto run = run_bertkit({"embed", "-m", model, "--jsonl", "--vectors", "dense,sparse,colbert"}, jsonl_of(m3_texts()));
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const auto rows = bktest::json_lines(run.out);
  REQUIRE(rows.size() == g.at("embeddings").size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("text " << i);
    const json& e = g.at("embeddings")[i];
    CHECK(dense_diff(rows[i].at("embedding"), e.at("dense")) <= bktest::kTolerance);
    check_sparse(rows[i].at("sparse"), e.at("sparse"));
    check_colbert(rows[i].at("colbert"), e.at("colbert"));
    CHECK(rows[i].contains("truncated") == e.at("truncated").get<bool>());
  }
  // --vectors gives the fields' order.
  const auto one = run_bertkit({"embed", "-m", model, "--vectors", "colbert,dense", m3_texts()[0]});
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("\"colbert\":") < one.out.find("\"embedding\":"));
  CHECK(one.out.find("\"embedding\":") != std::string::npos);
  // Without --vectors: the dense embedding only, as sentence-transformers gives for the folder.
  const auto plain = bktest::run_jsonl({"embed", "-m", model, "--jsonl"}, jsonl_of(m3_texts()));
  for (std::size_t i = 0; i < plain.size(); ++i) {
    CHECK(!plain[i].contains("sparse"));
    CHECK(dense_diff(plain[i].at("embedding"), g.at("embeddings")[i].at("dense")) <= bktest::kTolerance);
  }
}

// similarity --mode dense|sparse|colbert|hybrid (text = query, pair = passage) against scores.pairs:
// hybrid with the goldens' weights, and with ColBERT's weighted 0 (FlagEmbedding's sparse+dense).
void check_m3_similarity(const std::string& model) {
  const json g = m3_goldens();
  std::string input;
  for (const json& p : g.at("scores").at("pairs"))
    input += json{{"text", p.at("query_text")}, {"text_pair", p.at("passage_text")}}.dump() + "\n";
  const json& w = g.at("scores").at("weights_for_different_modes");
  const std::string weights = fmt::format("{},{},{}", w[0].get<double>(), w[1].get<double>(), w[2].get<double>());
  const std::string no_colbert = fmt::format("{},{},0", w[0].get<double>(), w[1].get<double>());
  const std::vector<std::pair<std::vector<std::string>, std::string>> modes = {
      {{"--mode", "dense"}, "dense"},
      {{"--mode", "sparse"}, "sparse"},
      {{"--mode", "colbert"}, "colbert"},
      {{"--mode", "hybrid", "--weights", weights}, "colbert+sparse+dense"},
      {{"--mode", "hybrid", "--weights", no_colbert}, "sparse+dense"}};
  for (const auto& [flags, golden] : modes) {
    const std::string& mode_golden = golden;  // clang: a structured binding cannot be captured by INFO
    INFO(mode_golden);
    std::vector<std::string> args = {"similarity", "-m", model, "--jsonl", "--pair-field", "text_pair"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto rows = bktest::run_jsonl(args, input);
    REQUIRE(rows.size() == g.at("scores").at("pairs").size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const json& want = g["scores"]["pairs"][i];
      CHECK(std::abs(rows[i].at("score").get<double>() - want.at(golden).get<double>()) <= bktest::kTolerance);
      if (flags[1] != "hybrid") continue;
      // Each kind's own score beside the weighted one, the kinds weighted 0 left out.
      const json& parts = rows[i].at("scores");
      CHECK(parts.size() == (golden == "sparse+dense" ? 2u : 3u));
      for (const auto& [kind, score] : parts.items())
        CHECK(std::abs(score.get<double>() - want.at(kind).get<double>()) <= bktest::kTolerance);
    }
  }
}

}  // namespace

TEST_CASE("sparse: a SparseEncoder folder and its converted file give sentence-transformers' sparse vectors") {
  check_splade_embed(kSplade);
  bktest::TempDir dir;
  check_splade_embed(converted(dir, kSplade, "splade.bk"));
}

TEST_CASE("sparse: BGE-M3's dense, sparse and ColBERT vectors, folder and converted, and similarity in every mode") {
  check_m3_embed(kM3);
  check_m3_similarity(kM3);
  bktest::TempDir dir;
  const std::string file = converted(dir, kM3, "m3.bk");
  check_m3_embed(file);
  check_m3_similarity(file);
}

TEST_CASE("sparse: rerank --mode with BGE-M3 scores each query's passages as compute_score does, best first") {
  const json g = m3_goldens();
  const json& w = g.at("scores").at("weights_for_different_modes");
  const std::string weights = fmt::format("{},{},{}", w[0].get<double>(), w[1].get<double>(), w[2].get<double>());
  // One JSONL record per query, its passages in the goldens' order.
  std::map<std::string, std::vector<const json*>> by_query;
  for (const json& p : g.at("scores").at("pairs")) by_query[p.at("query_text")].push_back(&p);
  std::string input;
  for (const auto& [query, pairs] : by_query) {
    json documents = json::array();
    for (const json* p : pairs) documents.push_back(p->at("passage_text"));
    input += json{{"query", query}, {"documents", documents}}.dump() + "\n";
  }
  const std::vector<std::pair<std::vector<std::string>, std::string>> modes = {
      {{"--mode", "dense"}, "dense"},
      {{"--mode", "sparse"}, "sparse"},
      {{"--mode", "colbert"}, "colbert"},
      {{"--mode", "hybrid", "--weights", weights}, "colbert+sparse+dense"}};
  for (const auto& [flags, golden] : modes) {
    const std::string& mode_golden = golden;  // clang: a structured binding cannot be captured by INFO
    INFO(mode_golden);
    std::vector<std::string> args = {"rerank", "-m", kM3, "--jsonl"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto rows = bktest::run_jsonl(args, input);
    REQUIRE(rows.size() == by_query.size());
    std::size_t q = 0;
    for (const auto& [query, pairs] : by_query) {
      const json& results = rows[q++].at("results");
      REQUIRE(results.size() == pairs.size());
      double previous = 1e9;
      for (const json& r : results) {
        const double want = pairs.at(r.at("corpus_id").get<std::size_t>())->at(golden).get<double>();
        CHECK(std::abs(r.at("score").get<double>() - want) <= bktest::kTolerance);
        CHECK(want <= previous + bktest::kTolerance);  // best first, by the golden scores too
        previous = want;
      }
    }
  }
  // Without --mode a bi-encoder is refused, as is --mode for a cross-encoder.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"rerank", "-m", kM3, "--query", "q", "a", "b"},
        std::vector<std::string>{"rerank", "-m", bktest::models3_path("deberta-v3-rerank"), "--mode", "dense", "--query", "q", "a"}}) {
    auto r = run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(bktest::count_lines(r.err) == 1);
  }
}

TEST_CASE("sparse: a search with BGE-M3 scores every mode, hybrid included, as compute_score scores each pair") {
  const json g = m3_goldens();
  const auto texts = m3_texts();
  bktest::TempDir dir;
  std::string corpus;
  for (const auto& t : texts) corpus += json{{"text", t}}.dump() + "\n";
  bktest::write_file(dir / "corpus.jsonl", corpus);
  const json& w = g.at("scores").at("weights_for_different_modes");
  const std::string weights = fmt::format("{},{},{}", w[0].get<double>(), w[1].get<double>(), w[2].get<double>());
  for (const auto& [flags, golden] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--mode", "colbert"}, "colbert"}, {{"--mode", "hybrid", "--weights", weights}, "colbert+sparse+dense"}}) {
    const std::string& mode_golden = golden;  // clang: a structured binding cannot be captured by INFO
    INFO(mode_golden);
    for (const json& p : g.at("scores").at("pairs")) {
      std::vector<std::string> args = {"similarity", "-m", kM3, "--query", p.at("query_text"), "--corpus",
                                       (dir / "corpus.jsonl").string(), "--top-k", std::to_string(texts.size())};
      args.insert(args.end(), flags.begin(), flags.end());
      const auto hits = bktest::run_jsonl(args);
      REQUIRE(hits.size() == 1);
      const json& results = hits[0].at("results");
      REQUIRE(results.size() == texts.size());
      const auto hit = std::find_if(results.begin(), results.end(), [&](const json& r) { return r.at("index") == p.at("passage"); });
      REQUIRE(hit != results.end());
      CHECK(std::abs(hit->at("score").get<double>() - p.at(golden).get<double>()) <= bktest::kTolerance);
    }
  }
}

TEST_CASE("sparse: --dry-run says which vectors each record gets and how each is made") {
  const auto splade = run_bertkit({"embed", "-m", kSplade, "--dry-run", "--sparse-top-k", "7"});
  REQUIRE(splade.exit_code == 0);
  CHECK(splade.out.find("vectors:          sparse (field sparse)\n") != std::string::npos);
  CHECK(splade.out.find("SpladePooling: the max over the tokens of log1p(relu(x))") != std::string::npos);
  CHECK(splade.out.find("the 7 largest kept") != std::string::npos);
  CHECK(splade.out.find("pooling:") == std::string::npos);  // no dense embedding is made
  CHECK(splade.out.find("dimension:") == std::string::npos);
  const auto m3 = run_bertkit({"embed", "-m", kM3, "--dry-run", "--vectors", "colbert,sparse,dense"});
  REQUIRE(m3.exit_code == 0);
  CHECK(m3.out.find("colbert (field colbert), sparse (field sparse), dense (field embedding)") != std::string::npos);
  CHECK(m3.out.find("colbert_linear.pt: every token after the first projected to 16 values") != std::string::npos);
  CHECK(m3.out.find("sparse_linear.pt: relu(") != std::string::npos);
  CHECK(m3.out.find("pooling:          cls") != std::string::npos);
}

TEST_CASE("sparse: similarity and search of a SparseEncoder score the dot product of the sparse vectors") {
  const json g = splade_goldens();
  const auto texts = splade_texts();
  const auto pair = bktest::run_jsonl({"similarity", "-m", kSplade, texts[0], texts[1]});
  REQUIRE(pair.size() == 1);
  const double expected = golden_dot(g["sparse"][0], g["sparse"][1]);
  CHECK(std::abs(pair[0].at("score").get<double>() - expected) <= bktest::kTolerance * std::max(1.0, expected));

  bktest::TempDir dir;
  std::string corpus;
  for (std::size_t i = 1; i < texts.size(); ++i) corpus += json{{"text", texts[i]}}.dump() + "\n";
  bktest::write_file(dir / "corpus.jsonl", corpus);
  const auto hits = bktest::run_jsonl({"similarity", "-m", kSplade, "--query", texts[0], "--corpus",
                                       (dir / "corpus.jsonl").string(), "--top-k", "3"});
  REQUIRE(hits.size() == 1);
  std::vector<std::pair<double, std::size_t>> want;
  for (std::size_t i = 1; i < texts.size(); ++i) want.emplace_back(golden_dot(g["sparse"][0], g["sparse"][i]), i - 1);
  std::sort(want.rbegin(), want.rend());
  const json& results = hits[0].at("results");
  REQUIRE(results.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(results[k].at("index").get<std::size_t>() == want[k].second);
    CHECK(std::abs(results[k].at("score").get<double>() - want[k].first) <= bktest::kTolerance * std::max(1.0, want[k].first));
  }
}

TEST_CASE("sparse: --sparse-top-k keeps the largest values in id order, --sparse-tokens names them") {
  const json g = splade_goldens();
  const auto rows = bktest::run_jsonl({"embed", "-m", kSplade, "--sparse-top-k", "10", "--sparse-tokens", splade_texts()[0]});
  REQUIRE(rows.size() == 1);
  const json& sparse = rows[0].at("sparse");
  const json& tokens = rows[0].at("sparse_tokens");
  REQUIRE(sparse.at("indices").size() == 10);
  CHECK(std::is_sorted(sparse["indices"].begin(), sparse["indices"].end()));
  CHECK(tokens.at("values") == sparse.at("values"));
  // The golden's ten largest, decoded: the same tokens (here in id order), the same values.
  std::map<std::string, double> want;
  for (const json& tv : g.at("decode_top10_first")) want[tv[0].get<std::string>()] = tv[1].get<double>();
  REQUIRE(tokens.at("tokens").size() == 10);
  for (std::size_t k = 0; k < 10; ++k) {
    const std::string token = tokens["tokens"][k];
    REQUIRE(want.count(token) == 1);
    CHECK(std::abs(tokens["values"][k].get<double>() - want[token]) <= bktest::kTolerance);
  }
}

// sentence-transformers 5 saved a SparseEncoder's modules by their module paths of then,
// sentence_transformers.sparse_encoder.models.MLMTransformer and .SpladePooling (6 writes
// sentence_transformers.sparse_encoder.modules.*): the same folder, the same vectors.
TEST_CASE("sparse: a SparseEncoder folder saved by sentence-transformers 5 gives the same vectors") {
  bktest::TempDir dir;
  const fs::path folder = dir / "splade-v5";
  fs::copy(kSplade, folder, fs::copy_options::recursive);
  json modules = bktest::read_json(folder / "modules.json");
  REQUIRE(modules.size() == 2);
  modules[0]["type"] = "sentence_transformers.sparse_encoder.models.MLMTransformer";
  modules[1]["type"] = "sentence_transformers.sparse_encoder.models.SpladePooling";
  bktest::write_file(folder / "modules.json", modules.dump(2));
  check_splade_embed(folder.string());
}

// sentence-transformers keeps max_active_dims out of the folder: SparseEncoder(path, max_active_dims=N) and
// encode(max_active_dims=N) take it, SparseEncoder.save writes no such key (its _get_model_config: model_type,
// __version__, prompts, default_prompt_name, similarity_fn_name) and loading reads none, so a folder whose config
// carries one still encodes in full. encode(max_active_dims=N) keeps each vector's N largest values by absolute
// value after pooling (util.select_max_active_dims); SPLADE's values are positive, so that is --sparse-top-k N:
// the golden vector with only its N largest values kept.
TEST_CASE("sparse: a max_active_dims in the folder's config is not read, as sentence-transformers reads none: "
          "--sparse-top-k N is encode(max_active_dims=N)") {
  bktest::TempDir dir;
  const fs::path folder = dir / "splade";
  fs::copy(kSplade, folder, fs::copy_options::recursive);
  json config = bktest::read_json(folder / "config_sentence_transformers.json");
  config["max_active_dims"] = 5;
  bktest::write_file(folder / "config_sentence_transformers.json", config.dump(2));
  check_splade_embed(folder.string());

  constexpr std::size_t kKept = 5;
  const json g = splade_goldens();
  const json& full = g.at("sparse")[0];
  std::vector<std::pair<double, int>> by_value;
  for (std::size_t i = 0; i < full.at("indices").size(); ++i)
    by_value.emplace_back(full["values"][i].get<double>(), full["indices"][i].get<int>());
  std::sort(by_value.rbegin(), by_value.rend());
  REQUIRE(by_value.size() > kKept);
  REQUIRE(by_value[kKept - 1].first - by_value[kKept].first > bktest::kTolerance);  // not a matter of rounding
  by_value.resize(kKept);
  std::sort(by_value.begin(), by_value.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  json want{{"indices", json::array()}, {"values", json::array()}};
  for (const auto& [value, id] : by_value) {
    want["indices"].push_back(id);
    want["values"].push_back(value);
  }
  const auto rows = bktest::run_jsonl({"embed", "-m", folder.string(), "--sparse-top-k", "5", splade_texts()[0]});
  REQUIRE(rows.size() == 1);
  check_sparse(rows[0].at("sparse"), want);
}

TEST_CASE("sparse: CSV carries the sparse vector as one JSON text column, and npy and dense-only flags are refused") {
  auto csv = run_bertkit({"embed", "-m", kSplade, "--format", "csv", "--sparse-top-k", "3", "Hello world!"});
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.starts_with("text,sparse,truncated\n"));
  CHECK(csv.out.find("\"{\"\"indices\"\":[") != std::string::npos);
  CHECK(bktest::count_lines(csv.out) == 2);

  bktest::TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"embed", "-m", kSplade, "--format", "npy", "-o", (dir / "a.npy").string(), "hi"},
        std::vector<std::string>{"embed", "-m", kM3, "--vectors", "dense,sparse", "--format", "npy", "-o", (dir / "b.npy").string(), "hi"},
        std::vector<std::string>{"embed", "-m", kSplade, "--precision", "int8", "hi"},
        std::vector<std::string>{"embed", "-m", kSplade, "--vectors", "dense", "hi"},
        std::vector<std::string>{"embed", "-m", kM3, "--sparse-top-k", "3", "hi"},
        std::vector<std::string>{"similarity", "-m", kSplade, "--metric", "cosine", "a", "b"},
        std::vector<std::string>{"embed", "-m", kM3, "--vectors", "colbert", "--format", "npy", "-o", (dir / "c.npy").string(), "hi"},
        std::vector<std::string>{"embed", "-m", kM3, "--vectors", "dense,colbert", "--precision", "int8", "hi"},
        std::vector<std::string>{"embed", "-m", kSplade, "--vectors", "colbert", "hi"},
        std::vector<std::string>{"similarity", "-m", kM3, "--weights", "1,1,1", "a", "b"},
        std::vector<std::string>{"similarity", "-m", kM3, "--mode", "hybrid", "--weights", "1,1", "a", "b"},
        std::vector<std::string>{"similarity", "-m", kM3, "--mode", "hybrid", "--weights", "0,0,0", "a", "b"},
        std::vector<std::string>{"similarity", "-m", kM3, "--mode", "hybrid", "--weights", "1,-1,1", "a", "b"},
        std::vector<std::string>{"similarity", "-m", kM3, "--mode", "colbert", "--metric", "cosine", "a", "b"},
        std::vector<std::string>{"similarity", "-m", kSplade, "--mode", "hybrid", "--weights", "0,1,1", "a", "b"}}) {
    INFO(args[3] << " " << args[4]);
    auto r = run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(bktest::count_lines(r.err) == 1);
  }
  CHECK(!fs::exists(dir / "a.npy"));
}

TEST_CASE("sparse: a sparse_linear.pt or colbert_linear.pt whose pickle would call anything else is refused, naming the file") {
  for (const std::string head : {"sparse_linear", "colbert_linear"}) {
    INFO(head);
    bktest::TempDir dir;
    const fs::path copy = dir / "m3";
    fs::copy(kM3, copy, fs::copy_options::recursive);
    const fs::path file = copy / (head + ".pt");
    fs::permissions(file, fs::perms::owner_write, fs::perm_options::add);
    bktest::write_file(file, bktest::stored_zip({{head + "/data.pkl", bktest::cat("\x80\x02" "cos\nsystem\n",
                                                                                bktest::pickle_unicode("touch pwned"), "\x85R.")}}));
    for (const std::vector<std::string>& args : {std::vector<std::string>{"embed", "-m", copy.string(), "hi"},
                                                 std::vector<std::string>{"info", copy.string()},
                                                 std::vector<std::string>{"convert", copy.string(), (dir / "x.bk").string()}}) {
      INFO(args[0]);
      auto r = run_bertkit(args);
      CHECK(r.exit_code == 3);
      CHECK(bktest::count_lines(r.err) == 1);
      CHECK(r.err.find(file.string()) != std::string::npos);
      CHECK(r.err.find("os.system") != std::string::npos);
    }
    CHECK(!fs::exists(dir / "pwned"));
    CHECK(!fs::exists(dir / "x.bk"));
  }
}

TEST_CASE("sparse: a colbert_linear.pt that is not a Linear(hidden, dim) is refused, naming the file and tensor") {
  bktest::TempDir dir;
  const fs::path copy = dir / "m3";
  fs::copy(kM3, copy, fs::copy_options::recursive);
  const fs::path file = copy / "colbert_linear.pt";
  fs::permissions(file, fs::perms::owner_write, fs::perm_options::add);
  // weight [4, 16] (hidden 16) with a bias of 3 values.
  auto head = [&](std::int64_t in, std::int64_t bias) {
    const std::string pkl = bktest::pickle_state_dict(
        {{"weight", bktest::pickle_tensor("FloatStorage", "0", 4 * in, 0, {4, in}, {in, 1})},
         {"bias", bktest::pickle_tensor("FloatStorage", "1", bias, 0, {bias}, {1})}});
    return bktest::stored_zip({{"colbert_linear/data.pkl", pkl},
                               {"colbert_linear/data/0", std::string(static_cast<std::size_t>(16 * in), '\0')},
                               {"colbert_linear/data/1", std::string(static_cast<std::size_t>(4 * bias), '\0')}});
  };
  for (const auto& [in, bias, tensor] : {std::tuple{16, 3, "bias"}, std::tuple{8, 4, "weight"}}) {
    const char* named_tensor = tensor;  // clang: a structured binding cannot be captured by INFO
    INFO(named_tensor);
    bktest::write_file(file, head(in, bias));
    auto r = run_bertkit({"embed", "-m", copy.string(), "--vectors", "colbert", "hi"});
    CHECK(r.exit_code == 3);
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find(file.string()) != std::string::npos);
    CHECK(r.err.find(std::string("tensor ") + tensor) != std::string::npos);
  }
  // A right one of another width: vectors of that width.
  bktest::write_file(file, head(16, 4));
  const auto rows = bktest::run_jsonl({"embed", "-m", copy.string(), "--vectors", "colbert", "hi"});
  CHECK(rows.at(0).at("colbert").at(0).size() == 4);
}
