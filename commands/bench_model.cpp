#include "commands/bench_model.h"

#include "core/checkpoint/safetensors_writer.h"
#include "core/error.h"
#include "core/bench/model_shapes.h"
#include "core/model/family_spec.h"
#include "core/model/name_map.h"
#include "core/files.h"
#include "tokenizer/default_vocab.h"
#include "tokenizer/vocab.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace bertkit::cmd {

namespace {

void write_text(const std::filesystem::path& path, std::string_view text) {
  core::AtomicFile out(path);
  out.write(std::as_bytes(std::span(text)));
  out.commit();
}

// MPNet's vocab.txt as all-mpnet-base-v2 lays it out: <s> <pad> </s> <unk>, BERT's words, then <mask>
// (30,527 tokens, the shape's vocab_size).
std::string mpnet_vocab_text() {
  return "<s>\n<pad>\n</s>\n<unk>\n" + std::string(tok::default_vocab_text()) + "<mask>\n";
}

// all-mpnet-base-v2's tokenizer.json over `vocab`: BERT's normaliser and pre-tokenizer, WordPiece, and
// RoBERTa's <s> ... </s> around a text (</s></s> between a pair).
std::string mpnet_tokenizer_json(const tok::Vocab& vocab) {
  using Json = nlohmann::ordered_json;
  auto id_of = [&vocab](std::string_view token) { return vocab.find(token).value(); };
  Json added = Json::array();
  for (const char* token : {"<s>", "<pad>", "</s>", "<unk>", "[UNK]", "<mask>"})
    added.push_back({{"id", id_of(token)}, {"content", token}, {"single_word", false},
                     {"lstrip", std::string_view(token) == "<mask>"}, {"rstrip", false},
                     {"normalized", std::string_view(token) == "<unk>"}, {"special", true}});
  Json ids = Json::object();
  for (std::size_t i = 0; i < vocab.size(); ++i) ids[std::string(vocab.token(static_cast<std::int32_t>(i)))] = i;
  const Json tokenizer = {
      {"version", "1.0"},
      {"truncation", nullptr},
      {"padding", nullptr},
      {"added_tokens", added},
      {"normalizer",
       {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true}, {"strip_accents", nullptr},
        {"lowercase", true}}},
      {"pre_tokenizer", {{"type", "BertPreTokenizer"}}},
      {"post_processor",
       {{"type", "RobertaProcessing"}, {"sep", {"</s>", id_of("</s>")}}, {"cls", {"<s>", id_of("<s>")}},
        {"trim_offsets", true}, {"add_prefix_space", false}}},
      {"decoder", {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}}},
      {"model",
       {{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"continuing_subword_prefix", "##"},
        {"max_input_chars_per_word", 100}, {"vocab", ids}}}};
  return tokenizer.dump() + "\n";
}

}  // namespace

core::Weights random_model_weights(const core::ModelShape& shape) {
  return core::random_weights(core::config_of(shape), 1);
}

std::vector<std::string> save_model_folder(const core::ModelShape& shape, const core::Weights& weights,
                                           const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) runtime_error("{}: cannot create the folder: {}", folder.string(), ec.message());
  std::vector<std::string> written = {"config.json", "model.safetensors", "vocab.txt"};
  write_text(folder / "config.json", core::config_json(shape));
  if (shape.model_type == "mpnet") {
    // MPNet puts <s> ... </s> around a text, which only a tokenizer.json says.
    const std::string text = mpnet_vocab_text();
    write_text(folder / "vocab.txt", text);
    write_text(folder / "tokenizer.json", mpnet_tokenizer_json(tok::Vocab::from_text(text, "vocab.txt")));
    written.push_back("tokenizer.json");
  } else {
    write_text(folder / "vocab.txt", tok::default_vocab_text());
  }
  // Under the names the family's checkpoints use (DeBERTa's key_proj, ModernBERT's layers.N), so that
  // the folder loads as the Hub's do.
  const core::ModelConfig config = core::config_of(shape);
  const core::ArchitectureSpec& architecture = core::architecture_spec(config);
  core::Weights named;
  for (const std::string& name : weights.names())
    named.add(core::checkpoint_spelling(*config.family, architecture, name), *weights.find(name));
  core::write_safetensors(named, folder / "model.safetensors");
  return written;
}

}  // namespace bertkit::cmd
