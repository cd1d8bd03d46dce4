#include "commands/fill_mask_output.h"

#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <algorithm>

namespace bertkit::cmd {

namespace {

void write_list(records::JsonLine& j, const std::vector<MaskPrediction>& list) {
  j.begin_array();
  for (const MaskPrediction& p : list)
    j.begin_object()
        .field("score", p.score)
        .field("token", p.token)
        .field("token_str", p.token_str)
        .field("sequence", p.sequence)
        .end_object();
  j.end_array();
}

// Probabilities of a large vocabulary are small: fixed decimals while they say something, else
// scientific notation.
std::string score_text(float score) {
  return score >= 1e-3f ? fmt::format("{:.4f}", score) : fmt::format("{:.2e}", score);
}

std::string padded(const std::string& s, std::size_t width) {
  const std::size_t n = tok::count_code_points(s);
  return n >= width ? s : s + std::string(width - n, ' ');
}

}  // namespace

void write_predictions(records::JsonLine& j, const MaskPredictions& predictions) {
  if (predictions.size() == 1) return write_list(j, predictions[0]);
  j.begin_array();
  for (const auto& list : predictions) write_list(j, list);
  j.end_array();
}

std::string prediction_table(const MaskPredictions& predictions) {
  std::string out;
  for (std::size_t m = 0; m < predictions.size(); ++m) {
    const auto& list = predictions[m];
    if (predictions.size() > 1) out += fmt::format("mask {} of {}\n", m + 1, predictions.size());
    std::size_t token_width = 5;
    for (const auto& p : list) token_width = std::max(token_width, tok::count_code_points(p.token_str));
    out += fmt::format("  #  {:<9}  {}  {}\n", "score", padded("token", token_width), "sequence");
    for (std::size_t r = 0; r < list.size(); ++r)
      out += fmt::format("{:>3}  {:<9}  {}  {}\n", r + 1, score_text(list[r].score), padded(list[r].token_str, token_width),
                         list[r].sequence);
  }
  return out;
}

}  // namespace bertkit::cmd
