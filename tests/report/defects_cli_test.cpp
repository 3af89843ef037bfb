// The defects of `gelucheck check` from the outside: each defect's reproducer, run as the user
// would run it, prints what the defect says the subject returned; the diagnoses say what a
// subject really computes (a binary16 table behind a binary32 API; the other form).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report_files.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class DefectsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gelucheck-defects-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }
  // `gelucheck check ARGS --out DIR/out`, its report.json (its files checked against the schema
  // and for UTF-8: these are the reports with the most kinds of defect).
  nlohmann::json check(const std::string& args, int want_code) {
    const auto r = gelucheck::testing::shell("'" GELUCHECK_EXE "' check " + args + " --quiet --out '" +
                                             (dir / "out").string() + "'");
    EXPECT_EQ(r.code, want_code) << r.errors;
    EXPECT_EQ(gelucheck::testing::report_file_problems({(dir / "out").string()}), "");
    return nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  }
  fs::path dir;
};

// Every defect's `reproduce` command (a `gelucheck eval` of that one input, in a fresh process)
// prints the result the defect names as `got`. The naive path has defects of many kinds.
TEST_F(DefectsCli, EveryReproducerReproduces) {
  const auto j = check("naive --no-properties --no-plots --points 400", 0);
  const auto& ds = j["subjects"][0]["defects"];
  ASSERT_GE(ds.size(), 4u) << ds.dump(1);
  std::size_t run = 0;
  for (const auto& d : ds) {
    if (d["got"].is_null()) continue;
    std::string cmd = d["reproduce"].get<std::string>();
    const std::string word = "| gelucheck eval ";
    const auto at = cmd.find(word);
    ASSERT_NE(at, std::string::npos) << cmd;
    cmd.replace(at, word.size(), "| '" GELUCHECK_EXE "' eval ");
    const auto r = gelucheck::testing::shell(cmd);
    ASSERT_EQ(r.code, 0) << cmd << "\n" << r.errors;
    // eval prints: the input used, the result (C99 hex), the result in decimal.
    std::istringstream line(r.output);
    std::string input, result;
    line >> input >> result;
    EXPECT_EQ(result, d["got"].get<std::string>()) << d["kind"] << ": " << cmd;
    EXPECT_EQ(input, d["x"].get<std::string>()) << cmd;
    ++run;
  }
  EXPECT_GE(run, 4u);
}

// A crash that needs its batch (the hostile library's gelu_erf_f64 crashes in any call of more
// than 100 elements) is one defect that names no input as its cause, says so, and its reproducer
// replays the batch saved beside the report, which crashes it again.
TEST_F(DefectsCli, ABatchDependentCrashIsReplayedFromItsSavedBatch) {
  const auto j = check("lib:" HOSTILE_LIB " --claim faithful --formats f64 --functions erf.value "
                       "--no-properties --no-plots --points 2000", 0);
  std::size_t crashes = 0;
  for (const auto& d : j["subjects"][0]["defects"]) {
    if (d["kind"] != "crash") continue;
    ++crashes;
    EXPECT_NE(d["confirmation"].get<std::string>().find("no input misbehaves alone"), std::string::npos) << d.dump();
    std::string cmd = d["reproduce"].get<std::string>();
    const std::string where = "(in the report's directory) gelucheck eval ";
    ASSERT_EQ(cmd.rfind(where, 0), 0u) << cmd;
    cmd = "cd '" + (dir / "out").string() + "' && '" GELUCHECK_EXE "' eval " + cmd.substr(where.size());
    const auto r = gelucheck::testing::shell(cmd);
    EXPECT_EQ(r.code, 3) << cmd << "\n" << r.errors;
    EXPECT_NE(r.errors.find("crashed"), std::string::npos) << r.errors;
  }
  EXPECT_EQ(crashes, 1u) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, SaysABinary32GeluComputesInBinary16) {
  const auto j = check("lib:" HALF_TABLE_LIB " --claim faithful --formats f32 --functions erf.value "
                       "--no-properties --no-plots --points 2000 --gate", 4);
  bool said = false;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "accuracy" && !d["diagnosis"].is_null())
      said |= d["diagnosis"].get<std::string>().find("is a binary16 value") != std::string::npos;
  EXPECT_TRUE(said) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, SaysABinary32GeluRoundsItsInputsToBinary16First) {
  const auto j = check("lib:" QUANTIZED_INPUT_LIB " --claim faithful --formats f32 --functions erf.value "
                       "--no-properties --no-plots --points 2000 --gate", 4);
  bool said = false;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "accuracy" && !d["diagnosis"].is_null())
      said |= d["diagnosis"].get<std::string>().find("its inputs are rounded to binary16 first") != std::string::npos;
  EXPECT_TRUE(said) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, NamesAMistypedConstant) {
  const auto j = check("lib:" MISTYPED_CONSTANT_LIB " --claim faithful --formats f32 --functions tanh.value "
                       "--no-properties --no-plots --points 2000 --gate", 4);
  bool said = false;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "accuracy" && !d["diagnosis"].is_null())
      said |= d["diagnosis"].get<std::string>().find("computed with 0.0447 for 0.044715: a mistyped constant") !=
              std::string::npos;
  EXPECT_TRUE(said) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, SaysAFlushIsACleanCutAtARoundThreshold) {
  const auto j = check("lib:" CUTOFF_LIB " --claim faithful --formats f32 --functions erf.value "
                       "--no-properties --no-plots --points 2000 --gate", 4);
  bool said = false;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "flush" && !d["diagnosis"].is_null())
      said |= d["diagnosis"].get<std::string>().find("a clean cut") != std::string::npos &&
              d["diagnosis"].get<std::string>().find("-10 lies between") != std::string::npos;
  EXPECT_TRUE(said) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, SaysTheErfFormComputesTheTanhForm) {
  const auto j = check("lib:" OTHER_FORM_LIB " --claim faithful --formats f32 --functions erf.value "
                       "--no-properties --no-plots --points 2000 --gate", 4);
  bool said = false;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "accuracy" && !d["diagnosis"].is_null())
      said |= d["diagnosis"].get<std::string>().find("it computes the tanh form") != std::string::npos;
  EXPECT_TRUE(said) << j["subjects"][0]["defects"].dump(1);
}

}  // namespace
