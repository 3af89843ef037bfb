// `gelucheck check SPEC --exhaustive` run as a subprocess (docs/cli.md, "Exhaustive binary32"):
// a subject never seen before with ONE wrong input is caught and the input named in hex; the
// shards merged, the ranks of mpirun and a resumed sweep each give the report of one
// uninterrupted process; the usage errors. Over small --range's of bit patterns (seconds each).
//
// Expected values come from the MPFR reference (ref::correctly_rounded), from the bit patterns
// counted here, or from the test library's construction (tests/cli/one_bad_input.c); the reports
// compared with one another are runs of different splits of the same sweep.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "gelucheck/common.hpp"
#include "gelucheck/reference.hpp"
#include "report_files.hpp"

namespace gelucheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A scratch directory per test, removed afterwards.
class Exhaustive : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gelucheck_exhaustive_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `PREFIX gelucheck ARGS` in the scratch directory.
  Outcome run(const std::string& args, const std::string& prefix = "") const {
    const std::string cmd = "cd '" + dir_.string() + "' && " + prefix + "'" + GELUCHECK_BIN + "' " +
                            args + " >out.txt 2>err.txt";
    const int status = std::system(cmd.c_str());
    Outcome r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir_ / "out.txt");
    r.err = slurp(dir_ / "err.txt");
    return r;
  }
  json report(const std::string& out) const {
    json j = json::parse(slurp(dir_ / out / "report.json"));
    j.erase("run");  // the start time and run times: the only part that differs between runs
    return j;
  }
  fs::path dir_;
};

// The non-NaN binary32 patterns in [lo, hi), counted one by one.
std::uint64_t non_nan(std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t n = 0;
  for (std::uint64_t b = lo; b < hi; ++b) {
    float f;
    const auto u = static_cast<std::uint32_t>(b);
    std::memcpy(&f, &u, sizeof f);
    n += f == f;
  }
  return n;
}

// Across +inf, the positive NaNs, -0 and the negative subnormals: 4096 + 1 + 4096 inputs over 129
// blocks of 2^16 patterns (the sweep's unit), all cheap for MPFR.
constexpr const char* kRange = "0x7f7ff000:0x80001000";
constexpr std::uint64_t kLo = 0x7f7ff000, kHi = 0x80001000;

