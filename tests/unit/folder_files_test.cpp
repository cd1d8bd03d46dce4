// The table of which files a model folder has (core/folder_files.h): which tokenizer files and weights
// the loader reads, and what a folder on disk lacks to run.
#include "support.h"

#include "core/folder_files.h"

#include <doctest/doctest.h>

#include <set>

using namespace bertkit::core;
namespace fs = std::filesystem;

namespace {

FileExists in(std::set<std::string> names) {
  return [names = std::move(names)](std::string_view name) { return names.count(std::string(name)) > 0; };
}

}  // namespace

TEST_CASE("folder files: the tokenizer is tokenizer.json, else vocab.txt, else vocab.json with merges.txt") {
  auto choice = choose_tokenizer_files(in({"tokenizer.json", "vocab.txt", "vocab.json", "merges.txt",
                                           "special_tokens_map.json", "tokenizer_config.json", "spm.model"}));
  CHECK(choice.source == TokenizerSource::TokenizerJson);
  CHECK(choice.files == std::vector<std::string>{"tokenizer.json", "vocab.txt", "tokenizer_config.json",
                                                 "special_tokens_map.json"});
  choice = choose_tokenizer_files(in({"vocab.json", "merges.txt", "special_tokens_map.json"}));
  CHECK(choice.source == TokenizerSource::VocabJsonMerges);
  CHECK(choice.files == std::vector<std::string>{"vocab.json", "merges.txt", "special_tokens_map.json"});
  CHECK(choose_tokenizer_files(in({"vocab.json"})).source == TokenizerSource::None);  // merges.txt too, or nothing
  choice = choose_tokenizer_files(in({"spm.model", "tokenizer_config.json"}));
  CHECK(choice.source == TokenizerSource::None);
  CHECK(choice.sentencepiece_only == "spm.model");
  // The download also takes added_tokens.json, and the SentencePiece model when no tokenizer.json comes.
  CHECK(downloaded_tokenizer_files(in({"spm.model", "tokenizer_config.json", "added_tokens.json"})) ==
        std::vector<std::string>{"tokenizer_config.json", "added_tokens.json", "spm.model"});
  CHECK(downloaded_tokenizer_files(in({"tokenizer.json", "sentencepiece.bpe.model"})) ==
        std::vector<std::string>{"tokenizer.json"});
}

TEST_CASE("folder files: the weights are safetensors before pytorch_model.bin, a file before its shards") {
  auto w = choose_weights(in({"pytorch_model.bin", "model.safetensors.index.json", "model.safetensors"}));
  REQUIRE(w.format);
  CHECK(w.file() == "model.safetensors");
  w = choose_weights(in({"pytorch_model.bin", "model.safetensors.index.json"}));
  CHECK(w.file() == "model.safetensors.index.json");
  CHECK(w.layout == WeightsLayout::Sharded);
  CHECK(is_shard_of(*w.format, "model-00001-of-00002.safetensors"));
  CHECK_FALSE(is_shard_of(*w.format, "model-0001-of-00002.safetensors"));
  CHECK_FALSE(is_shard_of(*w.format, "pytorch_model-00001-of-00002.bin"));
  CHECK(choose_weights(in({"pytorch_model.bin"})).file() == "pytorch_model.bin");
  CHECK_FALSE(choose_weights(in({"tf_model.h5"})).format);
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
}
