// output_dir.hpp from the inside: the marker, the swap (RENAME_EXCHANGE and the two-rename
// fallback), the check after the swap, the sweep of stale temporaries beside the target, and
// concurrent writers. The rule itself, through `gelucheck report`, is tests/report/
// output_cli_test.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/output_dir.hpp"

namespace gelucheck::output {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class OutputDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gelucheck-output-dir-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  // Writes an output with `files` (name → content) to `out`.
  void write(const fs::path& out, const std::vector<std::pair<std::string, std::string>>& files,
             bool two_step = false) {
    Writer w(out.string(), "test");
    if (two_step) w.use_two_step_for_test();
    for (const auto& [name, text] : files) w.write_file(name, text);
    w.commit();
  }
  fs::path dir;
};

TEST_F(OutputDir, MarkerListsEveryFileAndNoTemporaryIsLeft) {
  const fs::path out = dir / "out";
  write(out, {{"b.txt", "b"}, {"a.txt", "a"}, {"sub/deeper/c.dat", "c"}});
  EXPECT_EQ(names(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(out / "sub" / "deeper" / "c.dat"), "c");
  EXPECT_FALSE(fs::exists(out / cleanup::kTempMarker));
  EXPECT_EQ(slurp(out / kMarker),
            "{\n  \"schema\": \"gelucheck.output/1\",\n  \"written_by\": \"test\",\n  \"files\": [\n"
            "    \"a.txt\",\n    \"b.txt\",\n    \"sub/deeper/c.dat\"\n  ]\n}\n");
  // The permissions of a new directory (mkdtemp's 0700 undone).
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(fs::status(out).permissions(), static_cast<fs::perms>(0777 & ~mask));
}

TEST_F(OutputDir, ReplacesItsOwnOutputWholeBothWays) {
  const fs::path out = dir / "out";
  for (bool two_step : {false, true}) {
    write(out, {{"old.txt", "old"}, {"sub/old.dat", "old"}}, two_step);
    write(out, {{"new.txt", "new"}}, two_step);
    EXPECT_EQ(names(), std::vector<std::string>{"out"}) << "two_step " << two_step;
    EXPECT_FALSE(fs::exists(out / "old.txt"));
    EXPECT_FALSE(fs::exists(out / "sub"));
    EXPECT_EQ(slurp(out / "new.txt"), "new");
    fs::remove_all(out);
  }
}

TEST_F(OutputDir, AnAbandonedWriterLeavesNothing) {
  const fs::path out = dir / "out";
  write(out, {{"kept.txt", "kept"}});
  {
    Writer w(out.string(), "test");
    w.write_file("half.txt", "half");
    EXPECT_TRUE(fs::exists(w.dir()));
  }  // no commit: an exception or an early return
  EXPECT_EQ(names(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(out / "kept.txt"), "kept");
}

TEST_F(OutputDir, WhatBecameNotOursBeforeTheSwapIsRefusedAndKept) {
  const fs::path out = dir / "out";
  for (bool two_step : {false, true}) {
    write(out, {{"report.json", "{}"}});
    Writer w(out.string(), "test");  // checked: ours
    if (two_step) w.use_two_step_for_test();
    w.write_file("report.json", "{\"new\": 1}");
    std::ofstream(out / "mine.txt") << "mine";  // added after the check, before the swap
    EXPECT_THROW(w.commit(), Refused) << "two_step " << two_step;
    EXPECT_EQ(slurp(out / "mine.txt"), "mine");
    EXPECT_EQ(slurp(out / "report.json"), "{}");
    fs::remove_all(out);
  }
  EXPECT_TRUE(names().empty()) << names().size();
}

TEST_F(OutputDir, ANewTargetIsMadeWithItsParents) {
  const fs::path out = dir / "a" / "b" / "out";
  check(out.string());
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b"));
  EXPECT_FALSE(fs::exists(out));  // check() writes nothing but the parents
  EXPECT_TRUE(fs::is_empty(dir / "a" / "b"));
  write(out, {{"x", "x"}});
  EXPECT_EQ(slurp(out / "x"), "x");
}

TEST_F(OutputDir, StaleTemporariesBesideTheTargetAreSweptOrSaid) {
  // A temporary directory of a run killed by SIGKILL: a marker naming a process that is gone (our
  // own pid with a start time that is not ours: the pid of a run since reused).
  std::string ours;
  {
    cleanup::TempDir t = cleanup::make_temp_dir(dir.string(), "probe");
    ours = slurp(fs::path(t.path) / cleanup::kTempMarker);
    cleanup::remove_temp_dir(t);
  }
  const auto field = [&](const std::string& key) {
    std::istringstream in(ours);
    std::string k, v;
    while (in >> k >> v)
      if (k == key) return v;
    return std::string();
  };
  const fs::path stale = dir / ".out.tmp-AAAAAA", unmarked = dir / ".out.tmp-BBBBBB";
  fs::create_directories(stale / "plot-data");
  std::ofstream(stale / cleanup::kTempMarker) << "pid " << getpid() << "\nstart 1\nhost "
                                              << field("host") << "\nboot " << field("boot") << "\n";
  fs::create_directories(unmarked);
  Writer w((dir / "out").string(), "test");
  ASSERT_EQ(w.notes().size(), 2u);
  EXPECT_NE(w.notes()[0].find("removed " + stale.string()), std::string::npos) << w.notes()[0];
  EXPECT_NE(w.notes()[1].find("left " + unmarked.string() + " alone"), std::string::npos) << w.notes()[1];
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(unmarked));
}

TEST_F(OutputDir, ConcurrentWritersEachLeaveACompleteOutput) {
  const fs::path out = dir / "out";
  std::vector<std::thread> threads;
  std::vector<std::string> errors(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      try {
        for (int round = 0; round < 5; ++round)
          write(out, {{"a.txt", std::to_string(i)}, {"sub/b.txt", std::to_string(i)}});
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(names(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(out / "a.txt"), slurp(out / "sub" / "b.txt"));  // one writer's, whole
}

}  // namespace
}  // namespace gelucheck::output
