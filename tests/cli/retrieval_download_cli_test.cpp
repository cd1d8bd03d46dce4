// `bertkit download` and `-m ORG/NAME` of the retrieval layouts against the local Hub
// (tests/tools/hub_stand_in.py): BGE-M3's heads at the repository's root (sparse_linear.pt,
// colbert_linear.pt), a PyLate ColBERT folder's 1_Dense and a SparseEncoder's 1_SpladePooling come with the
// model, and `embed` from the cache writes byte for byte what it writes from the fixture folder.
#include "cli/hub_stand_in.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

namespace {

struct Layout {
  std::string repo;     // ORG/NAME on the stand-in
  std::string cached;   // its folder in the cache, models--ORG--NAME
  std::string fixture;  // its folder in ../shared/fixtures/models3
  std::set<std::string> files;     // what the snapshot holds after `download`
  std::vector<std::string> embed;  // the flags and texts of the embed run compared
  std::string field;               // the output field the layout is about
};

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> all{
      {"test-org/bge-m3",
       "models--test-org--bge-m3",
       "bge-m3-tiny",
       {"1_Pooling/config.json", "colbert_linear.pt", "config.json", "config_sentence_transformers.json",
        "model.safetensors", "modules.json", "sentence_bert_config.json", "sparse_linear.pt", "special_tokens_map.json",
        "tokenizer.json", "tokenizer_config.json"},
       {"--vectors", "dense,sparse", "What is BGE M3?", "BM25 is a bag-of-words retrieval function."},
       "sparse"},
      {"test-org/colbert",
       "models--test-org--colbert",
       "colbert-tiny",
       {"1_Dense/config.json", "1_Dense/model.safetensors", "added_tokens.json", "config.json",
        "config_sentence_transformers.json", "model.safetensors", "modules.json", "sentence_bert_config.json",
        "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt"},
       {"A man is eating food.", "Paris is the capital of France."},
       "colbert"},
      {"test-org/splade",
       "models--test-org--splade",
       "splade-bert",
       {"1_SpladePooling/config.json", "config.json", "config_sentence_transformers.json", "model.safetensors",
        "modules.json", "sentence_bert_config.json", "tokenizer.json", "tokenizer_config.json"},
       {"Plants create energy through a process known as photosynthesis.", "Hello world!"},
       "sparse"},
  };
  return all;
}

// `embed -m MODEL` with the layout's flags and texts.
bktest::RunResult embed(const std::string& model, const Layout& layout) {
  std::vector<std::string> args{"embed", "-m", model};
  args.insert(args.end(), layout.embed.begin(), layout.embed.end());
  return bktest::run_bertkit(args);
}

// From the cache as from the folder: the same bytes, and the layout's vectors in them.
void check_runs_as_the_folder(const std::string& model, const Layout& layout) {
  CAPTURE(model);
  const auto cached = embed(model, layout);
  INFO(cached.err);
  REQUIRE(cached.exit_code == 0);
  const auto folder = embed(bktest::models3_path(layout.fixture), layout);
  REQUIRE(folder.exit_code == 0);
  CHECK(cached.out == folder.out);
  const nlohmann::json first = nlohmann::json::parse(cached.out.substr(0, cached.out.find('\n')));
  CHECK(!first.at(layout.field).empty());
}

}  // namespace

TEST_CASE("download: BGE-M3's heads, a PyLate ColBERT folder and a SparseEncoder folder come whole and run from the "
          "cache as from their folders") {
  std::vector<std::string> served;
  for (const Layout& l : layouts()) served.push_back(l.repo + "=" + bktest::models3_path(l.fixture));
  bktest::HubStandIn hub(served);
  bktest::HubEnvironment env(hub.endpoint());
  for (const Layout& l : layouts()) {
    CAPTURE(l.repo);
    const auto r = bktest::run_bertkit({"-q", "download", l.repo});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // What the model reads, nothing else (goldens.json, README.md and bge-m3's sentencepiece.bpe.model stay).
    CHECK(bktest::files_under(bktest::only_snapshot(env, l.cached)) == l.files);
    check_runs_as_the_folder(l.repo, l);
  }
}

TEST_CASE("download: a BGE-M3 copy without its heads says so when sparse vectors are asked, and download completes "
          "it") {
  const Layout& m3 = layouts().front();
  bktest::HubStandIn hub({m3.repo + "=" + bktest::models3_path(m3.fixture)});
  bktest::HubEnvironment env(hub.endpoint());
  auto r = bktest::run_bertkit({"-q", "download", "--exclude", "*.pt", m3.repo});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);  // the dense model is whole without them
  const auto snapshot = bktest::only_snapshot(env, m3.cached);
  CHECK_FALSE(std::filesystem::exists(snapshot / "sparse_linear.pt"));

  // Never a silent run without the sparse vectors asked for: one line naming the file it lacks.
  r = embed(m3.repo, m3);
  CHECK(r.exit_code == 2);
  CHECK(bktest::mentions(r.err, "sparse_linear.pt"));
  CHECK(r.out.empty());

  // A download without --exclude fetches the heads into the same snapshot, and the model runs whole.
  r = bktest::run_bertkit({"-q", "download", m3.repo});
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::files_under(snapshot) == m3.files);
  check_runs_as_the_folder(m3.repo, m3);
}
