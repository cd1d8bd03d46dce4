// PyLate ColBERT end to end through the binary (fixtures/models3/colbert-tiny, RETRIEVAL.md section 2):
// query and document vectors, MaxSim pairs and reranking against the goldens PyLate's code was checked
// to give, from the folder and from its converted file; the expansion settings and refusals.
#include "task_cli_helpers.h"
#include "unit/checkpoint_builders.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <tuple>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

const json& goldens() {
  static const json g = bktest::models3_goldens("colbert-tiny");
  return g;
}

std::vector<std::string> texts_of(const json& items) {
  std::vector<std::string> texts;
  for (const auto& item : items) texts.push_back(item.at("text").get<std::string>());
  return texts;
}

// Every vector of `out` (one record per golden item) within 1e-4 of the golden `vectors`.
void check_vectors(const std::vector<json>& out, const json& items) {
  REQUIRE(out.size() == items.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const json& want = items[i].at("vectors");
    const json& got = out[i].at("colbert");
    CAPTURE(i);
    REQUIRE(got.size() == want.size());
    for (std::size_t v = 0; v < want.size(); ++v) {
      REQUIRE(got[v].size() == want[v].size());
      for (std::size_t d = 0; d < want[v].size(); ++d)
        REQUIRE(std::abs(got[v][d].get<double>() - want[v][d].get<double>()) < bktest::kTolerance);
    }
  }
}

std::vector<json> embed(const std::string& model, const std::vector<std::string>& texts,
                        const std::vector<std::string>& flags = {}) {
  return bktest::run_jsonl(bktest::with(bktest::with({"embed", "-m", model}, flags), texts));
}

void check_model(const std::string& model) {
  // `info` shows the ColBERT settings in place of a pooling the model does not have.
  const auto info = bktest::run_bertkit({"info", "-m", model});
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("colbert: query \"[Q] \" 32 tokens, document \"[D] \" 64 tokens") != std::string::npos);
  CHECK(info.out.find("pooling:") == std::string::npos);
  const json& g = goldens();
  check_vectors(embed(model, texts_of(g.at("documents"))), g.at("documents"));
  check_vectors(embed(model, texts_of(g.at("queries")), {"--prompt", "query"}), g.at("queries"));
}

// A copy of colbert-tiny whose config_sentence_transformers.json has `key` = `value`.
std::string colbert_with(const bktest::TempDir& dir, const std::string& key, const json& value) {
  const auto to = dir / "colbert-tiny";
  std::filesystem::copy(bktest::models3_path("colbert-tiny"), to, std::filesystem::copy_options::recursive);
  const auto file = to / "config_sentence_transformers.json";
  json j = bktest::read_json(file);
  j[key] = value;
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  bktest::write_file(file, j.dump());
  return to.string();
}

// colbert-tiny in Stanford ColBERT's layout, as colbert-ir/colbertv2.0 is published: config.json naming
// HF_ColBERT, one safetensors file holding the encoder under "bert." and the 1_Dense projection as
// linear.weight, the tokenizer files, and `metadata` as artifact.metadata (none when null). With the
// folder's own prefixes and lengths it is the same model, so PyLate's goldens are its goldens.
std::string stanford_copy(const bktest::TempDir& dir, const json& metadata, bool projection = true) {
  namespace fs = std::filesystem;
  const fs::path from = bktest::models3_path("colbert-tiny"), to = dir / "stanford";
  fs::create_directories(to);
  for (const char* file : {"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"})
    fs::copy_file(from / file, to / file);
  json config = bktest::read_json(from / "config.json");
  config["architectures"] = {"HF_ColBERT"};
  bktest::write_file(to / "config.json", config.dump());
  if (!metadata.is_null()) bktest::write_file(to / "artifact.metadata", metadata.dump());
  // Each file's tensors with their bytes, renamed into one new file.
  std::vector<bktest::TestTensor> tensors;
  auto add = [&](const fs::path& file, const std::string& prefix) {
    const std::string bytes = bktest::read_file(file);
    std::uint64_t header = 0;
    std::memcpy(&header, bytes.data(), 8);
    const json h = json::parse(bytes.substr(8, header));
    for (const auto& [name, t] : h.items()) {
      if (name == "__metadata__") continue;
      const auto begin = t.at("data_offsets")[0].get<std::size_t>(), end = t.at("data_offsets")[1].get<std::size_t>();
      tensors.push_back({prefix + name, t.at("dtype"), t.at("shape").get<std::vector<std::int64_t>>(),
                         bytes.substr(8 + header + begin, end - begin)});
    }
  };
  add(from / "model.safetensors", "bert.");
  if (projection) add(from / "1_Dense" / "model.safetensors", "");
  bktest::write_file(to / "model.safetensors", bktest::safetensors(tensors));
  return to.string();
}

