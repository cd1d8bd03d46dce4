#pragma once
// The flags of embed and similarity whose values name an embedding setting: core parses the name and
// says only whether it is one; the message naming the flag is the CLI's.
#include "core/model/embedding_precision.h"
#include "core/model/similarity.h"

#include <string_view>

namespace bertkit::cli {

core::Precision precision_flag(std::string_view value);  // --precision; a usage error naming it otherwise
// --metric, or the default the model names in its place; a usage error naming --metric otherwise.
core::Metric metric_flag(std::string_view value);

}  // namespace bertkit::cli
