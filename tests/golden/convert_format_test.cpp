// The converted-file format pinned: files of two fixtures in each type, and reduced files converted
// again, hash as the writer before the format/reader/writer split wrote them (computed then with main's
// library); and the writer stores what with_store_type makes, whether or not it was reduced before.
#include "support.h"

#include "core/loading/converted_file.h"
#include "core/loading/model_source.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/hash64.h"

#include <doctest/doctest.h>

#include <cstring>
#include <span>

using namespace bertkit::core;

namespace {

// The XXH64 of a converted file's header without "bertkit_version" (re-dumped) and of its data section:
// all of the format but the version that wrote it.
std::uint64_t format_hash(const std::filesystem::path& path) {
  const std::string bytes = bktest::read_file(path);
  std::uint64_t header_length = 0;
  std::memcpy(&header_length, bytes.data() + 16, 8);
  nlohmann::json header = nlohmann::json::parse(bytes.substr(24, header_length));
  header.erase("bertkit_version");
  const std::string header_text = header.dump();
  const std::size_t data_start = (24 + header_length + 63) / 64 * 64;
  bertkit::core::Hash64 hash;
  hash.update(std::as_bytes(std::span(header_text.data(), header_text.size())));
  hash.update(std::as_bytes(std::span(bytes.data() + data_start, bytes.size() - 16 - data_start)));
  return hash.digest();
}

LoadedModel pinned_fixture(const char* name) {
  LoadedModel m = load_model(bktest::shared(std::string("fixtures/models/") + name).string());
  m.name = name;  // the header's "source": not where the checkout lies
  return m;
}

}  // namespace

TEST_CASE("converted file format: every type of two fixtures hashes as before") {
  bktest::TempDir dir;
  const struct {
    const char* fixture;
    StoreType type;
    std::uint64_t hash;
  } cases[] = {{"bert-uncased-mlm", StoreType::F32, 0xb6de78601ac8fbc8},  // tied decoder: an alias
               {"bert-uncased-mlm", StoreType::F16, 0x93520d614d92e746},
               {"bert-uncased-mlm", StoreType::BF16, 0x31fc537f97653f7f},
               {"bert-uncased-mlm", StoreType::Int8, 0xdf1ad5a8621f2e0a},
               {"minilm-embed", StoreType::F32, 0x5276544e4578314b},  // sentence-transformers settings
               {"minilm-embed", StoreType::F16, 0x1b2d3caaeacbc380},
               {"minilm-embed", StoreType::BF16, 0x44cf668d7cd27a2f},
               {"minilm-embed", StoreType::Int8, 0x398548859f48b5a4}};
  for (const auto& c : cases) {
    INFO(c.fixture, " ", store_type_name(c.type));
    LoadedModel m = pinned_fixture(c.fixture);
    write_converted_file(m, dir / "m.bk", c.type);
    CHECK(format_hash(dir / "m.bk") == c.hash);
    // Weights reduced before are stored as they are: the same bytes.
    m.weights = with_store_type(m.weights, c.type);
    write_converted_file(m, dir / "reduced.bk", c.type);
    CHECK(bktest::read_file(dir / "reduced.bk") == bktest::read_file(dir / "m.bk"));
  }
}

TEST_CASE("converted file format: a reduced file converted again hashes as before (the tie stays an alias)") {
  bktest::TempDir dir;
  const struct {
    StoreType from, to;
    std::uint64_t hash;
  } cases[] = {{StoreType::BF16, StoreType::F32, 0xa575757c9b3c5b24},
               {StoreType::Int8, StoreType::F32, 0x48565492aac6cbcf},
               {StoreType::Int8, StoreType::BF16, 0xebd9784f39570345}};
  for (const auto& c : cases) {
    INFO(store_type_name(c.from), " to ", store_type_name(c.to));
    write_converted_file(pinned_fixture("bert-uncased-mlm"), dir / "mid.bk", c.from);
    LoadedModel reduced = load_model((dir / "mid.bk").string());
    reduced.name = "mid";
    write_converted_file(reduced, dir / "m.bk", c.to);
    CHECK(format_hash(dir / "m.bk") == c.hash);
  }
}