const json kTinyMetadata = {{"query_token_id", "[Q] "}, {"doc_token_id", "[D] "}, {"query_maxlen", 32}, {"doc_maxlen", 64},
                            {"mask_punctuation", true}, {"attend_to_mask_tokens", false}, {"similarity", "cosine"},
                            {"dim", 24}};

}  // namespace

TEST_CASE("colbert embed: a Stanford ColBERT folder (HF_ColBERT, linear.weight, artifact.metadata) is PyLate's model") {
  const bktest::TempDir dir;
  const std::string stanford = stanford_copy(dir, kTinyMetadata);
  check_model(stanford);
  check_model(bktest::converted_f32(dir, stanford, "stanford"));
  // Without artifact.metadata: ColBERTConfig's defaults, the [unused0]/[unused1] markers.
  const bktest::TempDir bare_dir;
  const auto info = bktest::run_bertkit({"info", "-m", stanford_copy(bare_dir, nullptr)});
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("colbert: query \"[unused0]\" 32 tokens, document \"[unused1]\" 220 tokens") != std::string::npos);
}

TEST_CASE("colbert: a Stanford folder with another similarity, a projection of another width or none is refused") {
  json l2 = kTinyMetadata, wide = kTinyMetadata;
  l2["similarity"] = "l2";
  wide["dim"] = 128;
  for (const auto& [metadata, projection, named] :
       {std::tuple{l2, true, "artifact.metadata"}, std::tuple{wide, true, "linear.weight"}, std::tuple{kTinyMetadata, false, "linear.weight"}}) {
    const char* refused_for = named;  // clang: a structured binding cannot be captured by CAPTURE
    CAPTURE(refused_for);
    const bktest::TempDir dir;
    const auto r = bktest::run_bertkit({"embed", "-m", stanford_copy(dir, metadata, projection), "hello"});
    CHECK(r.exit_code == 3);
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find(named) != std::string::npos);
  }
}

TEST_CASE("colbert embed: PyLate's document and query vectors, from the folder and from its converted file") {
  check_model(bktest::models3_path("colbert-tiny"));
  const bktest::TempDir dir;
  // The file carries the Dense projection and the prefixes, lengths and skiplist.
  check_model(bktest::converted_f32(dir, bktest::models3_path("colbert-tiny"), "colbert-tiny"));
}

TEST_CASE("colbert similarity: MaxSim of each query against each document (text = query, pair = document)") {
  const json& g = goldens();
  const auto queries = texts_of(g.at("queries")), documents = texts_of(g.at("documents"));
  std::string lines;
  for (const auto& q : queries)
    for (const auto& d : documents) lines += q + "\t" + d + "\n";
  const auto out = bktest::run_jsonl({"similarity", "-m", bktest::models3_path("colbert-tiny"), "--pairs"}, lines);
  REQUIRE(out.size() == queries.size() * documents.size());
  for (std::size_t q = 0; q < queries.size(); ++q)
    for (std::size_t d = 0; d < documents.size(); ++d) {
      CAPTURE(q);
      CAPTURE(d);
      const double want = g.at("maxsim")[q][d].get<double>();
      CHECK(std::abs(out[q * documents.size() + d].at("score").get<double>() - want) < bktest::kTolerance);
    }
}

TEST_CASE("colbert search: every query's MaxSim against every corpus text, best first") {
  const json& g = goldens();
  const auto queries = texts_of(g.at("queries")), documents = texts_of(g.at("documents"));
  const bktest::TempDir dir;
  std::string corpus, questions;
  for (const auto& d : documents) corpus += json{{"text", d}}.dump() + "\n";
  for (const auto& q : queries) questions += q + "\n";
  bktest::write_file(dir / "corpus.jsonl", corpus);
  bktest::write_file(dir / "queries.txt", questions);
  const auto out = bktest::run_jsonl({"similarity", "-m", bktest::models3_path("colbert-tiny"), "--queries",
                                      (dir / "queries.txt").string(), "--corpus", (dir / "corpus.jsonl").string(),
                                      "--top-k", std::to_string(documents.size())});
  REQUIRE(out.size() == queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const json& results = out[q].at("results");
    REQUIRE(results.size() == documents.size());
    double previous = 1e9;
    for (const json& r : results) {
      const double want = g.at("maxsim")[q][r.at("index").get<std::size_t>()].get<double>();
      CAPTURE(q);
      CHECK(std::abs(r.at("score").get<double>() - want) < bktest::kTolerance);
      CHECK(want <= previous + bktest::kTolerance);
      previous = want;
    }
  }
}