TEST_F(Exhaustive, AnUnknownLibraryWithOneWrongInputIsCaughtAndTheInputNamedInHex) {
  // The range holds the one wrong input, 0x3f8ccccd (one_bad_input.c), and 65535 right ones.
  const Outcome r = run(std::string("check lib:") + ONE_BAD_LIB +
                        " --exhaustive --functions erf.value --claim faithful --gate "
                        "--range 0x3f8c0000:0x3f8d0000 --out rep");
  ASSERT_EQ(r.code, 4) << r.out << r.err;
  const double bad = from_bits(0x3f8ccccd, Format::binary32);
  EXPECT_EQ(hexfloat(bad), "0x1.19999ap+0");
  EXPECT_NE(r.err.find("x = 0x1.19999ap+0"), std::string::npos) << r.err;
  const json j = report("rep");
  const json& f = j["exhaustive"]["functions"][0];
  EXPECT_EQ(f["function"], "erf.value");
  EXPECT_EQ(f["inputs"].get<std::uint64_t>(), 65536u);
  EXPECT_EQ(f["failing"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(f["failing_by_region"]["1_10"].get<std::uint64_t>(), 1u);
  ASSERT_EQ(f["failures"].size(), 1u);
  const json& x = f["failures"][0];
  EXPECT_EQ(x["x"], "0x1.19999ap+0");
  EXPECT_EQ(x["bits"], "0x3f8ccccd");
  const double want = ref::correctly_rounded(Form::erf, Quantity::value, bad, Format::binary32);
  EXPECT_EQ(x["expected"], hexfloat(want));
  // Two ulps up from a faithful result: at least 1 ulp from the exact value.
  EXPECT_GE(x["ulp"].get<double>(), 1.0);
  EXPECT_NE(slurp(dir_ / "rep" / "report.md").find("`0x1.19999ap+0` | `0x3f8ccccd`"), std::string::npos);
  EXPECT_NE(slurp(dir_ / "rep" / "report.html").find("<code>0x1.19999ap+0</code>"), std::string::npos);
  EXPECT_EQ(testing::report_file_problems({(dir_ / "rep").string()}), "");  // the schema's "exhaustive"

  // The neighbouring range without it: every claim holds.
  const Outcome ok = run(std::string("check lib:") + ONE_BAD_LIB +
                         " --exhaustive --functions erf.value --claim faithful --gate "
                         "--range 0x3f8cd000:0x3f8d0000 --out rep2");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
}

TEST_F(Exhaustive, CountsEveryNonNanInputAndSaysExhaustive) {
  const Outcome r = run(std::string("check accurate --exhaustive --functions erf.value --gate --range ") +
                        kRange + " --out one");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const json j = report("one");
  EXPECT_EQ(j["exhaustive"]["inputs"].get<std::uint64_t>(), non_nan(kLo, kHi));
  EXPECT_EQ(j["exhaustive"]["inputs"].get<std::uint64_t>(), 8193u);
  EXPECT_EQ(j["accuracy"][0]["regions"]["overall"]["count"].get<std::uint64_t>(), 8193u);
  EXPECT_FALSE(j["exhaustive"]["all_of_binary32"].get<bool>());
  const std::string md = slurp(dir_ / "one" / "report.md");
  EXPECT_NE(md.find("## Exhaustive binary32"), std::string::npos);
  EXPECT_NE(md.find("exhaustive: every binary32 input of the bit patterns [0x7f7ff000, 0x80001000)"),
            std::string::npos);
  // Nothing left beside the report: the checkpoint directory goes with a finished sweep.
  EXPECT_FALSE(fs::exists(dir_ / ".one.checkpoint"));
}

TEST_F(Exhaustive, TwoShardsMergedGiveTheReportOfOneProcess) {
  const std::string base = std::string("check accurate --exhaustive --functions erf.value,tanh.derivative --range ") + kRange;
  ASSERT_EQ(run(base + " --threads 2 --out one").code, 0);
  const Outcome s2 = run(base + " --threads 1 --shard 2/2 --out s2");
  ASSERT_EQ(s2.code, 0) << s2.err;
  const Outcome s1 = run(base + " --threads 1 --shard 1/2 --out s1");
  ASSERT_EQ(s1.code, 0) << s1.err;
  const Outcome m = run("merge merged s2 s1");  // any order
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(report("merged"), report("one"));
  EXPECT_EQ(testing::report_file_problems({(dir_ / "merged").string()}), "");

  // Refused with exit 2: a missing shard, the same shard twice, a shard of another sweep.
  EXPECT_EQ(run("merge bad s1").code, 2);
  EXPECT_EQ(run("merge bad s1 s1 s2").code, 2);
  ASSERT_EQ(run(std::string("check accurate --exhaustive --functions erf.value --range ") + kRange +
                " --shard 2/2 --out other")
                .code,
            0);
  const Outcome mixed = run("merge bad s1 other");
  EXPECT_EQ(mixed.code, 2);
  EXPECT_NE(mixed.err.find("different sweeps"), std::string::npos) << mixed.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

TEST_F(Exhaustive, MpirunOverTwoRanksGivesTheReportOfOneProcess) {
#ifndef MPIRUN
  GTEST_SKIP() << "gelucheck built without GELUCHECK_MPI";
#else
  const std::string base = std::string("check accurate --exhaustive --functions erf.value --threads 1 --range ") + kRange;
  ASSERT_EQ(run(base + " --out one").code, 0);
  const Outcome r = run(base + " --out ranks", std::string("'") + MPIRUN + "' --allow-run-as-root --oversubscribe -n 2 ");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(report("ranks"), report("one"));
#endif
}

TEST_F(Exhaustive, AnInterruptedSweepResumesFromItsCheckpoint) {
  // 128 blocks of 2^16 inputs (x in [1/2, 1), where the reference evaluates: about a second; the
  // subnormals, once used here, now take less than the interval between two looks) on one
  // thread, a checkpoint at every look (five times a second); the run stalls there
  // (cleanup::test_stall) once a checkpoint holding some block is on disk, and is stopped by
  // SIGTERM.
  const std::string args = "check accurate --exhaustive --functions erf.value --threads 1 "
                           "--checkpoint-every 0 --range 0x3f000000:0x3f800000 --out one";
  const fs::path cp = dir_ / ".one.checkpoint" / "checkpoint-1-of-1.json";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir_.c_str()) != 0) _exit(127);
    const std::string cmd = std::string("GELUCHECK_TEST_ONLY_STALL_AT=exhaustive-checkpoint exec '") +
                            GELUCHECK_BIN + "' " + args + " >/dev/null 2>stalled.txt";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  bool stalled = false;
  for (int i = 0; i < 1200 && !stalled; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stalled = slurp(dir_ / "stalled.txt").find("stalled at exhaustive-checkpoint") != std::string::npos;
  }
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(stalled) << slurp(dir_ / "stalled.txt");
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  ASSERT_TRUE(fs::exists(cp));
  const json state = json::parse(slurp(cp));
  // Some blocks done, not all: the resumed run has work left.
  EXPECT_GT(state["inputs"].get<std::uint64_t>(), 0u);
  EXPECT_LT(state["inputs"].get<std::uint64_t>(), 0x800000u);
  EXPECT_FALSE(fs::exists(dir_ / "one"));

  const Outcome resumed = run(args);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resumed with"), std::string::npos) << resumed.err;
  EXPECT_FALSE(fs::exists(dir_ / ".one.checkpoint"));
  fs::rename(dir_ / "one", dir_ / "resumed");
  ASSERT_EQ(run(args).code, 0);
  EXPECT_EQ(report("resumed"), report("one"));
}

TEST_F(Exhaustive, UsageErrors) {
  EXPECT_EQ(run("check accurate --range 0:16 --out x").code, 2);  // --range needs --exhaustive
  EXPECT_EQ(run("check accurate --exhaustive --range 16:16 --out x").code, 2);
  EXPECT_EQ(run("check accurate --exhaustive --range 0:0x100000001 --out x").code, 2);
  EXPECT_EQ(run("check accurate --exhaustive --range 0x10 --out x").code, 2);
  EXPECT_EQ(run("check accurate --exhaustive --shard 3/2 --range 0:16 --out x").code, 2);
  EXPECT_EQ(run("check accurate --exhaustive --shard 0/2 --range 0:16 --out x").code, 2);
  // A checkpoint directory gelucheck did not make is never written into.
  fs::create_directories(dir_ / ".x.checkpoint");
  const Outcome r = run("check accurate --exhaustive --range 0:16 --out x");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not a checkpoint of gelucheck's"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir_ / ".x.checkpoint"));
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

// The long tier (ctest -L long): the same library over ALL of binary32 — the one wrong input
// found among 4,278,190,082, named in hex, and nothing else.
class ExhaustiveLong : public Exhaustive {};
TEST_F(ExhaustiveLong, TheOneWrongInputAmongAllOfBinary32) {
  const Outcome r = run(std::string("check lib:") + ONE_BAD_LIB +
                        " --exhaustive --functions erf.value --claim faithful --gate --out rep");
  ASSERT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("x = 0x1.19999ap+0"), std::string::npos) << r.err;
  const json j = report("rep");
  EXPECT_TRUE(j["exhaustive"]["all_of_binary32"].get<bool>());
  const json& f = j["exhaustive"]["functions"][0];
  EXPECT_EQ(f["inputs"].get<std::uint64_t>(), 4278190082u);  // 2^32 - 2·(2^23 - 1) NaN patterns
  EXPECT_EQ(f["failing"].get<std::uint64_t>(), 1u);
  ASSERT_EQ(f["failures"].size(), 1u);
  EXPECT_EQ(f["failures"][0]["x"], "0x1.19999ap+0");
  EXPECT_EQ(f["failures"][0]["bits"], "0x3f8ccccd");
}

}  // namespace
}  // namespace gelucheck
