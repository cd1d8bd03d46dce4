#pragma once
// The flags that pick one of a command's named choices (--function, --top-k, --aggregation,
// --pooling): the name given becomes the commands' enum here, and a name that is none of them is a
// usage error naming the flag.
#include "commands/embed.h"
#include "commands/ner_entities.h"
#include "core/model/classification_head.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace bertkit::cli {

// --function: "auto" (the model's default), "softmax", "sigmoid" or "none".
core::ScoreFunction parse_score_function(std::string_view name, const core::ModelConfig& config);

// --top-k of classify: "all" or a positive count. nullopt means all labels.
std::optional<std::size_t> parse_label_count(std::string_view text);

// --aggregation: "none", "simple", "first", "average" or "max".
cmd::Aggregation parse_aggregation(std::string_view name);

// --pooling: "cls", "mean" or "max".
cmd::PoolingMode parse_pooling_mode(std::string_view name);

}  // namespace bertkit::cli
