#pragma once
// A small byte-level BPE tokenizer.json for the BPE fuzz targets: every byte's character, a few merges
// (so words merge into longer tokens, spaces included), RoBERTa's special tokens with <mask> lstrip,
// RobertaProcessing with trim_offsets. Built in code: the fuzz targets need no file from ../shared.
#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bkfuzz {

inline nlohmann::json bpe_tokenizer_json() {
  using nlohmann::json;
  json vocab = json::object();
  std::int64_t next = 0;
  for (const char* special : {"<s>", "<pad>", "</s>", "<unk>"}) vocab[special] = next++;
  for (int b = 0; b < 256; ++b) {
    std::string c;
    bertkit::tok::append_utf8(c, bertkit::tok::byte_level_char(static_cast<std::uint8_t>(b)));
    vocab[c] = next++;
  }
  json merges = json::array();
  for (const char* m : {"\xC4\xA0 t", "h e", "\xC4\xA0t he", "i n", "\xC4\xA0 a", "e r", "a n", "o n", "\xC4\xA0 \xC4\xA0",
                        "\xC3\xA2 \xC4\xA2", "in g", "\xC4\xA0" "a n", "e d"}) {
    std::string s = m;
    const auto space = s.find(' ');
    const std::string merged = s.substr(0, space) + s.substr(space + 1);
    if (!vocab.contains(merged)) vocab[merged] = next++;
    merges.push_back(s);
  }
  vocab["<mask>"] = next;
  json added = json::array();
  const char* specials[] = {"<s>", "<pad>", "</s>", "<unk>"};
  for (std::int64_t id = 0; id < 4; ++id)
    added.push_back({{"id", id}, {"content", specials[id]}, {"special", true}, {"single_word", false}, {"lstrip", false},
                     {"rstrip", false}, {"normalized", true}});
  added.push_back({{"id", next}, {"content", "<mask>"}, {"special", true}, {"single_word", false}, {"lstrip", true},
                   {"rstrip", false}, {"normalized", true}});
  return {{"added_tokens", added},
          {"normalizer", nullptr},
          {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}}},
          {"post_processor",
           {{"type", "RobertaProcessing"}, {"sep", {"</s>", 2}}, {"cls", {"<s>", 0}}, {"trim_offsets", true},
            {"add_prefix_space", false}}},
          {"decoder", {{"type", "ByteLevel"}}},
          {"model", {{"unk_token", nullptr}, {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""},
                     {"fuse_unk", false}, {"vocab", vocab}, {"merges", merges}}}};
}

}  // namespace bkfuzz
