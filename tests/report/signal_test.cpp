// `gelucheck report` stopped by a real signal at several moments (docs/cli.md, "Signals"): it
// must end by that signal, leave at --out the complete old report or the complete new one,
// leave nothing beside --out nor in $TMPDIR, and leave no process running. The moments are
// reached by time (the campaign), by a property suite that hangs (tests/report/
// fake_proptests.cpp), and by the TEST ONLY stall points of the output writer (cleanup::
// test_stall): "written" (the new report complete beside --out, not yet swapped in) and
// "swapped" (swapped in, the old one not yet removed). A SIGKILL, which no handler sees, leaves
// a marked temporary directory that the next run removes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/process.hpp"
#include "orphans.hpp"

namespace {

using gelucheck::testing::gone;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using gelucheck::process::Child;
using gelucheck::process::Exit;
using gelucheck::process::Spec;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> m;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it)
    m[it->path().lexically_relative(root).string()] =
        it->is_directory() ? "directory" : "file: " + slurp(it->path());
  return m;
}

class ReportSignals : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gelucheck-report-signals-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir = templ;
    box = dir / "box";
    tmp = dir / "tmp";
    fs::create_directories(box);
    fs::create_directories(tmp);
    // The old report, seed 1; the runs under test write seed 2.
    const Exit e = gelucheck::process::run(
        {{GELUCHECK_EXE, "report", "--no-peers", "--points", "16", "--no-properties", "--no-plots", "--quiet",
          "--seed", "1", "--out", (box / "out").string()},
         "",
         {}},
        (dir / "old.log").string(), std::chrono::minutes(5));
    ASSERT_TRUE(e.ok()) << e.why << ": " << slurp(dir / "old.log");
    old = snapshot(box / "out");
  }
  void TearDown() override { fs::remove_all(dir); }

  // Starts `gelucheck report` (seed 2) with `extra` arguments and environment.
  std::unique_ptr<Child> start(const std::vector<std::string>& extra,
                               const std::vector<std::string>& env = {}) {
    Spec s{{GELUCHECK_EXE, "report", "--no-peers", "--quiet", "--seed", "2", "--out", (box / "out").string()},
           "",
           {"TMPDIR=" + tmp.string()}};
    s.argv.insert(s.argv.end(), extra.begin(), extra.end());
    s.env.insert(s.env.end(), env.begin(), env.end());
    log = dir / "run.log";
    fs::remove(log);
    auto c = std::make_unique<Child>(s, log.string());
    EXPECT_TRUE(c->alive()) << c->error();
    return c;
  }

  // Waits until the run's stderr says `text` (or `file` exists), at most a minute.
  bool wait_for(const std::string& text) {
    const auto end = Clock::now() + 60s;
    while (Clock::now() < end) {
      if (slurp(log).find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }
  bool wait_for_file(const fs::path& file) {
    const auto end = Clock::now() + 60s;
    while (Clock::now() < end) {
      if (fs::exists(file)) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  // Sends `sig` to gelucheck alone (as `kill PID` does) and checks how it ended.
  void stop(Child& c, int sig) {
    ASSERT_EQ(kill(c.pid(), sig), 0);
    const Exit e = c.finish(20s);
    EXPECT_EQ(e.kind, Exit::Kind::signalled) << e.why << ": " << slurp(log);
    EXPECT_EQ(e.code, sig) << e.why;
    EXPECT_EQ(e.shell_status(), 128 + sig);
    EXPECT_NE(slurp(log).find("stopped by SIG"), std::string::npos) << slurp(log);
  }

  // Nothing beside --out, nothing in $TMPDIR.
  void expect_no_litter() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(box)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"out"});
    EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
  }
  void expect_old() { EXPECT_EQ(snapshot(box / "out"), old) << "--out is not the old report"; }
  // The new report, complete: seed 2, and exactly the files its marker lists.
  void expect_new() {
    const fs::path out = box / "out";
    EXPECT_EQ(nlohmann::json::parse(slurp(out / "report.json"))["config"]["seed"], 2);
    const auto marker = nlohmann::json::parse(slurp(out / ".gelucheck-output"));
    std::vector<std::string> listed = marker["files"], found;
    for (auto it = fs::recursive_directory_iterator(out); it != fs::recursive_directory_iterator(); ++it)
      if (!it->is_directory() && it->path().filename() != ".gelucheck-output")
        found.push_back(it->path().lexically_relative(out).string());
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, listed);
  }

  fs::path dir, box, tmp, log;
  std::map<std::string, std::string> old;
};

