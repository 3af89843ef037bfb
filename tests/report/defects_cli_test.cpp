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
#include "scratch_dir.hpp"
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
  // `gelucheck check ARGS --out DIR/out`, its report.json (checked against the schema).
  nlohmann::json check(const std::string& args, int want_code) {
    const auto r = gelucheck::testing::shell("'" GELUCHECK_EXE "' check " + args + " --quiet --out '" +
                                             (dir / "out").string() + "'");
    EXPECT_EQ(r.code, want_code) << r.errors;
    EXPECT_EQ(gelucheck::testing::report_file_problems({(dir / "out").string()}), "");
    return nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  }
  // Whether `check ARGS` (exit 4) gives a defect of `kind` whose diagnosis contains `says`.
  ::testing::AssertionResult diagnoses(const std::string& args, const char* kind, const std::string& says) {
    const auto j = check(args + " --gate", 4);
    for (const auto& d : j["subjects"][0]["defects"])
      if (d["kind"] == kind && !d["diagnosis"].is_null() &&
          d["diagnosis"].get<std::string>().find(says) != std::string::npos)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "no " << kind << " defect says \"" << says << "\": "
                                         << j["subjects"][0]["defects"].dump(1);
  }
  gelucheck::testing::ScratchDir scratch{"defects-cli"};
  const fs::path dir{scratch.path()};
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

// A subject that hangs at one input in every op: one hang defect, confirmed alone, and the
// properties that met the hang are listed with it, not as defects of their own.
TEST_F(DefectsCli, AHangInEveryOpIsOneDefectWithThePropertiesItStopped) {
  const auto j = check("lib:" HANG_LIB " --claim faithful --formats f32 --gate --no-plots --points 2000", 4);
  std::size_t hangs = 0;
  for (const auto& d : j["subjects"][0]["defects"]) {
    if (d["kind"] == "hang") {
      ++hangs;
      EXPECT_EQ(d["x"], "0x1p+1") << d.dump();
      EXPECT_EQ(d["ops"].size(), 4u) << d.dump();
      EXPECT_FALSE(d["properties"].empty()) << d.dump();
    }
    if (d["fact"].get<std::string>().find("identity_inputs_untouched") != std::string::npos ||
        d["detail"].dump().find("harness finding") != std::string::npos)
      ADD_FAILURE() << "a property stopped by the hang is a defect of its own: " << d.dump();
  }
  EXPECT_EQ(hangs, 1u) << j["subjects"][0]["defects"].dump(1);
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
  EXPECT_TRUE(diagnoses("lib:" HALF_TABLE_LIB " --claim faithful --formats f32 --functions erf.value --no-properties --no-plots --points 2000", "accuracy",
                        "is a binary16 value"));
}

TEST_F(DefectsCli, SaysABinary32GeluRoundsItsInputsToBinary16First) {
  EXPECT_TRUE(diagnoses("lib:" QUANTIZED_INPUT_LIB " --claim faithful --formats f32 --functions erf.value --no-properties --no-plots --points 2000", "accuracy",
                        "its inputs are rounded to binary16 first"));
}

// Quantized over [-10, 10] only (a table there, x itself beyond): the diagnosis still holds, with
// its counts, as for ggml's binary32 GELU.
TEST_F(DefectsCli, SaysSoWhenOnlyPartOfTheLineIsRoundedFirst) {
  EXPECT_TRUE(diagnoses("lib:" QUANTIZED_INPUT_LIB " --claim faithful --formats f32 --functions tanh.value --no-properties --no-plots --points 2000", "accuracy",
                        "its inputs are rounded to binary16 first"));
}

TEST_F(DefectsCli, NamesAMistypedConstant) {
  EXPECT_TRUE(diagnoses("lib:" MISTYPED_CONSTANT_LIB " --claim faithful --formats f32 --functions tanh.value --no-properties --no-plots --points 2000", "accuracy",
                        "computed with 0.0447 for 0.044715: a mistyped constant"));
}

TEST_F(DefectsCli, SaysAFlushIsACleanCutAtARoundThreshold) {
  // Every binary32 input in [-10.0078125, -9.9921875] (the bit patterns around -10's 0xc1200000):
  // the last zero and the first nonzero result are adjacent there.
  EXPECT_TRUE(diagnoses("lib:" CUTOFF_LIB " --claim faithful --functions erf.value --exhaustive --range 0xc11ff000:0xc1201000", "flush",
                        "-10 lies between"));
}

// The textbook formula's natural collapse is a clean cut too, but the sampled campaign's gap
// around it holds -7.2 by chance: no threshold is named.
TEST_F(DefectsCli, NamesNoThresholdInASampledGap) {
  const auto j = check("naive --formats f64 --functions tanh.value --no-properties --no-plots", 0);
  std::size_t cuts = 0;
  for (const auto& d : j["subjects"][0]["defects"])
    if (d["kind"] == "flush" && !d["diagnosis"].is_null()) {
      ++cuts;
      EXPECT_EQ(d["diagnosis"].get<std::string>().find("lies between"), std::string::npos) << d.dump();
    }
  EXPECT_EQ(cuts, 1u) << j["subjects"][0]["defects"].dump(1);
}

TEST_F(DefectsCli, SaysTheErfFormComputesTheTanhForm) {
  EXPECT_TRUE(diagnoses("lib:" OTHER_FORM_LIB " --claim faithful --formats f32 --functions erf.value --no-properties --no-plots --points 2000", "accuracy",
                        "it computes the tanh form"));
}

}  // namespace
