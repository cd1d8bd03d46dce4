#include "cli/setting_spellings.h"

namespace bertkit::cli {

std::string_view flag_of(Setting setting) {
  switch (setting) {
    case Setting::Aggregation: return "--aggregation";
    case Setting::Attention: return "--attention";
    case Setting::Calibration: return "--calibration";
    case Setting::Column: return "--column";
    case Setting::Compat: return "--compat";
    case Setting::Context: return "--context";
    case Setting::ContextFile: return "--context-file";
    case Setting::Csv: return "--csv";
    case Setting::Delimiter: return "--delimiter";
    case Setting::DocStride: return "--doc-stride";
    case Setting::DocumentsField: return "--documents-field";
    case Setting::Field: return "--field";
    case Setting::Format: return "--format";
    case Setting::Function: return "--function";
    case Setting::HypothesisTemplate: return "--hypothesis-template";
    case Setting::Jsonl: return "--jsonl";
    case Setting::LabelsField: return "--labels-field";
    case Setting::MaxAnswerLength: return "--max-answer-length";
    case Setting::MaxLineBytes: return "--max-line-bytes";
    case Setting::MaxSeqLength: return "--max-seq-length";
    case Setting::Normalize: return "--normalize";
    case Setting::NoNormalize: return "--no-normalize";
    case Setting::Offline: return "--offline";
    case Setting::OutputPrefix: return "--output-prefix";
    case Setting::PairColumn: return "--pair-column";
    case Setting::PairField: return "--pair-field";
    case Setting::Pairs: return "--pairs";
    case Setting::Pooling: return "--pooling";
    case Setting::Precision: return "--precision";
    case Setting::Prefix: return "--prefix";
    case Setting::Prompt: return "--prompt";
    case Setting::Resume: return "--resume";
    case Setting::Strict: return "--strict";
    case Setting::Stride: return "--stride";
    case Setting::Targets: return "--targets";
    case Setting::Threads: return "--threads";
    case Setting::TopK: return "--top-k";
    case Setting::Truncate: return "--truncate";
    case Setting::TruncateDim: return "--truncate-dim";
    case Setting::Host: return "--host";
    case Setting::MaxBodyBytes: return "--max-body-bytes";
    case Setting::MaxClientBatchSize: return "--max-client-batch-size";
    case Setting::Tsv: return "--tsv";
    case Setting::TsvEscapes: return "--tsv-escapes";
    case Setting::Workloads: return "--workloads";
  }
  return "an option";
}

void spell_settings_as_flags() { spell_settings_with(flag_of); }

}  // namespace bertkit::cli
