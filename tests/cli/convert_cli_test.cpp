// `bertkit convert` and `bertkit info` end to end.
#include "support.h"
#include "unit/checkpoint_builders.h"

#include <doctest/doctest.h>

namespace fs = std::filesystem;

namespace {

std::size_t count_lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("convert/info: a converted fixture is checked and described like its folder") {
  bktest::TempDir dir;
  auto folder = bktest::shared("fixtures/models/bert-cased-cls").string();
  auto file = (dir / "cls.bk").string();
  auto r = bktest::run_bertkit({"convert", folder, file});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  auto check = bktest::run_bertkit({"convert", "--check", file});
  CHECK(check.exit_code == 0);
  CHECK(check.out.find(": ok (") != std::string::npos);

  auto goldens = bktest::read_json(bktest::shared("fixtures/models/bert-cased-cls/goldens.json"));
  for (const auto& model : {folder, file}) {
    INFO(model);
    auto info = bktest::run_bertkit({"info", model});
    REQUIRE(info.exit_code == 0);
    CHECK(info.out.find("architecture: " + goldens["model_class"].get<std::string>() + "\n") != std::string::npos);
    CHECK(info.out.find("hidden_size: " + std::to_string(goldens["spec"]["hidden"].get<int>()) + "\n") != std::string::npos);
    CHECK(info.out.find("num_layers: " + std::to_string(goldens["spec"]["layers"].get<int>()) + "\n") != std::string::npos);
    auto labels = goldens["spec"]["labels"];
    CHECK(info.out.find("labels: 0=" + labels[0].get<std::string>() + " 1=" + labels[1].get<std::string>()) != std::string::npos);
    CHECK(info.out.find("tokenizer.do_lower_case: false\n") != std::string::npos);
  }
  auto json = bktest::run_bertkit({"info", "--json", file});
  REQUIRE(json.exit_code == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["architecture"] == goldens["model_class"]);
  CHECK(j["format"] == "bertkit converted file");
  CHECK(j["from.converted from"] == folder);
}

TEST_CASE("convert/info: bad input gives one error line naming the file, exit 3, and no output file") {
  bktest::TempDir dir;
  // A model folder whose weights are a malicious pickle.
  bktest::write_bytes(dir / "evil/config.json", bktest::read_file(bktest::shared("fixtures/models/bert-uncased-qa/config.json")));
  bktest::write_bytes(dir / "evil/pytorch_model.bin",
                      bktest::stored_zip({{"a/data.pkl", bktest::cat("\x80\x02" "cos\nsystem\n", bktest::pickle_unicode("true"), "\x85R.")}}));
  auto info = bktest::run_bertkit({"info", (dir / "evil").string()});
  CHECK(info.exit_code == 3);
  CHECK(count_lines(info.err) == 1);
  CHECK(info.err.find((dir / "evil/pytorch_model.bin").string()) != std::string::npos);
  CHECK(info.err.find("os.system") != std::string::npos);

  // Converting it over an existing file leaves that file alone and no temporary behind.
  bktest::write_bytes(dir / "out/model.bk", "previous");
  auto convert = bktest::run_bertkit({"convert", (dir / "evil").string(), (dir / "out/model.bk").string()});
  CHECK(convert.exit_code == 3);
  CHECK(bktest::read_file(dir / "out/model.bk") == "previous");
  CHECK(std::distance(fs::directory_iterator(dir / "out"), fs::directory_iterator()) == 1);

  auto missing = bktest::run_bertkit({"info", (dir / "nowhere").string()});
  CHECK(missing.exit_code == 3);
  auto bad_check = bktest::run_bertkit({"convert", "--check", (dir / "out/model.bk").string()});
  CHECK(bad_check.exit_code == 3);
  CHECK(bad_check.err.find("model.bk") != std::string::npos);
  auto bad_dtype = bktest::run_bertkit({"convert", "--dtype", "f8", (dir / "evil").string(), (dir / "x.bk").string()});
  CHECK(bad_dtype.exit_code == 2);
}
