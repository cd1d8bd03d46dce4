#include "commands/colbert_embed.h"

#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>

namespace bertkit::cmd {

void ColbertEmbedTask::quantize(core::Precision precision, std::optional<core::Ranges> calibration) {
  precision_ = precision;
  ranges_ = std::move(calibration);
  keep_all_ = (precision == core::Precision::Int8 || precision == core::Precision::Uint8) && !ranges_;
}

std::string ColbertEmbedTask::whole_input_reason() const {
  return keep_all_ ? fmt::format("{} without {} quantises with the ranges of every vector of the input", Setting::Precision,
                                 Setting::Calibration)
                   : std::string();
}

records::TextInput ColbertEmbedTask::model_input(const records::Record& record, std::string& text, std::string&) {
  if (record.has_pair) bad_input("a ColBERT model embeds one text per record, not a pair");
  text = model_text(encoder_.plan().text, record.text);
  return {text, std::nullopt};
}

void ColbertEmbedTask::compute(const records::Batch& batch) {
  sides_.assign(batch.encodings.size(), queries_ ? 1 : 0);
  encoder_.vectors(batch.encodings, sides_, limits_, vectors_);
}

void ColbertEmbedTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (!keep_all_) return write_vectors(batch.records[i], batch.truncated[i] != 0, vectors_[i], out);
  kept_.push_back({batch.records[i], batch.truncated[i] != 0, {}, std::move(vectors_[i])});
}

void ColbertEmbedTask::write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) {
  if (!keep_all_) return out.failed(record, error);
  kept_.push_back({record, false, error, {}});
}

void ColbertEmbedTask::finish(records::RecordOutput& out) {
  if (!keep_all_ || kept_.empty()) return;
  const auto dim = static_cast<std::size_t>(encoder_.dimension());
  ranges_.emplace(dim);
  for (const Kept& k : kept_) ranges_->add(k.vectors);
  if (ranges_->empty())  // every record failed (--on-error skip): nothing is quantised
    ranges_.reset();
  else if (ranges_->single_value_dimensions() == dim)
    usage_error("{} {} without {} takes each dimension's range from the input's vectors, and they give none (every "
                "value would quantise to 0): give {} FILE.npy, float32 vectors of many texts",
                Setting::Precision, core::precision_name(precision_), Setting::Calibration, Setting::Calibration);
  for (const Kept& k : kept_) {
    if (!k.error.empty()) out.failed(k.record, k.error);
    else write_vectors(k.record, k.truncated, k.vectors, out);
  }
  out.end_batch();
}

void ColbertEmbedTask::write_vectors(const records::Record& record, bool truncated, const std::vector<float>& vectors,
                                     records::RecordOutput& out) {
  const auto dim = static_cast<std::size_t>(encoder_.dimension());
  out.results()
      .begin(record, truncated)
      .nested("colbert",
              [&](records::JsonLine& j) {
                write_vector_list(j, vectors, dim, precision_, ranges_ ? &*ranges_ : nullptr, bytes_);
              })
      .end();
}

}  // namespace bertkit::cmd
