#pragma once
// Which model fixtures carry transformers pipeline records of a task, and their tokenizers.
#include "golden/encoder_fixtures.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace bktest {

// Folders of fixtures/models whose goldens.json has `pipelines` records with init.task == task.
std::vector<std::string> fixtures_with_pipelines(const std::string& task);

// The fixture's tokenizer as bertkit builds it: compat "fast" (the default) or "python".
std::unique_ptr<bertkit::tok::Tokenizer> fixture_tokenizer(const Fixture& fixture, const char* compat);

}  // namespace bktest