TEST_F(ReportSignals, DuringTheCampaign) {
  // 200000 points take minutes; the signal comes after half a second, inside the campaign's
  // worker threads' work (the handler runs on the main thread, which blocks nothing).
  auto c = start({"--points", "200000", "--no-properties", "--no-plots", "--threads", "2"});
  std::this_thread::sleep_for(500ms);
  ASSERT_TRUE(c->alive()) << slurp(log);
  stop(*c, SIGTERM);
  expect_old();
  expect_no_litter();
}

TEST_F(ReportSignals, DuringThePropertySuiteNoOrphanNoScratch) {
  for (int sig : {SIGTERM, SIGINT}) {
    const fs::path pids = dir / "pids.txt";
    fs::remove(pids);
    auto c = start({"--points", "16", "--no-plots", "--threads", "2", "--proptests", FAKE_PROPTESTS},
                   {"FAKE_PROPTESTS_HANG=" + pids.string()});
    ASSERT_TRUE(wait_for_file(pids)) << slurp(log);
    pid_t suite = 0, grandchild = 0;
    std::istringstream(slurp(pids)) >> suite >> grandchild;
    ASSERT_GT(grandchild, 0);
    EXPECT_FALSE(fs::is_empty(tmp));  // the suite's scratch directory, while it runs
    stop(*c, sig);
    EXPECT_TRUE(gone(suite)) << "the property suite " << suite << " outlived gelucheck";
    EXPECT_TRUE(gone(grandchild)) << "its child " << grandchild << " outlived gelucheck";
    // The suites run two at a time: none of those started by the time of the signal, nor their
    // children, outlives gelucheck (orphans are adopted by this test, a subreaper).
    for (const auto& p : gelucheck::testing::children())
      EXPECT_TRUE(gone(p.pid)) << "process " << p.pid << " (" << p.command << ") outlived gelucheck";
    expect_old();
    expect_no_litter();
  }
}

TEST_F(ReportSignals, WithTheNewReportWrittenButNotSwappedIn) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    // With the plots once (gnuplot has run, plot-data/ is written), without them after (faster).
    std::vector<std::string> args = {"--points", "16", "--no-properties"};
    if (sig != SIGTERM) args.push_back("--no-plots");
    auto c = start(args, {"GELUCHECK_TEST_ONLY_STALL_AT=written"});
    ASSERT_TRUE(wait_for("stalled at written")) << slurp(log);
    stop(*c, sig);
    expect_old();
    expect_no_litter();
  }
}

TEST_F(ReportSignals, WithTheNewReportSwappedInAndTheOldNotYetRemoved) {
  for (int sig : {SIGTERM, SIGHUP}) {
    std::vector<std::string> args = {"--points", "16", "--no-properties"};
    if (sig != SIGTERM) args.push_back("--no-plots");
    auto c = start(args, {"GELUCHECK_TEST_ONLY_STALL_AT=swapped"});
    ASSERT_TRUE(wait_for("stalled at swapped")) << slurp(log);
    stop(*c, sig);
    expect_new();
    expect_no_litter();
    fs::remove_all(box / "out");
    const Exit e = gelucheck::process::run(  // the old report again, for the next signal
        {{GELUCHECK_EXE, "report", "--no-peers", "--points", "16", "--no-properties", "--no-plots", "--quiet",
          "--seed", "1", "--out", (box / "out").string()}, "", {}}, "");
    ASSERT_TRUE(e.ok()) << e.why;
    old = snapshot(box / "out");
  }
}

TEST_F(ReportSignals, ASigkillLeavesWhatTheNextRunRemoves) {
  for (const char* stage : {"written", "swapped"}) {
    auto c = start({"--points", "16", "--no-properties", "--no-plots"},
                   {std::string("GELUCHECK_TEST_ONLY_STALL_AT=") + stage});
    ASSERT_TRUE(wait_for(std::string("stalled at ") + stage)) << slurp(log);
    ASSERT_EQ(kill(c->pid(), SIGKILL), 0);
    EXPECT_EQ(c->finish(20s).code, SIGKILL);
    std::size_t left = 0;
    for (const auto& e : fs::directory_iterator(box)) left += e.path().filename() != "out";
    EXPECT_EQ(left, 1u) << stage << ": one temporary directory (no handler ran)";
    // The next run sweeps it and says so.
    c = start({"--points", "16", "--no-properties", "--no-plots"});
    const Exit e = c->finish(std::chrono::minutes(5));
    EXPECT_TRUE(e.ok()) << e.why << ": " << slurp(log);
    EXPECT_NE(slurp(log).find("a gelucheck run that is gone"), std::string::npos) << slurp(log);
    expect_new();
    expect_no_litter();
  }
}

}  // namespace

int main(int argc, char** argv) {
  gelucheck::testing::become_subreaper();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
