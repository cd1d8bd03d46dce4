// `bertkit convert` and `bertkit info` end to end.
#include "core/loading/converted_file.h"
#include "support.h"
#include "unit/checkpoint_builders.h"

#include <doctest/doctest.h>

#include <fmt/format.h>
#include <map>
#include <sstream>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

extern char** environ;

namespace fs = std::filesystem;

namespace {


}  // namespace

TEST_CASE("convert/info: a converted fixture is checked and described like its folder") {
  bktest::TempDir dir;
  auto folder = bktest::shared("fixtures/models/bert-cased-cls").string();
  auto file = (dir / "cls.bk").string();
  auto r = bktest::run_bertkit({"convert", folder, file});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  auto check = bktest::run_bertkit({"convert", "--check", file});
  CHECK(check.exit_code == 0);
  CHECK(check.out.find(": ok (") != std::string::npos);
  // The tokenizer goes in compiled: tokenizer.json without its vocabulary, which is in vocab.txt, and
  // WordPiece's tables in wordpiece.bin (tokenized the same: tokenizer_compact_test, tokenizer_image_test).
  const auto converted = bertkit::core::load_converted_file(file, file);
  REQUIRE(converted.tokenizer.tokenizer_json.has_value());
  CHECK_FALSE(nlohmann::json::parse(*converted.tokenizer.tokenizer_json)["model"].contains("vocab"));
  CHECK(converted.tokenizer.vocab_txt.has_value());
  CHECK(converted.tokenizer.wordpiece_image.has_value());

  auto goldens = bktest::read_json(bktest::shared("fixtures/models/bert-cased-cls/goldens.json"));
  for (const auto& model : {folder, file}) {
    INFO(model);
    auto info = bktest::run_bertkit({"info", model});
    REQUIRE(info.exit_code == 0);
    auto has_line = [&](const std::string& key, const std::string& value) {
      return info.out.find(bktest::cat("\n", key, ": ", value, "\n")) != std::string::npos;
    };
    CHECK(has_line("architecture", goldens["model_class"].get<std::string>()));
    CHECK(has_line("hidden_size", std::to_string(goldens["spec"]["hidden"].get<int>())));
    CHECK(has_line("num_layers", std::to_string(goldens["spec"]["layers"].get<int>())));
    auto labels = goldens["spec"]["labels"];
    CHECK(has_line("labels", bktest::cat("0=", labels[0].get<std::string>(), " 1=", labels[1].get<std::string>(), " 2=",
                                         labels[2].get<std::string>())));
    CHECK(info.out.find("tokenizer.do_lower_case: false\n") != std::string::npos);
    CHECK(has_line("tokenizer_tables", model == file ? "compiled (wordpiece.bin, used in place)" : "built at load"));
  }
  {  // A file whose compiled tables are of another format version: still read, and info says how.
    std::string bytes = bktest::read_file(file);
    const std::size_t image = bytes.find("BKWP");
    REQUIRE(image != std::string::npos);
    bytes[image + 4] = static_cast<char>(bytes[image + 4] + 1);
    const auto old_file = (dir / "old.bk").string();
    bktest::write_file(old_file, bytes);
    auto info = bktest::run_bertkit({"info", old_file});
    REQUIRE(info.exit_code == 0);
    CHECK(info.out.find("\ntokenizer_tables: built at load (wordpiece.bin is from another bertkit version") !=
          std::string::npos);
    auto tokens = bktest::run_bertkit({"tokenize", "-m", old_file, "--format", "ids", "Hello world"});
    CHECK(tokens.exit_code == 0);
    CHECK(tokens.out == bktest::run_bertkit({"tokenize", "-m", file, "--format", "ids", "Hello world"}).out);
  }
  auto json = bktest::run_bertkit({"info", "--json", file});
  REQUIRE(json.exit_code == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["architecture"] == goldens["model_class"]);
  CHECK(j["format"] == "bertkit converted file");
  CHECK(j["from.converted from"] == nlohmann::json::array({folder}));
}

