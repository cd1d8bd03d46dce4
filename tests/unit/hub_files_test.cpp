// The pieces of `bertkit download` that need no server: SHA-256 against the standard's vectors, which
// files of a repository are fetched, model ids with revisions, and the cache lookup at a revision; and
// the table of which files a model folder has (core/folder_files.h) that the loaders read too.
#include "support.h"

#include "core/error.h"
#include "core/folder_files.h"
#include "core/hub/hub_cache.h"
#include "core/hub/hub_files.h"
#include "core/hub/sha256.h"

#include <doctest/doctest.h>

#include <set>

using namespace bertkit::core;
using bktest::ScopedEnv;
namespace fs = std::filesystem;

namespace {

std::string sha256_of(const std::string& text) {
  Sha256 h;
  h.update(std::as_bytes(std::span(text)));
  return h.hex_digest();
}

}  // namespace

TEST_CASE("hub: sha256 gives FIPS 180-2's digests, in one piece or many") {
  CHECK(sha256_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1000000, 'a');
  CHECK(sha256_of(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256 pieces;  // odd piece sizes cross the 64-byte blocks everywhere
  for (std::size_t at = 0, step = 1; at < million.size(); at += step, step = step % 131 + 7)
    pieces.update(std::as_bytes(std::span(million).subspan(at, std::min(step, million.size() - at))));
  CHECK(pieces.hex_digest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // A file: the fixture's weights, whose sha256 the goldens recorded.
  const auto goldens = bktest::read_json(bktest::shared("fixtures/models/minilm-embed/goldens.json"));
  CHECK(sha256_file(bktest::shared("fixtures/models/minilm-embed/model.safetensors")) ==
        goldens["weights"][0]["sha256"].get<std::string>());
}

TEST_CASE("hub: the files fetched are what bertkit reads, the weights in the best format present") {
  const std::vector<std::string> repo{".gitattributes", "README.md", "config.json", "vocab.txt", "tokenizer.json",
                                      "tokenizer_config.json", "special_tokens_map.json", "model.safetensors",
                                      "pytorch_model.bin", "tf_model.h5", "onnx/model.onnx", "merges.txt"};
  CHECK(files_to_fetch(repo, root_transformer(), {}) ==
        std::vector<std::string>{"config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json",
                                 "special_tokens_map.json", "model.safetensors"});
  // Excluded files are not candidates: the next format is taken.
  CHECK(files_to_fetch(repo, root_transformer(), {{}, {"*.safetensors", "vocab.txt"}}) ==
        std::vector<std::string>{"config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
                                 "pytorch_model.bin"});
  // --include adds; '*' crosses '/', and "onnx/" is the folder.
  auto with_onnx = files_to_fetch(repo, root_transformer(), {{"onnx/"}, {}});
  CHECK(std::count(with_onnx.begin(), with_onnx.end(), "onnx/model.onnx") == 1);
  CHECK(files_to_fetch(repo, root_transformer(), {{"*.onnx"}, {}}).size() == 7);
  CHECK(glob_matches("*.json", "1_Pooling/config.json"));
  CHECK_FALSE(glob_matches("*.bin", "model.safetensors"));

  const std::vector<std::string> sharded{"config.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors",
                                         "model-00002-of-00002.safetensors", "pytorch_model.bin.index.json",
                                         "pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"};
  CHECK(files_to_fetch(sharded, root_transformer(), {}) ==
        std::vector<std::string>{"config.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors",
                                 "model-00002-of-00002.safetensors"});
  CHECK(files_to_fetch(sharded, root_transformer(), {{}, {"*.safetensors*"}}) ==
        std::vector<std::string>{"config.json", "pytorch_model.bin.index.json", "pytorch_model-00001-of-00002.bin",
                                 "pytorch_model-00002-of-00002.bin"});
}

TEST_CASE("hub: a sentence-transformers repository brings its module folders") {
  const std::string modules = R"([
    {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    {"idx": 3, "name": "3", "path": "3_Normalize", "type": "sentence_transformers.models.Normalize"}])";
  const ModuleFolders folders = read_module_folders(modules, "modules.json");
  CHECK(folders.transformer == "0_Transformer/");
  std::vector<std::string> names;
  for (const ModuleFolder& m : folders.modules) names.push_back(m.folder);
  CHECK(names == std::vector<std::string>{"0_Transformer/", "1_Pooling/", "2_Dense/", "3_Normalize/"});
  CHECK(folders.modules[2].kind == ModuleKind::Dense);
  const std::vector<std::string> repo{"modules.json", "config_sentence_transformers.json", "README.md",
                                      "0_Transformer/config.json", "0_Transformer/pytorch_model.bin",
                                      "0_Transformer/vocab.txt", "0_Transformer/sentence_bert_config.json",
                                      "1_Pooling/config.json", "2_Dense/config.json", "2_Dense/model.safetensors",
                                      "2_Dense/pytorch_model.bin", "onnx/model.onnx"};
  CHECK(files_to_fetch(repo, folders, {}) ==
        std::vector<std::string>{"modules.json", "config_sentence_transformers.json", "0_Transformer/config.json",
                                 "0_Transformer/pytorch_model.bin", "0_Transformer/vocab.txt",
                                 "0_Transformer/sentence_bert_config.json", "1_Pooling/config.json",
                                 "2_Dense/config.json", "2_Dense/model.safetensors"});
  // The root as the transformer's folder ("path": "").
  const ModuleFolders root = read_module_folders(R"([{"path": "", "type": "sentence_transformers.models.Transformer"}])", "m");
  CHECK(root.transformer.empty());
  CHECK(root.modules.size() == 1);
  for (const char* bad : {"{}", R"([{"path": "../x", "type": "t"}])", R"([{"type": "t"}])", "not json"})
    CHECK_THROWS_AS(read_module_folders(bad, "modules.json"), bertkit::Error);
}

TEST_CASE("hub: module types are known by their class in every sentence-transformers and PyLate layout") {
  // sentence-transformers 5 (its SparseEncoder's modules in sparse_encoder.models), 6, and PyLate.
  const std::string modules = R"([
    {"path": "", "type": "sentence_transformers.sparse_encoder.models.MLMTransformer"},
    {"path": "1_SpladePooling", "type": "sentence_transformers.sparse_encoder.models.SpladePooling"},
    {"path": "2_Pooling", "type": "sentence_transformers.sentence_transformer.modules.pooling.Pooling"},
    {"path": "3_Dense", "type": "pylate.models.Dense.Dense"},
    {"path": "4_Normalize", "type": "sentence_transformers.base.modules.normalize.Normalize"},
    {"path": "5_Other", "type": "sentence_transformers.Pooling"}])";
  const ModuleFolders folders = read_module_folders(modules, "modules.json");
  CHECK(folders.transformer.empty());
  REQUIRE(folders.modules.size() == 6);
  const ModuleKind kinds[] = {ModuleKind::Transformer, ModuleKind::Pooling, ModuleKind::Pooling,
                              ModuleKind::Dense,       ModuleKind::Normalize, ModuleKind::Other};
  for (std::size_t i = 0; i < 6; ++i) {
    CAPTURE(folders.modules[i].folder);
    CHECK(folders.modules[i].kind == kinds[i]);
  }
  const ModuleFolders six = read_module_folders(
      R"([{"path": "0_Transformer", "type": "sentence_transformers.base.modules.transformer.Transformer"}])", "m");
  CHECK(six.transformer == "0_Transformer/");
  CHECK(is_sentence_transformers_module("sentence_transformers.models.StaticEmbedding", "StaticEmbedding"));
  CHECK_FALSE(is_sentence_transformers_module("sentence_transformers.models.MyPooling", "Pooling"));
  CHECK_FALSE(is_sentence_transformers_module("my_package.models.Pooling", "Pooling"));
}

