#include "commands/ner_entities.h"

#include "core/error.h"
#include "core/ops/softmax.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>

namespace bertkit::cmd {

namespace {

// A token the pipeline keeps: its label probabilities and where it lies.
struct PreEntity {
  std::span<const float> scores;
  std::int64_t index = 0;
  std::string word;
  bool is_subword = false;
  tok::Offsets chars, bytes;
};

// Whether the tokenizer model marks the tokens that continue a word, as WordPiece's "##" does: the
// pipeline asks the model for a continuing_subword_prefix; byte-level BPE (unless its file sets one)
// and Unigram have none.
bool marks_subwords(const tok::TokenizerSpec& spec) {
  return std::visit(
      [](const auto& model) {
        if constexpr (requires { model.continuing_subword_prefix; }) return !model.continuing_subword_prefix.empty();
        return false;
      },
      spec.model);
}

std::vector<PreEntity> gather_pre_entities(const tok::Tokenizer& tokenizer, std::string_view text,
                                           const tok::Encoding& window, std::span<const tok::Offsets> chars,
                                           std::span<const float> probabilities, std::size_t labels,
                                           bool slow_tokenizer) {
  const std::optional<std::int32_t> unk = tokenizer.token_id(tokenizer.spec().special.unk);
  const bool word_aware = marks_subwords(tokenizer.spec());
  std::vector<PreEntity> out;
  for (std::size_t i = 0; i < window.size(); ++i) {
    if (window.special_mask[i]) continue;
    PreEntity p;
    p.scores = probabilities.subspan(i * labels, labels);
    p.index = static_cast<std::int64_t>(i);
    p.bytes = window.offsets[i];
    p.chars = chars[i];
    const std::string_view original = text.substr(p.bytes.begin, p.bytes.end - p.bytes.begin);
    if (slow_tokenizer) {
      p.word = tokenizer.token(window.ids[i]);
    } else if (unk && window.ids[i] == *unk) {
      p.word = original;
    } else if (word_aware) {
      // The pipeline's rule for a tokenizer with a continuing-subword prefix: a token whose string is
      // not as long as its span ("##" tokens, and words whose span holds characters the normaliser
      // removed) continues the previous word.
      p.word = tokenizer.token(window.ids[i]);
      p.is_subword = tok::count_code_points(p.word) != p.chars.end - p.chars.begin;
    } else {
      // Its fallback for the others: a token continues a word unless it starts the text or a space is
      // just before it or is its first character (text[start-1:start+1]). A space is one byte, and no
      // byte of a longer character is 0x20, so bytes answer what the pipeline asks of characters.
      p.word = tokenizer.token(window.ids[i]);
      const std::size_t at = p.bytes.begin;
      p.is_subword = at > 0 && text[at - 1] != ' ' && (at >= text.size() || text[at] != ' ');
    }
    out.push_back(std::move(p));
  }
  return out;
}

Entity token_entity(const PreEntity& p, std::span<const std::string> id2label) {
  const std::size_t best = best_label(p.scores);
  return {id2label[best], p.scores[best], p.index, p.word, p.chars.begin, p.chars.end, p.bytes.begin, p.bytes.end};
}

// aggregate_word: one word's label from its tokens.
Entity word_entity(std::span<const PreEntity> tokens, Aggregation aggregation, std::span<const std::string> id2label,
                   const tok::Tokenizer& tokenizer) {
  std::vector<std::span<const float>> token_scores;
  std::vector<std::string> words;
  for (const PreEntity& t : tokens) {
    token_scores.push_back(t.scores);
    words.push_back(t.word);
  }
  const std::vector<float> scores = word_probabilities(token_scores, aggregation);
  const std::size_t best = best_label(scores);
  return {id2label[best],        scores[best],          -1, tokenizer.tokens_to_string(words), tokens.front().chars.begin,
          tokens.back().chars.end, tokens.front().bytes.begin, tokens.back().bytes.end};
}

// aggregate_words: a token that is not a subword opens a word (the first token always does).
std::vector<Entity> word_entities(std::span<const PreEntity> tokens, Aggregation aggregation,
                                  std::span<const std::string> id2label, const tok::Tokenizer& tokenizer) {
  std::vector<Entity> out;
  std::size_t open = 0;
  for (std::size_t i = 1; i <= tokens.size(); ++i)
    if (i == tokens.size() || !tokens[i].is_subword) {
      out.push_back(word_entity(tokens.subspan(open, i - open), aggregation, id2label, tokenizer));
      open = i;
    }
  return out;
}

// get_tag: B-X and I-X, any other label an I of itself.
std::pair<bool, std::string_view> tag(std::string_view label) {
  if (label.starts_with("B-")) return {true, label.substr(2)};
  if (label.starts_with("I-")) return {false, label.substr(2)};
  return {false, label};
}

// group_sub_entities: the group's label is its first unit's after the last '-'.
Entity group_entity(std::span<const Entity> units, const tok::Tokenizer& tokenizer) {
  const std::string& first = units.front().label;
  const std::size_t dash = first.rfind('-');
  float sum = 0;
  std::vector<std::string> words;
  for (const Entity& u : units) {
    sum += u.score;
    words.push_back(u.word);
  }
  return {dash == std::string::npos ? first : first.substr(dash + 1),
          sum / static_cast<float>(units.size()),
          -1,
          tokenizer.tokens_to_string(words),
          units.front().start,
          units.back().end,
          units.front().byte_start,
          units.back().byte_end};
}

// group_entities: a unit joins the open group when its type is the type of the group's last unit and it
// is not a B-.
std::vector<Entity> group_entities(std::span<const Entity> units, const tok::Tokenizer& tokenizer) {
  std::vector<Entity> out;
  std::size_t open = 0;
  for (std::size_t i = 1; i <= units.size(); ++i) {
    if (i < units.size()) {
      const auto [begins, type] = tag(units[i].label);
      if (!begins && type == tag(units[i - 1].label).second) continue;
    }
    out.push_back(group_entity(units.subspan(open, i - open), tokenizer));
    open = i;
  }
  return out;
}

std::vector<Entity> window_entities(const tok::Tokenizer& tokenizer, std::string_view text,
                                    const tok::Encoding& window, std::span<const tok::Offsets> chars,
                                    std::span<const float> logits, std::span<const std::string> id2label,
                                    const NerSettings& settings) {
  const std::size_t labels = id2label.size();
  if (logits.size() != window.size() * labels)
    throw std::logic_error("ner: logits do not match the window and the labels");
  const std::vector<float> probabilities = label_probabilities(logits, labels);
  const std::vector<PreEntity> tokens = gather_pre_entities(tokenizer, text, window, chars, probabilities, labels, settings.slow_tokenizer);

  std::vector<Entity> units;
  if (settings.aggregation == Aggregation::None || settings.aggregation == Aggregation::Simple) {
    for (const PreEntity& p : tokens) units.push_back(token_entity(p, id2label));
  } else {
    units = word_entities(tokens, settings.aggregation, id2label, tokenizer);
  }
  std::vector<Entity> out =
      settings.aggregation == Aggregation::None ? std::move(units) : group_entities(units, tokenizer);
  std::erase_if(out, [&](const Entity& e) {
    return std::find(settings.ignore_labels.begin(), settings.ignore_labels.end(), e.label) !=
           settings.ignore_labels.end();
  });
  return out;
}

// aggregate_overlapping_entities: by start (window order on ties); of overlapping entities the longer
// stays, or the later one when as long and strictly better scored. The first is compared with itself,
// as the pipeline does.
std::vector<Entity> merge_overlapping(std::vector<Entity> entities) {
  if (entities.empty()) return entities;
  std::stable_sort(entities.begin(), entities.end(), [](const Entity& a, const Entity& b) { return a.start < b.start; });
  std::vector<Entity> out;
  std::size_t previous = 0;
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const Entity& p = entities[previous];
    const Entity& e = entities[i];
    if (p.start <= e.start && e.start < p.end) {
      const std::size_t length = e.end - e.start, previous_length = p.end - p.start;
      if (length > previous_length || (length == previous_length && e.score > p.score)) previous = i;
    } else {
      out.push_back(p);
      previous = i;
    }
  }
  out.push_back(entities[previous]);
  return out;
}

}  // namespace

