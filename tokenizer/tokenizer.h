#pragma once
// The tokenizer: Hugging Face's pipeline, normalizer -> pre-tokenizer -> model -> post-processor, with
// added tokens split out first and truncation between the model and the post-processor; the decoder
// turns ids back into text. The pieces are built from a TokenizerSpec (pipeline_pieces.h).
#include "tokenizer/added_vocabulary.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/encoding.h"
#include "tokenizer/pipeline_pieces.h"
#include "tokenizer/post_processor.h"
#include "tokenizer/truncation.h"
#include "tokenizer/vocab.h"
#include "tokenizer/wordpiece_image.h"

#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct SpecialTokens {
  std::string unk = "[UNK]", cls = "[CLS]", sep = "[SEP]", pad = "[PAD]", mask = "[MASK]";
};

// Everything that defines a tokenizer, as read from a model's files (see loader.h). The defaults are
// BERT's pipeline, what a vocab.txt alone stands for.
struct TokenizerSpec {
  std::shared_ptr<const Vocab> vocab;
  std::vector<NormalizerStep> normalizer{NormalizerOptions{}};  // applied in order
  PreTokenizerSpec pre_tokenizer;
  ModelSpec model;
  std::vector<AddedToken> added_tokens;
  std::optional<PostProcessor> post_processor;  // unset: BERT's template from the special tokens
  DecoderSpec decoder;
  SpecialTokens special;
  std::optional<std::size_t> model_max_length;
  UnicodeProfile profile = UnicodeProfile::Rust;
  std::shared_ptr<const WordPieceTables> compiled;  // WordPiece's tries as `convert` stored them, if any
  // A long text is tokenized in pieces of this many bytes, each cut at the next space after a visible
  // ASCII character, where the
  // pipeline allows it (the same tokens as the whole text: tests make pieces tiny to check that).
  std::size_t piece_bytes = 64 * 1024;

  // The options of the pipeline's BertNormalizer, which transformers' tokenizer_config.json and
  // bertkit's flags (lower-casing, accents, Chinese characters) adjust: null when it has none.
  NormalizerOptions* find_bert_normalizer();
  // The same, BadInput when there is none.
  NormalizerOptions& bert_normalizer();
  // The id of token `content` as Hugging Face's token_to_id finds it: an added token's first, else the
  // vocabulary's.
  std::optional<std::int32_t> find_token(std::string_view content) const;
  // The id Hugging Face gives a token it adds: the next past the vocabulary and the tokens added after
  // it. BadInput past the largest id.
  std::int32_t next_added_id() const;
};