TEST_CASE("colbert rerank --query: PyLate's rank.rerank order and scores") {
  const json& g = goldens();
  const auto queries = texts_of(g.at("queries")), documents = texts_of(g.at("documents"));
  std::string lines;
  for (const auto& d : documents) lines += d + "\n";
  for (const auto& ranked : g.at("rerank")) {
    const auto query = queries[ranked.at("query").get<std::size_t>()];
    const auto out = bktest::run_jsonl({"rerank", "-m", bktest::models3_path("colbert-tiny"), "--query", query}, lines);
    REQUIRE(out.size() == documents.size());
    for (std::size_t r = 0; r < out.size(); ++r) {
      CAPTURE(r);
      CHECK(out[r].at("index") == ranked.at("order")[r]);
      CHECK(std::abs(out[r].at("score").get<double>() - ranked.at("scores")[r].get<double>()) < bktest::kTolerance);
    }
  }
}

TEST_CASE("colbert rerank: JSONL lists score each document against the query once encoded") {
  const json& g = goldens();
  const auto queries = texts_of(g.at("queries"));
  const json record = {{"query", queries[0]}, {"documents", texts_of(g.at("documents"))}};
  const auto out = bktest::run_jsonl({"rerank", "-m", bktest::models3_path("colbert-tiny"), "--jsonl"}, record.dump() + "\n");
  REQUIRE(out.size() == 1);
  const json& ranked = g.at("rerank")[0];
  REQUIRE(ranked.at("query") == 0);
  const json& results = out[0].at("results");
  REQUIRE(results.size() == ranked.at("order").size());
  for (std::size_t r = 0; r < results.size(); ++r) {
    CHECK(results[r].at("corpus_id") == ranked.at("order")[r]);
    CHECK(std::abs(results[r].at("score").get<double>() - ranked.at("scores")[r].get<double>()) < bktest::kTolerance);
  }
}

TEST_CASE("colbert queries: unattended [MASK]s leave the text's vectors as without expansion, and attended ones change them") {
  const json& g = goldens();
  const auto queries = texts_of(g.at("queries"));
  const bktest::TempDir plain_dir, attend_dir;
  // No token attends to the expansion, so the text's rows are those of the query without it (the first
  // rows of the golden vectors); only the expansion rows are missing.
  const auto plain = embed(colbert_with(plain_dir, "do_query_expansion", false), queries, {"--prompt", "query"});
  const auto attended = embed(colbert_with(attend_dir, "attend_to_expansion_tokens", true), queries, {"--prompt", "query"});
  for (std::size_t q = 0; q < queries.size(); ++q) {
    CAPTURE(q);
    const json& want = g.at("queries")[q].at("vectors");
    const json& mask = g.at("queries")[q].at("attention_mask");
    std::size_t real = 0;
    for (const auto& m : mask) real += m.get<int>();
    const json& got = plain[q].at("colbert");
    REQUIRE(got.size() == real);
    for (std::size_t v = 0; v < real; ++v)
      for (std::size_t d = 0; d < want[v].size(); ++d)
        REQUIRE(std::abs(got[v][d].get<double>() - want[v][d].get<double>()) < bktest::kTolerance);
    // Attending to the [MASK]s changes what the text's tokens see: every query is still query_length
    // vectors, and the first ([CLS]) moves; a query cut to query_length has no [MASK] and stays as it was.
    const json& changed = attended[q].at("colbert");
    REQUIRE(changed.size() == want.size());
    double moved = 0;
    for (std::size_t d = 0; d < want[0].size(); ++d)
      moved = std::max(moved, std::abs(changed[0][d].get<double>() - want[0][d].get<double>()));
    if (real < want.size()) CHECK(moved > 1e-3);
    else CHECK(moved < bktest::kTolerance);
  }
}

TEST_CASE("colbert embed: npy and f32 refused, precision quantises each vector") {
  const auto model = bktest::models3_path("colbert-tiny");
  const bktest::TempDir dir;
  for (const char* format : {"npy", "f32"}) {
    const auto r = bktest::run_bertkit({"embed", "-m", model, "--format", format, "-o", (dir / "v.out").string(), "a text"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("ColBERT") != std::string::npos);
    CHECK(bktest::count_lines(r.err) == 1);
  }
  const auto floats = embed(model, {"a text, with punctuation."});
  const auto bits = embed(model, {"a text, with punctuation."}, {"--precision", "ubinary"});
  const json& f = floats[0].at("colbert");
  const json& b = bits[0].at("colbert");
  REQUIRE(b.size() == f.size());
  for (std::size_t v = 0; v < f.size(); ++v) {
    REQUIRE(b[v].size() == (f[v].size() + 7) / 8);
    // quantize_embeddings' ubinary: bit 7 of byte 0 is dimension 0 > 0.
    CHECK(((b[v][0].get<int>() >> 7) & 1) == (f[v][0].get<double>() > 0 ? 1 : 0));
  }
}
