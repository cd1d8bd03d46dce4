// The template post-processor: [CLS] A [SEP] and [CLS] A [SEP] B [SEP], token type ids, the special
// tokens mask, sequence ids and offsets into each text, and encoding without special tokens. Expected
// values for the made-up pair were computed with the reference library (npm tokenizers 0.23.2).
#include "tokenizer_test_helpers.h"

#include "tokenizer/post_processor.h"

#include <doctest/doctest.h>

using bertkit::tok::Encoding;
using bertkit::tok::PostProcessor;
using bertkit::tok::TemplatePiece;

namespace {
const std::string kA = "H\xC3\xA9llo w\xC3\xB6rld";                  // Héllo wörld
const std::string kB = "\xC3\x87" "a va? Tr\xC3\xA8s bien.";         // Ça va? Très bien.
}  // namespace

TEST_CASE("post-processor: a pair through BERT's template") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  Encoding e = tok.encode(kA, kB, {});
  CHECK(bktest::tokens_str(e, tok) == "[CLS] hello world [SEP] ca va ? tres bien . [SEP]");
  CHECK(bktest::join(e.ids) == "101 7592 2088 102 6187 12436 1029 24403 29316 1012 102");
  CHECK(bktest::join(e.type_ids) == "0 0 0 0 1 1 1 1 1 1 1");
  CHECK(bktest::char_offsets_str(e, kA, kB) == "0:0 0:5 6:11 0:0 0:2 3:5 5:6 7:11 12:16 16:17 0:0");
  CHECK(bktest::join(e.special_mask) == "1 0 0 1 0 0 0 0 0 0 1");
  CHECK(bktest::join(e.attention_mask) == "1 1 1 1 1 1 1 1 1 1 1");
  CHECK(bktest::join(e.words) == "-1 0 1 -1 0 1 2 3 4 5 -1");
  CHECK(bktest::join(e.sequence) == "-1 0 0 -1 1 1 1 1 1 1 -1");
  CHECK(tok.added_tokens(true) == 3);
  CHECK(tok.added_tokens(false) == 2);
}

TEST_CASE("post-processor: without special tokens the sequences are only concatenated") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  bertkit::tok::EncodeOptions o;
  o.add_special_tokens = false;
  Encoding e = tok.encode(kA, kB, o);
  CHECK(bktest::join(e.ids) == "7592 2088 6187 12436 1029 24403 29316 1012");
  CHECK(bktest::join(e.type_ids) == "0 0 1 1 1 1 1 1");
  CHECK(bktest::char_offsets_str(e, kA, kB) == "0:5 6:11 0:2 3:5 5:6 7:11 12:16 16:17");
  e = tok.encode(kA, std::nullopt, o);
  CHECK(bktest::join(e.ids) == "7592 2088");
  // An empty text is just the template.
  e = tok.encode("", std::nullopt, {});
  CHECK(bktest::join(e.ids) == "101 102");
  e = tok.encode("", std::string_view(""), {});
  CHECK(bktest::join(e.ids) == "101 102 102");
  CHECK(bktest::join(e.type_ids) == "0 0 1");
}

TEST_CASE("post-processor: a custom template places special tokens and type ids as written") {
  // "<s> A </s> </s> B </s>" with B's type id 0, as RoBERTa-style templates do.
  Encoding a, b;
  a.push(10, 0, {0, 1}, 0, 0, false);
  b.push(20, 0, {0, 2}, 0, 1, false);
  b.push(21, 0, {3, 4}, 1, 1, false);
  TemplatePiece s{false, 0, {1}, 0}, e{false, 0, {2}, 0}, sa{true, 0, {}, 0}, sb{true, 1, {}, 0};
  TemplatePiece e1{false, 0, {2}, 1}, sb1{true, 1, {}, 1};
  PostProcessor p({s, sa, e}, {s, sa, e, e, sb, e});
  Encoding out = p.process(a, &b, true);
  CHECK(bktest::join(out.ids) == "1 10 2 2 20 21 2");
  CHECK(bktest::join(out.type_ids) == "0 0 0 0 0 0 0");
  CHECK(bktest::join(out.special_mask) == "1 0 1 1 0 0 1");
  CHECK(p.added_tokens(true) == 4);
  PostProcessor typed({s, sa, e}, {s, sa, e, sb1, e1});
  out = typed.process(a, &b, true);
  CHECK(bktest::join(out.type_ids) == "0 0 0 1 1 1");
  out = typed.process(a, nullptr, true);
  CHECK(bktest::join(out.ids) == "1 10 2");
}

TEST_CASE("post-processor: RoBERTa's template, every token of type 0") {
  Encoding a, b;
  a.push(10, 0, {0, 1}, 0, 0, false);
  b.push(20, 1, {0, 2}, 0, 1, false);
  const PostProcessor roberta = PostProcessor::roberta(0, 2);
  Encoding out = roberta.process(a, &b, true);
  CHECK(bktest::join(out.ids) == "0 10 2 2 20 2");
  CHECK(bktest::join(out.type_ids) == "0 0 0 0 0 0");
  CHECK(bktest::join(out.special_mask) == "1 0 1 1 0 1");
  CHECK(bktest::join(out.sequence) == "-1 0 -1 -1 1 -1");
  CHECK(roberta.added_tokens(true) == 4);
  CHECK(roberta.added_tokens(false) == 2);
  out = roberta.process(a, nullptr, true);
  CHECK(bktest::join(out.ids) == "0 10 2");
}