std::vector<float> label_probabilities(std::span<const float> logits, std::size_t labels) {
  std::vector<float> probabilities(logits.begin(), logits.end());
  for (std::size_t at = 0; at + labels <= probabilities.size(); at += labels)
    core::softmax_row(probabilities.data() + at, static_cast<std::int64_t>(labels));
  return probabilities;
}

std::vector<float> word_probabilities(std::span<const std::span<const float>> tokens, Aggregation aggregation) {
  std::span<const float> scores = tokens.front();
  if (aggregation == Aggregation::Max) {
    float best = *std::max_element(scores.begin(), scores.end());
    for (std::span<const float> t : tokens) {
      const float top = *std::max_element(t.begin(), t.end());
      if (top > best) best = top, scores = t;
    }
  } else if (aggregation == Aggregation::Average) {
    std::vector<float> mean(scores.size(), 0.0f);
    for (std::span<const float> t : tokens)
      for (std::size_t k = 0; k < mean.size(); ++k) mean[k] += t[k];
    for (float& m : mean) m /= static_cast<float>(tokens.size());
    return mean;
  }
  return {scores.begin(), scores.end()};
}

std::size_t best_label(std::span<const float> scores) {
  return static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

std::vector<Entity> text_entities(const tok::Tokenizer& tokenizer, std::string_view text,
                                  std::span<const tok::Encoding* const> windows,
                                  std::span<const std::vector<float>> logits, std::span<const std::string> id2label,
                                  const NerSettings& settings) {
  // Every window's offsets in code points at once: the conversion then walks the text about once.
  std::vector<tok::Offsets> chars;
  for (const tok::Encoding* w : windows) chars.insert(chars.end(), w->offsets.begin(), w->offsets.end());
  tok::to_char_offsets(text, chars);
  std::vector<Entity> all;
  std::size_t at = 0;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    std::vector<Entity> found = window_entities(tokenizer, text, *windows[k], std::span(chars).subspan(at, windows[k]->size()),
                                                logits[k], id2label, settings);
    all.insert(all.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    at += windows[k]->size();
  }
  return windows.size() > 1 ? merge_overlapping(std::move(all)) : all;
}

}  // namespace bertkit::cmd