struct EncodeOptions {
  bool add_special_tokens = true;
  std::optional<TruncationParams> truncation;
  // false: only the kept tokens are wanted (and Encoding::truncated), not the overflowing windows. With
  // truncation on the right, the text past the budget is then never tokenized, so a 50 MB line costs
  // what its first tokens cost.
  bool keep_overflow = true;
};

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerSpec spec);
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Encodes a text, or a pair when `b` is given. Texts must be valid UTF-8; offsets are byte offsets
  // into the text the token came from. Safe to call from several threads at once.
  Encoding encode(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options) const;
  // The same into `out`, whose buffers are reused: a caller encoding many texts allocates nothing.
  void encode(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options, Encoding& out) const;
  // Appends the tokens of one text, without special tokens or truncation, to `out` (type id 0): all of
  // them, or only the first `limit`.
  void encode_sequence(std::string_view text, int sequence_id, Encoding& out,
                       std::size_t limit = std::numeric_limits<std::size_t>::max()) const;
  // encode() of a pair whose texts are encoded already (encode_sequence's, sequence ids 0 and 1): the
  // same encoding, overflowing windows included. For a text paired with many others (a question-answering
  // context is tokenized once for all its questions).
  Encoding encode_pair(const Encoding& a, const Encoding& b, const EncodeOptions& options) const;
  // The number of tokens encode() gives, special tokens included; without truncation no token is kept,
  // so memory stays that of a piece of the text however long it is.
  std::size_t count(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options) const;

  std::string decode(std::span<const std::int32_t> ids, bool skip_special_tokens) const;
  // transformers' convert_tokens_to_string: the decoder alone, without the clean-up of the whole text
  // that decode() adds (clean_up_tokenization_spaces).
  std::string tokens_to_string(const std::vector<std::string>& tokens) const;
  // The text of token `id`: the model vocabulary's, or an added token's past it; std::out_of_range for
  // an id outside both.
  std::string_view token(std::int32_t id) const;
  std::optional<std::int32_t> token_id(std::string_view token) const;

  std::size_t added_tokens(bool pair) const { return post_processor_.added_tokens(pair); }
  const PostProcessor& post_processor() const { return post_processor_; }
  bool is_special_id(std::int32_t id) const;
  std::int32_t pad_id() const { return pad_id_; }
  std::int32_t mask_id() const { return mask_id_; }
  const TokenizerSpec& spec() const { return spec_; }
  const Model& model() const { return *model_; }
  // The model vocabulary's tokens and the added tokens numbered after it.
  std::size_t vocab_size() const { return spec_.vocab->size() + added_past_vocab_.size(); }

 private:
  void encode_words(const NormalizedText& normalized, std::uint32_t from, std::uint32_t to, std::int32_t& word,
                    Encoding& out) const;
  // Appends the tokens of text[from, to), a piece without added tokens of the raw text.
  void encode_piece(std::string_view text, std::uint32_t from, std::uint32_t to, std::int32_t& word,
                    Encoding& out) const;
  std::size_t count_sequence(std::string_view text) const;
  // Calls added(segment) for each added token of the raw text and piece(from, to) for the text between
  // them, in order, cut into pieces where piecewise_ allows, while they return true.
  template <typename Added, typename Piece>
  void walk(std::string_view text, Added&& added, Piece&& piece) const;
  // Where a piece of text[.., to) that may end at `from` or later ends: before the first space at or
  // after `from` that follows a visible ASCII character, else at `to`.
  static std::uint32_t piece_end(std::string_view text, std::uint32_t from, std::uint32_t to);
  // Right-side truncation without windows, tokenizing each text only as far as truncation can keep it.
  // false: the whole path must do it (a cut only_first/only_second refuses).
  bool encode_truncated(std::string_view a, std::optional<std::string_view> b, const EncodeOptions& options,
                        Encoding& out) const;
  void truncate(Encoding& a, Encoding* b, const TruncationParams& t, std::size_t added) const;
  // The special tokens encode() adds; a usage error when options.truncation leaves them no room.
  std::size_t special_tokens(bool pair, const EncodeOptions& options) const;
  // A text (or pair) too long for options.truncation: truncated, through the template, marked.
  void truncate_and_process(Encoding& a, Encoding* b, const EncodeOptions& options, std::size_t added,
                            Encoding& out) const;
  // The post-processor's trim_offsets over the tokens of one text from `start` on.
  void trim_offsets(std::string_view text, Encoding& out, std::size_t start) const;
  // Fills added_past_vocab_; BadInput for a negative id, or one that leaves an id with no token.
  void number_added_past_vocab();

  TokenizerSpec spec_;
  std::unique_ptr<Normalizer> normalizer_;
  std::unique_ptr<PreTokenizer> pre_tokenizer_;
  std::unique_ptr<Model> model_;
  AddedVocabulary added_;
  PostProcessor post_processor_;
  std::unique_ptr<Decoder> decoder_;
  std::int32_t pad_id_ = 0;
  std::int32_t mask_id_ = -1;
  std::vector<std::int32_t> special_ids_;  // sorted
  // Added tokens numbered past the model vocabulary (tokens added to a fine-tuned model, whose
  // embeddings grew with them), in id order from its size on: Hugging Face's tokenizer takes them as
  // the vocabulary's continuation, and the model's words never split into them.
  std::vector<std::string> added_past_vocab_;
  // For trim_offsets: the spaces at the ends of each vocabulary token, or a mark for an added token.
  std::vector<SpaceEnds> space_ends_;
  std::uint64_t serial_;                    // tells this tokenizer's cached words from another's
  // Whether a long text may be tokenized a piece at a time, cut just before a space (no piece of the
  // pipeline looks across one): memory then follows the piece, not the text.
  bool piecewise_ = false;
};


// Converts byte offsets into `text` to code point offsets, in place.
void to_char_offsets(std::string_view text, std::span<Offsets> offsets);

}  // namespace bertkit::tok