TEST_CASE("info --json: every line's value, typed, a key with several values (one per file) is a list") {
  for (const char* name : {"minilm-embed", "bert-cased-cls"}) {
    auto folder = bktest::shared(std::string("fixtures/models/") + name).string();
    auto text = bktest::run_bertkit({"info", folder});
    auto json = bktest::run_bertkit({"info", "--json", folder});
    REQUIRE(text.exit_code == 0);
    REQUIRE(json.exit_code == 0);
    auto j = nlohmann::ordered_json::parse(json.out);
    // Nothing dropped: each "key: value" line is in the object, repeated keys as lists in order.
    std::map<std::string, std::size_t> seen;
    for (const auto& line : bktest::split_lines(text.out)) {
      const auto colon = line.find(": ");
      REQUIRE(colon != std::string::npos);
      const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
      CAPTURE(line);
      REQUIRE(j.contains(key));
      const auto& v = key.starts_with("from.") ? j[key].at(seen[key]++) : j[key];
      if (v.is_string()) CHECK(v.get<std::string>() == value);
      if (v.is_number_integer()) CHECK(std::to_string(v.get<std::int64_t>()) == value);
      if (v.is_boolean()) CHECK((value == "yes" || value == "no" || value == "true" || value == "false"));
    }
    for (const auto& [key, n] : seen) CHECK(j[key].size() == n);
    CHECK(j["hidden_size"].is_number_integer());
    CHECK(j["parameters"].is_number_integer());
    CHECK(j["layer_norm_eps"].get<double>() == 1e-12);
    CHECK(j["tokenizer.strip_accents"].is_null());
    CHECK(j["tokenizer.tokenize_chinese_chars"] == true);
    CHECK(j["tokenizer_files"] == nlohmann::ordered_json::array({"vocab.txt", "tokenizer.json", "tokenizer_config.json",
                                                                 "special_tokens_map.json"}));
    CHECK(j["from.tokenizer"].size() == 4);
  }
  auto j = nlohmann::json::parse(
      bktest::run_bertkit({"info", "--json", bktest::shared("fixtures/models/minilm-embed").string()}).out);
  CHECK(j["normalize"] == true);
  CHECK(j["max_seq_length"].is_number_integer());
  j = nlohmann::json::parse(
      bktest::run_bertkit({"info", "--json", bktest::shared("fixtures/models/bert-cased-cls").string()}).out);
  auto goldens = bktest::read_json(bktest::shared("fixtures/models/bert-cased-cls/goldens.json"));
  CHECK(j["labels"] == goldens["spec"]["labels"]);
  // A sharded checkpoint: its index, then the two shards.
  REQUIRE(j["from.weights"].size() == 3);
  CHECK(j["from.weights"][0].get<std::string>().ends_with("model.safetensors.index.json"));
  CHECK(j["from.weights"][2].get<std::string>().ends_with("model-00002-of-00002.safetensors"));
}

TEST_CASE("convert/info: bad input gives one error line naming the file, exit 3, and no output file") {
  bktest::TempDir dir;
  // A model folder whose weights are a malicious pickle.
  bktest::write_file(dir / "evil/config.json", bktest::read_file(bktest::shared("fixtures/models/bert-uncased-qa/config.json")));
  bktest::write_file(dir / "evil/pytorch_model.bin",
                      bktest::stored_zip({{"a/data.pkl", bktest::cat("\x80\x02" "cos\nsystem\n", bktest::pickle_unicode("true"), "\x85R.")}}));
  auto info = bktest::run_bertkit({"info", (dir / "evil").string()});
  CHECK(info.exit_code == 3);
  CHECK(bktest::count_lines(info.err) == 1);
  CHECK(info.err.find((dir / "evil/pytorch_model.bin").string()) != std::string::npos);
  CHECK(info.err.find("os.system") != std::string::npos);

  // Converting it over an existing file leaves that file alone and no temporary behind.
  bktest::write_file(dir / "out/model.bk", "previous");
  auto convert = bktest::run_bertkit({"convert", (dir / "evil").string(), (dir / "out/model.bk").string()});
  CHECK(convert.exit_code == 3);
  CHECK(bktest::read_file(dir / "out/model.bk") == "previous");
  CHECK(std::distance(fs::directory_iterator(dir / "out"), fs::directory_iterator()) == 1);

  auto missing = bktest::run_bertkit({"info", (dir / "nowhere").string()});
  CHECK(missing.exit_code == 3);
  auto bad_check = bktest::run_bertkit({"convert", "--check", (dir / "out/model.bk").string()});
  CHECK(bad_check.exit_code == 3);
  CHECK(bad_check.err.find("model.bk") != std::string::npos);
  auto bad_dtype = bktest::run_bertkit({"convert", "--dtype", "f8", (dir / "evil").string(), (dir / "x.bk").string()});
  CHECK(bad_dtype.exit_code == 2);
}

