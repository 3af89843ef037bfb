// `gelucheck report` from the outside: bad input (clear message, non-zero exit, nothing written),
// the atomic write, the gate (a planted regression, a failing property, a missing suite).
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

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class ReportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gelucheck-report-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }

  // Runs gelucheck with `args` (already shell-quoted where needed), environment prefix `env`.
  Result run(const std::string& args, const std::string& env = "") {
    const fs::path o = dir / "stdout.txt", e = dir / "stderr.txt";
    const std::string cmd = env + " '" GELUCHECK_EXE "' " + args + " >'" + o.string() + "' 2>'" +
                            e.string() + "' </dev/null";
    Result r;
    r.code = gelucheck::testing::shell(cmd).code;
    r.out = slurp(o);
    r.err = slurp(e);
    fs::remove(o);
    fs::remove(e);
    return r;
  }
  // Nothing but what the test made itself may be left in dir (no temp dirs, no partial report).
  std::vector<std::string> entries() {
    std::vector<std::string> v;
    for (const auto& p : fs::directory_iterator(dir)) v.push_back(p.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  nlohmann::json report(const fs::path& out) { return nlohmann::json::parse(slurp(out / "report.json")); }

  fs::path dir;
  // Fast settings: few points, no plots unless a test wants them.
  const std::string fast_subjects = "--points 32 --quiet --no-plots --formats f64,f32";
  // The peers are beside the point here (their own test is below).
  const std::string fast = fast_subjects + " --no-peers";
};

TEST_F(ReportCli, UnknownOptionIsAUsageError) {
  const Result r = run("report --out '" + (dir / "r").string() + "' --frobnicate");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
  EXPECT_TRUE(entries().empty());
}

TEST_F(ReportCli, BadSeedOrPointsIsAUsageErrorAndWritesNothing) {
  for (const char* bad : {"abc", "-1", "18446744073709551616", "1.5", "0x", "''", "+1", "' 1'",
                          "0x10000000000000000"}) {
    const Result r = run("report --out '" + (dir / "r").string() + "' --seed " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--seed"), std::string::npos) << bad << ": " << r.err;
  }
  for (const char* bad : {"0", "15", "1e3", "abc", "100000001", "-5", "+16", "0xf"}) {
    const Result r = run("report --out '" + (dir / "r").string() + "' --points " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--points"), std::string::npos) << bad << ": " << r.err;
  }
  // CLI11's own conversion alone (strtoull) would take "+2" and " 2" as 2.
  for (const char* bad : {"0", "65", "-1", "+2", "' 2'", "2.0", "4294967298"}) {
    const Result r = run("report --out '" + (dir / "r").string() + "' --threads " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--threads"), std::string::npos) << bad << ": " << r.err;
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(ReportCli, UnwritableOutFailsBeforeTheCampaign) {
  std::ofstream(dir / "file") << "not a directory\n";
  const Result r = run("report " + fast + " --no-properties --out '" + (dir / "file" / "r").string() + "'");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find((dir / "file").string()), std::string::npos) << r.err;
  EXPECT_EQ(entries(), std::vector<std::string>{"file"});
}

TEST_F(ReportCli, RefusesToReplaceADirectoryThatIsNotAReport) {
  fs::create_directory(dir / "mine");
  std::ofstream(dir / "mine" / "notes.txt") << "keep me\n";
  const Result r = run("report " + fast + " --no-properties --out '" + (dir / "mine").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;  // a usage error: choose another --out (output_cli_test.cpp)
  EXPECT_NE(r.err.find("refusing"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir / "mine" / "notes.txt"), "keep me\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"mine"});
}

TEST_F(ReportCli, WorkThatDoesNotFitInMemoryIsRefusedBeforeItStarts) {
  // 10^8 points keep 8 bytes each of inputs (800 MB = 763 MiB; estimate() in checking/src/report.cpp,
  // with 32 MiB besides and 6 MiB for each of the two subjects accurate and naive: 807 MiB);
  // under a 400 MB address-space limit that cannot fit: refused at once with the figures,
  // not a std::bad_alloc after a second (or the OOM killer after hours).
#ifdef GELUCHECK_SANITIZED
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no run fits under ulimit -v";
#endif
  const std::string limit = "ulimit -v 400000;";
  // (The peers are other processes with needs of their own: left out here.)
  const std::string base = "report --quiet --no-plots --no-properties --no-peers --out '" + (dir / "r").string() + "'";
  Result r = run(base + " --points 100000000", limit);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--points 100000000 needs about 807 MiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("RLIMIT_AS"), std::string::npos) << r.err;
  EXPECT_TRUE(entries().empty());
  // What fits runs under the same limit.
  r = run(base + " --points 16", limit);
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(ReportCli, WritesTheReportAndPlotsAndReplacesAPreviousOne) {
  const fs::path out = dir / "r";
  const std::string args =
      "report --no-peers --points 32 --quiet --no-properties --out '" + out.string() + "'";
  Result r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("report.md"), std::string::npos) << r.out;
  for (const char* f : {"report.json", "report.md", "report.html", "ulp_binary64.png", "ulp_binary32.png",
                        "hist_binary64.png", "hist_binary32.png", "gap.png"})
    EXPECT_GT(fs::file_size(out / f), 100u) << f;
  EXPECT_EQ(gelucheck::testing::report_file_problems({out.string()}), "");
  const auto j = report(out);
  EXPECT_EQ(j["schema"], "gelucheck.report/3");
  EXPECT_EQ(j["config"]["points"], 32);
  // Again into the same place: replaced whole, no temporary left beside it.
  r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(entries(), std::vector<std::string>{"r"});
  auto a = j, b = report(out);
  a.erase("run");
  b.erase("run");
  EXPECT_EQ(a, b) << "same seed, same report";
}

// `check` and `report` write the same provenance (docs/report.md): the project()'s version, and
// for one subject measured by each, the same object.
TEST_F(ReportCli, CheckAndReportRecordTheSameProvenance) {
  const std::string common = "--formats f64 --points 16 --functions tanh.value --no-properties --no-plots --quiet";
  Result r = run("check accurate " + common + " --out '" + (dir / "c").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run("report --subject accurate " + common + " --out '" + (dir / "r").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto c = report(dir / "c"), p = report(dir / "r");
  ASSERT_TRUE(c.contains("provenance"));
  EXPECT_EQ(c["provenance"], p["provenance"]);
  EXPECT_EQ(c["provenance"]["gelucheck"]["version"], GELUCHECK_EXPECTED_VERSION);
  EXPECT_EQ(c["provenance"]["subjects"], nlohmann::json::array({"accurate"}));
  for (const char* k : {"gelucheck", "compiler", "libraries", "cpu"})
    EXPECT_TRUE(c["provenance"][k].is_object()) << k;
  const std::string md = slurp(dir / "c" / "report.md");
  EXPECT_NE(md.find(std::string("Provenance: gelucheck ") + GELUCHECK_EXPECTED_VERSION), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "c" / "report.html")) << "check writes report.html as report does";
  EXPECT_EQ(gelucheck::testing::report_file_problems({(dir / "c").string(), (dir / "r").string()}), "");
}

TEST_F(ReportCli, GateFailsOnABrokenSubjectAndStillWritesTheReport) {
  const fs::path out = dir / "r";
  const std::string base = "report " + fast_subjects + " --no-properties --out '" + out.string() + "'";
  // (Whether the library as built passes its own gate is the report's finding, not this test's.)
  Result r = run(base + " --gate --subject broken:away:3");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("broken:away:3: accuracy: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("beyond faithful (< 1 ulp)"), std::string::npos) << r.err;
  const auto j = report(out);
  EXPECT_FALSE(j["gate"]["passed"].get<bool>());
  int broken = 0;
  for (const auto& row : j["accuracy"])
    if (!row["claim"].is_null()) broken += !row["meets_claim"].get<bool>();
  EXPECT_EQ(broken, 8) << "3 ulps off breaks every accurate function in both formats";
  EXPECT_EQ(gelucheck::testing::report_file_problems({out.string()}), "");
  // Without --gate the same report exits 0 (it is a report, not a check).
  r = run(base + " --subject broken:away:3");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(ReportCli, PropertiesAreTakenInAndAFailureGates) {
  const fs::path out = dir / "r";
  const std::string base = "report " + fast + " --gate --proptests '" FAKE_PROPTESTS "' --out '" +
                           out.string() + "'";
  // The gate's accuracy part is the library's business here: look at the property lines only.
  auto property_failures = [](const nlohmann::json& rep) {
    int n = 0;
    for (const auto& f : rep["gate"]["failures"])
      n += f.get<std::string>().find(": propert") != std::string::npos;
    return n;
  };
  Result r = run(base);
  ASSERT_TRUE(r.code == 0 || r.code == 4) << r.err;
  auto j = report(out);
  EXPECT_EQ(property_failures(j), 0) << j["gate"].dump();
  EXPECT_EQ(j["properties"]["status"], "run");
  ASSERT_EQ(j["properties"]["tests"].size(), 3u);
  EXPECT_EQ(j["properties"]["tests"][0]["lean"], "Proofs.GeluForm.hasVJP_correct");
  EXPECT_EQ(j["properties"]["tests"][0]["cases"], 100);  // from RapidCheck's "OK, passed" line
  EXPECT_EQ(j["properties"]["tests"][2]["cases"], 6);    // from the recorded property

  r = run(base, "FAKE_PROPTESTS_FAIL=1");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("property pdiv_map.OffDiagonalIsZero fails"), std::string::npos) << r.err;
  j = report(out);
  EXPECT_EQ(property_failures(j), 1) << j["gate"].dump();
  const auto& t = j["properties"]["tests"][1];
  EXPECT_EQ(t["outcome"], "fail");
  EXPECT_EQ(t["cases"], 7);  // "Falsifiable after 7 tests"
  EXPECT_NE(t["message"].get<std::string>().find("0x1p-1074"), std::string::npos);
  // The suite's "·" as it wrote it (GoogleTest's JSON escapes each of its bytes: properties.cpp).
  EXPECT_NE(t["message"].get<std::string>().find("exact dy\u00b7f'(x) ~ 0x1p-1074"), std::string::npos)
      << t["message"];
  for (const auto& tr : j["lean_traceability"]) {
    if (tr["theorem"] == "Proofs.GeluForm.pdiv_map") {
      EXPECT_EQ(tr["outcome"], "fail");
    }
    if (tr["theorem"] == "Proofs.GeluForm.hasVJP_correct") {
      EXPECT_EQ(tr["outcome"], "pass");
    }
    if (tr["theorem"] == "Proofs.GeluForm.map_tanh") {
      EXPECT_EQ(tr["outcome"], "no check");
    }
    if (tr["theorem"] == "none") {
      EXPECT_EQ(tr["outcome"], "pass");
    }
  }
  EXPECT_NE(slurp(out / "report.md").find("0x1p-1074"), std::string::npos);
  // Every file of it, and check's JUnit XML of the same failure, UTF-8 and not encoded twice.
  const fs::path junit = dir / "check.xml";
  r = run("check reference " + fast_subjects + " --proptests '" FAKE_PROPTESTS "' --out '" +
              (dir / "c").string() + "' --junit '" + junit.string() + "'",
          "FAKE_PROPTESTS_FAIL=1");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(slurp(junit).find("dy\u00b7f&apos;(x)"), std::string::npos);
  EXPECT_EQ(gelucheck::testing::report_file_problems({out.string(), (dir / "c").string(), junit.string()}), "");
}

TEST_F(ReportCli, AMissingPropertySuiteIsSaidAndGates) {
  const fs::path out = dir / "r";
  Result r = run("report " + fast + " --proptests '" + (dir / "nope").string() + "' --out '" +
                 out.string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("properties NOT run"), std::string::npos) << r.out;
  EXPECT_EQ(report(out)["properties"]["status"], "unavailable");
  r = run("report " + fast + " --gate --proptests '" + (dir / "nope").string() + "' --out '" +
          out.string() + "'");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("properties were not run (unavailable)"), std::string::npos) << r.err;
}

// With its default subjects, report measures every peer this installation has and compares each
// with its variants, as `gelucheck diff PEER --variants` would (report.json's `variants`).
TEST_F(ReportCli, ThePeersAreMeasuredAndComparedWithTheirVariants) {
  const fs::path out = dir / "r";
  const Result r = run("report --points 16 --quiet --no-plots --no-properties --formats f32 "
                       "--functions erf.value --out '" + out.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = report(out);
  EXPECT_EQ(gelucheck::testing::report_file_problems({out.string()}), "");
  std::vector<std::string> peers;
  for (const auto& s : j["subjects"])
    if (s["spec"] != "accurate" && s["spec"] != "naive") peers.push_back(s["spec"]);
  if (peers.empty()) GTEST_SKIP() << "no peer is installed here";
  ASSERT_TRUE(j.contains("variants"));
  for (const std::string& p : peers) {
    std::size_t n = 0;
    for (const auto& c : j["variants"])
      if (c["a"]["spec"] == p) {
        ++n;
        EXPECT_EQ(c["b"]["spec"].get<std::string>().rfind(p + ":", 0), 0u) << c["b"]["spec"];
      }
    EXPECT_GE(n, 1u) << p << " has no variant compared";
  }
  EXPECT_NE(slurp(out / "report.md").find("## Variants"), std::string::npos);
  // --no-variants leaves them out.
  const Result q = run("report --points 16 --quiet --no-plots --no-properties --formats f32 "
                       "--functions erf.value --no-variants --out '" + out.string() + "'");
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_FALSE(report(out).contains("variants"));
}

}  // namespace
