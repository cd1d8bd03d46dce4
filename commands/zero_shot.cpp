#include "commands/zero_shot.h"

#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

namespace bertkit::cmd {

namespace {

bool starts_with_entail(std::string_view name) {
  static constexpr std::string_view kPrefix = "entail";
  if (name.size() < kPrefix.size()) return false;
  for (std::size_t i = 0; i < kPrefix.size(); ++i)
    if (static_cast<char>(std::tolower(static_cast<unsigned char>(name[i]))) != kPrefix[i]) return false;
  return true;
}

// Python's str.strip() for the white space labels are typed with.
std::string_view strip(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\r\f\v";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

}  // namespace

NliLabels nli_labels(const core::ModelConfig& config) {
  const auto& names = config.id2label;
  const auto it = std::find_if(names.begin(), names.end(), [](const std::string& n) { return starts_with_entail(n); });
  if (it == names.end())
    usage_error("zero-shot needs an NLI model: none of the labels of {} ({}) starts with \"entail\"", config.architecture,
                fmt::format("{}", fmt::join(names, ", ")));
  NliLabels nli;
  nli.entailment = static_cast<std::size_t>(it - names.begin());
  nli.contradiction = nli.entailment == 0 ? names.size() - 1 : 0;
  return nli;
}

std::vector<std::string> split_labels(std::string_view text) {
  std::vector<std::string> labels;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string_view label = strip(text.substr(at, comma - at));
    if (!label.empty()) labels.emplace_back(label);
    at = comma + 1;
  }
  return labels;
}

std::string format_hypothesis(std::string_view t, std::string_view label) {
  std::string out;
  bool field = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if ((t[i] == '{' || t[i] == '}') && i + 1 < t.size() && t[i + 1] == t[i]) {
      out += t[i++];
    } else if (t.compare(i, 2, "{}") == 0 || t.compare(i, 3, "{0}") == 0) {
      out += label;
      i += t[i + 1] == '}' ? 1 : 2;
      field = true;
    } else if (t[i] == '{' || t[i] == '}') {
      usage_error("{} '{}': only {{}} (or {{0}}) is replaced by the label; write a literal brace as {{{{ or }}}}",
                  Setting::HypothesisTemplate, t);
    } else {
      out += t[i];
    }
  }
  if (!field)
    usage_error("{} '{}' has no {{}} where the label goes (e.g. 'This example is {{}}.')", Setting::HypothesisTemplate, t);
  return out;
}

void check_hypothesis_template(std::string_view template_text) { format_hypothesis(template_text, "label"); }

std::vector<LabelScore> zero_shot_ranking(std::span<const float> logits, std::size_t num_labels, NliLabels nli,
                                          bool multi_label) {
  const std::size_t n = logits.size() / num_labels;
  std::vector<LabelScore> ranked(n);
  if (multi_label || n == 1) {
    for (std::size_t k = 0; k < n; ++k) {
      const float c = logits[k * num_labels + nli.contradiction], e = logits[k * num_labels + nli.entailment];
      const float m = std::max(c, e);
      const float ec = std::exp(c - m), ee = std::exp(e - m);
      ranked[k] = {k, ee / (ec + ee)};
    }
  } else {
    float m = -INFINITY;
    for (std::size_t k = 0; k < n; ++k) m = std::max(m, logits[k * num_labels + nli.entailment]);
    float sum = 0;
    for (std::size_t k = 0; k < n; ++k) sum += ranked[k].score = std::exp(logits[k * num_labels + nli.entailment] - m);
    for (std::size_t k = 0; k < n; ++k) ranked[k] = {k, ranked[k].score / sum};
  }
  // numpy's argsort (stable for so few labels) reversed: best first, equal scores last label first.
  std::stable_sort(ranked.begin(), ranked.end(), [](const LabelScore& a, const LabelScore& b) { return a.score < b.score; });
  std::reverse(ranked.begin(), ranked.end());
  return ranked;
}

ZeroShotTask::ZeroShotTask(Classifier& classifier, core::BatchLimits limits, ZeroShotSettings settings)
    : classifier_(classifier), limits_(limits), settings_(std::move(settings)), nli_(nli_labels(classifier.config())) {
  if (!settings_.labels_field.empty()) labels_path_.emplace(Setting::LabelsField, settings_.labels_field);
  shared_.labels = settings_.labels;
  for (const std::string& label : shared_.labels)
    shared_.hypotheses.push_back(format_hypothesis(settings_.hypothesis_template, label));
}

const ZeroShotTask::Candidates& ZeroShotTask::candidates_of(const records::Record& record, std::uint64_t ordinal) {
  if (!labels_path_ && !settings_.labels_from_pair) return shared_;
  Candidates c;
  if (settings_.labels_from_pair) {
    c.labels = split_labels(record.text_pair);
  } else {
    std::string missing;
    const nlohmann::ordered_json* field = labels_path_->find(record.object, &missing);
    if (!field) bad_input("{} (the candidate labels; {} names another)", missing, Setting::LabelsField);
    if (field->is_string()) {
      c.labels = split_labels(field->get_ref<const std::string&>());
    } else if (field->is_array()) {
      for (const auto& label : *field) {
        if (!label.is_string())
          bad_input("field \"{}\" must be a list of labels (texts); item {} is {}", settings_.labels_field, c.labels.size(),
                    label.type_name());
        c.labels.push_back(label.get<std::string>());
      }
    } else {
      bad_input("field \"{}\" must be a list of labels or a text of comma-separated labels, not {}",
                settings_.labels_field, field->type_name());
    }
  }
  if (c.labels.empty()) bad_input("no candidate labels");
  for (const std::string& label : c.labels)
    c.hypotheses.push_back(format_hypothesis(settings_.hypothesis_template, label));
  return per_record_.insert_or_assign(ordinal, std::move(c)).first->second;
}

void ZeroShotTask::model_inputs(const records::Record& record, records::ModelInputs& inputs) {
  for (const std::string& h : candidates_of(record, inputs.ordinal).hypotheses)
    inputs.texts.push_back({record.text, std::optional<std::string_view>(h)});
}

void ZeroShotTask::compute(const records::Batch& batch) { logits_ = classifier_.logits(batch.encodings, limits_); }

void ZeroShotTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const std::size_t width = classifier_.num_labels();
  const auto it = per_record_.find(batch.ordinals[i]);
  const Candidates& c = it == per_record_.end() ? shared_ : it->second;
  const auto ranked = zero_shot_ranking(std::span(logits_).subspan(batch.first_input[i] * width, c.labels.size() * width),
                                        width, nli_, settings_.multi_label);
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("labels",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (const LabelScore& r : ranked) j.value(c.labels[r.label]);
                j.end_array();
              })
      .nested("scores",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (const LabelScore& r : ranked) j.value(r.score);
                j.end_array();
              })
      .end();
  // This record and the bad ones read before it are done.
  per_record_.erase(per_record_.begin(), per_record_.upper_bound(batch.ordinals[i]));
}

}  // namespace bertkit::cmd