TEST_CASE("convert: Ctrl-C leaves either the complete file or none, and never a temporary file") {
  // A model big enough that int8 conversion takes a while: 30522 x 256 embeddings, 4 layers.
  bktest::TempDir dir;
  const int hidden = 256, vocab = 30522, inter = 1024, layers = 4;
  nlohmann::json config = {{"model_type", "bert"}, {"vocab_size", vocab}, {"hidden_size", hidden},
                           {"num_hidden_layers", layers}, {"num_attention_heads", 4}, {"intermediate_size", inter},
                           {"max_position_embeddings", 128}};
  std::vector<bktest::TestTensor> tensors;
  auto add = [&](std::string name, std::vector<std::int64_t> shape) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 97) / 97.0f - 0.5f;
    tensors.push_back({std::move(name), "F32", std::move(shape), bktest::f32_bytes(v)});
  };
  add("embeddings.word_embeddings.weight", {vocab, hidden});
  add("embeddings.position_embeddings.weight", {128, hidden});
  add("embeddings.token_type_embeddings.weight", {2, hidden});
  add("embeddings.LayerNorm.weight", {hidden});
  add("embeddings.LayerNorm.bias", {hidden});
  for (int l = 0; l < layers; ++l) {
    std::string p = "encoder.layer." + std::to_string(l) + ".";
    for (const char* m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
      add(p + m + ".weight", {hidden, hidden});
      add(p + m + ".bias", {hidden});
    }
    for (const char* m : {"attention.output.LayerNorm", "output.LayerNorm"}) {
      add(p + m + ".weight", {hidden});
      add(p + m + ".bias", {hidden});
    }
    add(p + "intermediate.dense.weight", {inter, hidden});
    add(p + "intermediate.dense.bias", {inter});
    add(p + "output.dense.weight", {hidden, inter});
    add(p + "output.dense.bias", {hidden});
  }
  bktest::write_file(dir / "model/config.json", config.dump());
  bktest::write_file(dir / "model/model.safetensors", bktest::safetensors(tensors));
  fs::create_directories(dir / "out");

  const std::string binary = BERTKIT_BINARY, source = (dir / "model").string(), dest = (dir / "out/m.bk").string();
  for (int delay_ms : {20, 80, 200}) {
    std::vector<std::string> args = {binary, "--quiet", "convert", "--dtype", "int8", source, dest};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    REQUIRE(posix_spawn(&pid, binary.c_str(), nullptr, nullptr, argv.data(), environ) == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    INFO("delay " << delay_ms << " ms, status " << status);
    CHECK((WIFSIGNALED(status) ? WTERMSIG(status) == SIGINT : WEXITSTATUS(status) == 0));
    for (const auto& e : fs::directory_iterator(dir / "out")) CHECK(e.path().filename() == "m.bk");
    if (fs::exists(dest)) {
      CHECK(bktest::run_bertkit({"convert", "--check", dest}).exit_code == 0);
      fs::remove(dest);
    }
  }
}