TEST_CASE("hub: BGE-M3's heads at the root are fetched when the repository has them, unless excluded") {
  const std::vector<std::string> repo{"modules.json", "config.json", "model.safetensors", "pytorch_model.bin",
                                      "tokenizer.json", "sparse_linear.pt", "colbert_linear.pt", "1_Pooling/config.json",
                                      "imgs/bm25.jpg", "onnx/model.onnx", "2_Dense/sparse_linear.pt"};
  const ModuleFolders folders = read_module_folders(R"([
    {"path": "", "type": "sentence_transformers.models.Transformer"},
    {"path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}])", "modules.json");
  CHECK(files_to_fetch(repo, folders, {}) ==
        std::vector<std::string>{"modules.json", "config.json", "model.safetensors", "tokenizer.json", "sparse_linear.pt",
                                 "colbert_linear.pt", "1_Pooling/config.json"});
  CHECK(files_to_fetch(repo, folders, {{}, {"*.pt"}}) ==
        std::vector<std::string>{"modules.json", "config.json", "model.safetensors", "tokenizer.json",
                                 "1_Pooling/config.json"});
  // One head listed, one fetched.
  CHECK(files_to_fetch({"config.json", "model.safetensors", "vocab.txt", "sparse_linear.pt"}, root_transformer(), {}) ==
        std::vector<std::string>{"config.json", "model.safetensors", "vocab.txt", "sparse_linear.pt"});
}

TEST_CASE("hub: model ids take a revision after @, paths and odd revisions are not ids") {
  auto id = parse_model_id("sentence-transformers/all-MiniLM-L6-v2");
  REQUIRE(id);
  CHECK(id->repo == "sentence-transformers/all-MiniLM-L6-v2");
  CHECK(id->revision == "main");
  CHECK_FALSE(id->revision_given);
  id = parse_model_id("bert-base-uncased@v1.0");
  REQUIRE(id);
  CHECK(id->repo == "bert-base-uncased");
  CHECK(id->revision == "v1.0");
  CHECK(id->text() == "bert-base-uncased@v1.0");
  CHECK(parse_model_id("org/name@refs/pr/1"));
  for (const char* bad : {"", "/abs/path", "./model", "a/b/c", "org/../x", "org/name@", "org/name@../x", "org/name@a b",
                          "org/name@a@b", "org/na me"})
    CHECK_MESSAGE(!parse_model_id(bad), bad);
  CHECK(repo_folder_name("org/name") == "models--org--name");
}

TEST_CASE("hub: the cache lookup follows refs/REVISION, or takes a commit's snapshot") {
  bktest::TempDir cache;
  ScopedEnv hub("HF_HUB_CACHE", cache.path().string());
  ScopedEnv transformers("TRANSFORMERS_CACHE", "");
  const fs::path repo = cache / "models--org--name";
  fs::create_directories(repo / "snapshots/aaaa");
  fs::create_directories(repo / "snapshots/bbbb");
  bktest::write_file(repo / "refs/main", "aaaa\n");
  bktest::write_file(repo / "refs/v2", "bbbb");
  CHECK(find_cached_model(*parse_model_id("org/name")).snapshot == repo / "snapshots/aaaa");
  CHECK(find_cached_model(*parse_model_id("org/name@v2")).snapshot == repo / "snapshots/bbbb");
  CHECK(find_cached_model(*parse_model_id("org/name@bbbb")).snapshot == repo / "snapshots/bbbb");
  const auto missing = find_cached_model(*parse_model_id("org/name@v3"));
  CHECK_FALSE(missing.snapshot);
  CHECK(missing.why_not.find("no refs/v3 nor snapshots/v3") != std::string::npos);
  bktest::write_file(repo / "refs/v4", "cccc");  // an interrupted download: not cached, fetched again
  CHECK_FALSE(find_cached_model(*parse_model_id("org/name@v4")).snapshot);
  // A snapshot no ref names is not taken for main, as huggingface_hub takes none: it is named instead.
  fs::create_directories(cache / "models--org--lone/snapshots/dddd");
  const auto lone = find_cached_model(*parse_model_id("org/lone"));
  CHECK_FALSE(lone.snapshot);
  CHECK_FALSE(lone.cut_off);
  CHECK(lone.why_not.find("name one, as org/lone@dddd") != std::string::npos);
  CHECK(find_cached_model(*parse_model_id("org/lone@dddd")).snapshot == cache / "models--org--lone/snapshots/dddd");
  bktest::write_file(cache / "models--org--lone/snapshots/dddd" / std::string(kDownloadMarker), "");
  CHECK(find_cached_model(*parse_model_id("org/lone")).cut_off);
  CHECK(find_cached_model(*parse_model_id("org/lone@dddd")).cut_off);
  CHECK(find_cached_model(*parse_model_id("org/other")).why_not.find("models--org--other does not exist") != std::string::npos);
}

namespace {

// A folder of these names: the table asks only whether a file is there.
FileExists folder_with(std::set<std::string> names) {
  return [names = std::move(names)](std::string_view name) { return names.count(std::string(name)) > 0; };
}

}  // namespace

TEST_CASE("folder files: the tokenizer is tokenizer.json, else vocab.txt, else vocab.json with merges.txt, else spm.model") {
  auto choice = choose_tokenizer_files(folder_with({"tokenizer.json", "vocab.txt", "vocab.json", "merges.txt",
                                           "special_tokens_map.json", "tokenizer_config.json", "spm.model"}));
  CHECK(choice.source == TokenizerSource::TokenizerJson);
  CHECK(choice.files == std::vector<std::string>{"tokenizer.json", "vocab.txt", "tokenizer_config.json",
                                                 "special_tokens_map.json"});
  choice = choose_tokenizer_files(folder_with({"vocab.json", "merges.txt", "special_tokens_map.json"}));
  CHECK(choice.source == TokenizerSource::VocabJsonMerges);
  CHECK(choice.files == std::vector<std::string>{"vocab.json", "merges.txt", "special_tokens_map.json"});
  CHECK(choose_tokenizer_files(folder_with({"vocab.json"})).source == TokenizerSource::None);  // merges.txt too, or nothing
  // DeBERTa's spm.model is read, with added_tokens.json; another SentencePiece model alone is named.
  choice = choose_tokenizer_files(folder_with({"spm.model", "tokenizer_config.json", "added_tokens.json"}));
  CHECK(choice.source == TokenizerSource::SentencePiece);
  CHECK(choice.files == std::vector<std::string>{"spm.model", "added_tokens.json", "tokenizer_config.json"});
  choice = choose_tokenizer_files(folder_with({"spiece.model", "tokenizer_config.json"}));
  CHECK(choice.source == TokenizerSource::None);
  CHECK(choice.sentencepiece_only == "spiece.model");
  // The download takes the same, once each; and added_tokens.json and the SentencePiece model when no
  // tokenizer.json comes.
  CHECK(downloaded_tokenizer_files(folder_with({"spm.model", "tokenizer_config.json", "added_tokens.json"})) ==
        std::vector<std::string>{"spm.model", "added_tokens.json", "tokenizer_config.json"});
  CHECK(downloaded_tokenizer_files(folder_with({"spiece.model", "tokenizer_config.json", "added_tokens.json"})) ==
        std::vector<std::string>{"tokenizer_config.json", "added_tokens.json", "spiece.model"});
  CHECK(downloaded_tokenizer_files(folder_with({"tokenizer.json", "sentencepiece.bpe.model"})) ==
        std::vector<std::string>{"tokenizer.json"});
}

TEST_CASE("folder files: the weights are safetensors before pytorch_model.bin, a file before its shards") {
  auto w = choose_weights(folder_with({"pytorch_model.bin", "model.safetensors.index.json", "model.safetensors"}));
  REQUIRE(w.format);
  CHECK(w.file() == "model.safetensors");
  w = choose_weights(folder_with({"pytorch_model.bin", "model.safetensors.index.json"}));
  CHECK(w.file() == "model.safetensors.index.json");
  CHECK(w.layout == WeightsLayout::Sharded);
  CHECK(is_shard_of(*w.format, "model-00001-of-00002.safetensors"));
  CHECK_FALSE(is_shard_of(*w.format, "model-0001-of-00002.safetensors"));
  CHECK_FALSE(is_shard_of(*w.format, "pytorch_model-00001-of-00002.bin"));
  CHECK(choose_weights(folder_with({"pytorch_model.bin"})).file() == "pytorch_model.bin");
  CHECK_FALSE(choose_weights(folder_with({"tf_model.h5"})).format);
  CHECK(weights_file_names() ==
        "model.safetensors, model.safetensors.index.json, pytorch_model.bin or pytorch_model.bin.index.json");
}

TEST_CASE("folder files: what a folder on disk lacks, for its tokenizer and for the whole model") {
  bktest::TempDir dir;
  const fs::path root = dir.path();
  bktest::write_file(root / "config.json", "{}");
  CHECK(first_missing_file(root, ModelPart::Tokenizer)->starts_with("its tokenizer"));
  bktest::write_file(root / "vocab.txt", "[PAD]\n");
  CHECK_FALSE(first_missing_file(root, ModelPart::Tokenizer));
  CHECK(first_missing_file(root, ModelPart::Whole) == "its weights (" + weights_file_names() + ")");
  bktest::write_file(root / "model.safetensors.index.json",
                     R"({"weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}})");
  bktest::write_file(root / "model-00001-of-00002.safetensors", "");
  CHECK(first_missing_file(root, ModelPart::Whole) == "model-00002-of-00002.safetensors");
  bktest::write_file(root / "model-00002-of-00002.safetensors", "");
  CHECK_FALSE(first_missing_file(root, ModelPart::Whole));
  // sentence-transformers: the Pooling and Dense modules' files; Normalize has none.
  bktest::write_file(root / "modules.json", R"([
    {"path": "", "type": "sentence_transformers.models.Transformer"},
    {"path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    {"path": "3_Normalize", "type": "sentence_transformers.models.Normalize"}])");
  CHECK(first_missing_file(root, ModelPart::Whole) == "1_Pooling/config.json");
  CHECK_FALSE(first_missing_file(root, ModelPart::Tokenizer));
  bktest::write_file(root / "1_Pooling/config.json", "{}");
  bktest::write_file(root / "2_Dense/config.json", "{}");
  CHECK(first_missing_file(root, ModelPart::Whole)->starts_with("the weights of 2_Dense/ (model.safetensors"));
  bktest::write_file(root / "2_Dense/pytorch_model.bin", "");
  CHECK_FALSE(first_missing_file(root, ModelPart::Whole));
  // A SparseEncoder's SpladePooling config and a PyLate Dense module's weights are read as well.
  bktest::write_file(root / "modules.json", R"([
    {"path": "", "type": "sentence_transformers.sparse_encoder.models.MLMTransformer"},
    {"path": "1_SpladePooling", "type": "sentence_transformers.sparse_encoder.modules.splade_pooling.SpladePooling"},
    {"path": "2_ColBERT", "type": "pylate.models.Dense.Dense"}])");
  CHECK(first_missing_file(root, ModelPart::Whole) == "1_SpladePooling/config.json");
  bktest::write_file(root / "1_SpladePooling/config.json", "{}");
  bktest::write_file(root / "2_ColBERT/config.json", "{}");
  CHECK(first_missing_file(root, ModelPart::Whole)->starts_with("the weights of 2_ColBERT/ (model.safetensors"));
  bktest::write_file(root / "2_ColBERT/model.safetensors", "");
  CHECK_FALSE(first_missing_file(root, ModelPart::Whole));
}
