#pragma once
// Which model fixtures carry transformers pipeline records of a task, and their tokenizers.
#include "golden/encoder_fixtures.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace bktest {

// A fixture folder: fixtures/SET/NAME.
struct FixtureRef {
  std::string name, set = "models";
};
std::ostream& operator<<(std::ostream& out, const FixtureRef& ref);

// Fixtures whose goldens.json has `pipelines` records with init.task == task: every folder of
// fixtures/models and, with `models2`, those of fixtures/models2 whose family and tokenizer bertkit has
// (their records are the slow tokenizer's: compare them on the fast path where it tokenizes alike).
std::vector<FixtureRef> fixtures_with_pipelines(const std::string& task, bool models2 = false);

// Whether bertkit builds the tokenizer of folder `name` of fixtures/SET: a later family's encoder can
// land before its tokenizer model (byte-level BPE, Unigram), and a pipeline test takes the fixture once
// both have. Only a tokenizer piece bertkit lacks ("not supported yet") answers false; any other
// problem throws.
bool builds_tokenizer(const std::string& name, const std::string& set);

// The fixture's tokenizer as bertkit builds it: compat "fast" (the default) or "python".
std::unique_ptr<bertkit::tok::Tokenizer> fixture_tokenizer(const Fixture& fixture, const char* compat);
// What a pipeline's truncation=True cuts to: the tokenizer's model_max_length, else (a folder without
// tokenizer_config.json, as roberta-cls) the positions the model has, as bertkit's commands do.
std::size_t fixture_max_length(const Fixture& fixture, const bertkit::tok::Tokenizer& tokenizer);

}  // namespace bktest