TEST_CASE("convert --verify: f32 against itself is exact, int8 stays within its bound on the given corpus") {
  bktest::TempDir dir;
  SUBCASE("a lossless f32 file: cosine 1, no logit differs, every top-1 agrees") {
    auto folder = bktest::shared("fixtures/models/distilbert-uncased-cls").string();
    auto r = bktest::run_bertkit({"-q", "convert", "--verify", folder, (dir / "cls.bk").string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("embedding cosine similarity: mean 1.000000, min 1.000000\n") != std::string::npos);
    CHECK(r.out.find("classification top-1 agreement: 16/16 (100.0%), max |logit difference| 0\n") != std::string::npos);
    CHECK(r.out.find("  f32 top-1 margin over the runner-up: median ") != std::string::npos);
    CHECK(r.out.find("that differ") == std::string::npos);
  }
  SUBCASE("int8 on 400 real lines: the inputs that differ are near-ties, as only they can be") {
    // A top-1 can change only where f32's margin over the runner-up is under twice the largest logit
    // difference; the random-weight fixture has enough near-ties to flip some.
    const std::string text = bktest::read_file(bktest::shared("corpora/en_sst2_dev.txt"));
    std::string lines;
    std::size_t at = 0;
    for (int i = 0; i < 400 && at < text.size(); ++i) {
      const auto end = std::min(text.find('\n', at), text.size());
      lines += text.substr(at, end - at) + "\n";
      at = end + 1;
    }
    const auto corpus = (dir / "sst2.txt").string();
    bktest::write_file(corpus, lines);
    auto r = bktest::run_bertkit({"convert", "--verify", "--dtype", "int8", "--corpus", corpus,
                                  bktest::shared("fixtures/models/bert-uncased-mlm").string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    unsigned agree = 0, total = 0, differ = 0;
    double max_diff = 0, median = 0, flipped = 0;
    const auto line = r.out.find("fill-mask (middle token masked) top-1 agreement: ");
    REQUIRE(line != std::string::npos);
    REQUIRE(std::sscanf(r.out.c_str() + line, "fill-mask (middle token masked) top-1 agreement: %u/%u (%*f%%), max |logit difference| %lf\n  f32 top-1 margin over the runner-up: median %lf, largest among the %u that differ %lf",
                        &agree, &total, &max_diff, &median, &differ, &flipped) == 6);
    CHECK(total == 400);
    CHECK(differ == total - agree);
    CHECK(differ > 0);
    CHECK(median > 0);
    CHECK(flipped > 0);
    CHECK(flipped < 2 * max_diff);
  }
  SUBCASE("int8 converted at load, on a corpus file") {
    auto corpus = (dir / "corpus.txt").string();
    bktest::write_file(corpus, "The capital of France is Paris.\n\nI like coffee in the morning.\nThanks!\n");
    auto folder = bktest::shared("fixtures/models/bert-uncased-mlm").string();
    auto r = bktest::run_bertkit({"convert", "--verify", "--dtype", "int8", "--corpus", corpus, folder});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("against int8 (converted at load), 3 texts from " + corpus) != std::string::npos);
    auto at = r.out.find("min ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(r.out.substr(at + 4)) >= 0.999);
    CHECK(r.out.find("fill-mask (middle token masked) top-1 agreement: ") != std::string::npos);
    CHECK(!fs::exists(dir / "corpus.bk"));
  }
  SUBCASE("a corpus that cannot be read: one error line naming it, nothing written") {
    const auto missing = (dir / "no-such-corpus.txt").string();
    auto r = bktest::run_bertkit({"convert", "--verify", "--dtype", "int8", "--corpus", missing,
                                  bktest::shared("fixtures/models/minilm-embed").string(), (dir / "out.bk").string()});
    CHECK(r.exit_code != 0);
    CHECK(r.out.empty());
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find(missing) != std::string::npos);
    CHECK(!fs::exists(dir / "out.bk"));
  }
}

TEST_CASE("convert: a full disk ends with one error line, status 1, and no file at all") {
  bktest::TempDir dir;
  std::filesystem::create_directory(dir / "out");
  const auto dest = dir / "out" / "model.bk";
  auto r = bktest::run_bertkit_with_file_limit(
      64 * 1024, {"convert", bktest::shared("fixtures/models/bert-cased-cls").string(), dest.string()});
  CHECK(r.exit_code == 1);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find(dest.string()) != std::string::npos);
  CHECK(std::filesystem::is_empty(dir / "out"));  // neither the file nor a temporary one
}

TEST_CASE("convert: a folder as DST gets SRC's name inside it, DST = SRC and a missing folder are refused first") {
  bktest::TempDir dir;
  auto folder = bktest::shared("fixtures/models/minilm-embed").string();
  std::filesystem::create_directory(dir / "out");
  auto r = bktest::run_bertkit({"convert", folder + "/", (dir / "out").string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(std::filesystem::is_regular_file(dir / "out/minilm-embed.bk"));
  CHECK(r.err.find("wrote " + (dir / "out/minilm-embed.bk").string() + " (") != std::string::npos);

  const auto file = (dir / "out/minilm-embed.bk").string();
  const auto size = std::filesystem::file_size(file);
  const auto same = (dir / "out/../out/minilm-embed.bk").string();
  r = bktest::run_bertkit({"convert", "--dtype", "int8", file, same});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "bertkit: error: convert: destination " + same + " is the model's file " + file +
                     ": writing it would destroy that input; write to another file\n");
  CHECK(std::filesystem::file_size(file) == size);  // the input is untouched

  r = bktest::run_bertkit({"convert", folder, (dir / "no/such/x.bk").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "bertkit: error: convert: destination " + (dir / "no/such/x.bk").string() +
                     ": cannot write it: the folder " + (dir / "no/such").string() + " does not exist\n");
}

TEST_CASE("convert --verify refuses a bf16 or int8 file as its reference: there is no f32 model in it") {
  bktest::TempDir dir;
  auto folder = bktest::shared("fixtures/models/minilm-embed").string();
  for (const std::string type : {"bf16", "int8"}) {
    const auto file = (dir / (type + ".bk")).string();
    REQUIRE(bktest::run_bertkit({"convert", "--dtype", type, folder, file}).exit_code == 0);
    for (const auto& args : {std::vector<std::string>{"convert", "--verify", file},
                             std::vector<std::string>{"convert", "--verify", "--dtype", "int8", file},
                             std::vector<std::string>{"convert", "--verify", file, (dir / "again.bk").string()}}) {
      auto r = bktest::run_bertkit(args);
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK(r.err == "bertkit: error: convert --verify: " + file + " stores " + type +
                         " weights, so it has no f32 model to compare with; verify the original model instead: "
                         "bertkit convert --verify --dtype " + type + " ORIGINAL\n");
      CHECK_FALSE(std::filesystem::exists(dir / "again.bk"));  // refused before anything is written
    }
  }
}

TEST_CASE("convert --check and info count the same tensors, info lists int8 scales apart") {
  bktest::TempDir dir;
  auto folder = bktest::shared("fixtures/models/bert-uncased-qa").string();
  const auto file = (dir / "qa8.bk").string();
  auto convert = bktest::run_bertkit({"convert", "--dtype", "int8", folder, file});
  REQUIRE(convert.exit_code == 0);
  auto check = bktest::run_bertkit({"convert", "--check", file});
  auto info_file = bktest::run_bertkit({"info", file});
  auto info_folder = bktest::run_bertkit({"info", folder});
  auto count = [](const std::string& text, const std::string& before) {
    auto at = text.find(before);
    REQUIRE(at != std::string::npos);
    return std::stoul(text.substr(at + before.size()));
  };
  const auto tensors = count(check.out, ": ok (");
  CHECK(count(convert.err, " (") == tensors);
  CHECK(count(info_file.out, "\ntensors: ") == tensors);
  CHECK(count(info_folder.out, "\ntensors: ") == tensors);
  CHECK(count(info_file.out, "\nint8_scales: ") > 0);
  CHECK(info_folder.out.find("int8_scales") == std::string::npos);
  // Converted again from the int8 file, whose scales load as tensors: still counted with their matrices.
  const auto again = (dir / "again.bk").string();
  auto reconvert = bktest::run_bertkit({"convert", "--dtype", "int8", file, again});
  REQUIRE(reconvert.exit_code == 0);
  CHECK(count(reconvert.err, " (") == tensors);
  CHECK(count(bktest::run_bertkit({"convert", "--check", again}).out, ": ok (") == tensors);
}

TEST_CASE("convert --verify on a token-classification model compares every token's label") {
  const auto folder = bktest::shared("fixtures/models2/bert-cased-ner");
  if (!fs::exists(folder)) FAIL("missing " << folder);
  bktest::TempDir dir;
  const auto corpus = (dir / "corpus.txt").string();
  bktest::write_file(corpus, "Angela Merkel met Emmanuel Macron in Paris.\nThe United Nations is in New York.\n");
  SUBCASE("f32 against f32 agrees on every token exactly") {
    auto r = bktest::run_bertkit({"-q", "convert", "--verify", "--corpus", corpus, folder.string(), (dir / "ner.bk").string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    // Both texts' tokens, [CLS] and [SEP] left out: counted with the tokenizer itself.
    auto count = bktest::run_bertkit({"tokenize", "-m", folder.string(), "--count", "--no-special-tokens",
                                      "--format", "ids", "-i", corpus});
    REQUIRE_MESSAGE(count.exit_code == 0, count.err);
    unsigned tokens = 0, n = 0;
    std::istringstream lines(count.out);
    while (lines >> n) tokens += n;
    REQUIRE(tokens > 10);
    CHECK(r.out.find(fmt::format("token labels (every token) top-1 agreement: {}/{} (100.0%), max |logit difference| 0\n", tokens, tokens)) != std::string::npos);
  }
  SUBCASE("int8: the tokens that differ are near-ties") {
    auto r = bktest::run_bertkit({"convert", "--verify", "--dtype", "int8", "--corpus", corpus, folder.string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    unsigned agree = 0, total = 0;
    double max_diff = 0;
    const auto line = r.out.find("token labels (every token) top-1 agreement: ");
    REQUIRE(line != std::string::npos);
    REQUIRE(std::sscanf(r.out.c_str() + line, "token labels (every token) top-1 agreement: %u/%u (%*f%%), max |logit difference| %lf", &agree, &total, &max_diff) == 3);
    CHECK(total > 10);
    CHECK(max_diff > 0);
    CHECK(max_diff < 0.5);
  }
}

TEST_CASE("a token added past the vocabulary (tokenizer.add_tokens) is tokenized, decoded and converted, a model "
          "whose embeddings lack it refuses it by id") {
  bktest::TempDir dir;
  const auto folder = dir / "added";
  fs::copy(bktest::shared("fixtures/models/minilm-embed"), folder, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  auto tokenizer = nlohmann::json::parse(bktest::read_file(folder / "tokenizer.json"));
  const std::size_t size = tokenizer["model"]["vocab"].size();
  tokenizer["added_tokens"].push_back({{"id", size}, {"content", "<ent>"}, {"single_word", false}, {"lstrip", false},
                                       {"rstrip", false}, {"normalized", false}, {"special", true}});
  bktest::write_file(folder / "tokenizer.json", tokenizer.dump());
  const auto file = (dir / "added.bk").string();
  REQUIRE(bktest::run_bertkit({"convert", folder.string(), file}).exit_code == 0);
  const std::string ids = "101 1037 " + std::to_string(size) + " 1038 102\n";
  for (const std::string& model : {folder.string(), file}) {
    INFO(model);
    auto tokens = bktest::run_bertkit({"tokenize", "--format", "ids", "-m", model, "a <ent> b"});
    CHECK(tokens.exit_code == 0);
    CHECK(tokens.out == ids);
    auto decoded = bktest::run_bertkit({"tokenize", "--decode", "--format", "tokens", "-m", model}, ids);
    CHECK(decoded.out == "[CLS] a <ent> b [SEP]\n");
    auto embed = bktest::run_bertkit({"embed", "-m", model, "a <ent> b"});
    CHECK(embed.exit_code == 3);
    CHECK(embed.err == "bertkit: error: <argument>:1: input 1 has token id " + std::to_string(size) +
                           ", outside the vocabulary of " + std::to_string(size) + " tokens\n");
  }
}
