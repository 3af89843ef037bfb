// `gelucheck report --out DIR` never destroys what it did not write (docs/cli.md, "The output
// directory"): a directory is replaced only when it is empty or holds a gelucheck output marker
// and nothing but the files that marker lists; everything else is refused with exit 2 and left
// exactly as it was, whatever --out spells (`.`, `x/..`, a symbolic link, the current directory
// or one of its ancestors). Each test snapshots the whole sandbox (every path, kind and content)
// before and after.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/process.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Every path under `root` with its kind and content: what "left exactly as it was" compares.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> m;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string rel = it->path().lexically_relative(root).string();
    if (it->is_symlink()) m[rel] = "symlink -> " + fs::read_symlink(it->path()).string();
    else if (it->is_directory()) m[rel] = "directory";
    else m[rel] = "file: " + slurp(it->path());
  }
  return m;
}

struct Result {
  int code = -1;
  std::string output;  // stdout and stderr, in order
};

class ReportOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gelucheck-report-output-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir = templ;
    box = dir / "box";  // the sandbox the snapshots cover; the log lives beside it
    fs::create_directory(box);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Runs `gelucheck report <fast> --out OUT` in directory `cwd`.
  Result report(const std::string& out, const fs::path& cwd) {
    const fs::path log = dir / "log.txt";
    fs::remove(log);
    const gelucheck::process::Exit e = gelucheck::process::run(
        {{GELUCHECK_EXE, "report", "--no-peers", "--points", "16", "--no-properties", "--no-plots",
          "--quiet", "--out", out},
         cwd.string(),
         {}},
        log.string(), std::chrono::minutes(5));
    return {e.shell_status(), slurp(log)};
  }

  // Runs report with `out` from `cwd` and expects a refusal that changes nothing at all.
  void expect_refused(const std::string& out, const fs::path& cwd, const std::string& words) {
    const auto before = snapshot(box);
    const Result r = report(out, cwd);
    EXPECT_EQ(r.code, 2) << "--out " << out << " from " << cwd << ": " << r.output;
    EXPECT_NE(r.output.find(words), std::string::npos) << "--out " << out << ": " << r.output;
    EXPECT_EQ(snapshot(box), before) << "--out " << out << " from " << cwd << " changed files";
  }

  fs::path dir, box;
};

// The case that lost a user's files: a project folder that happens to hold a report.json.
TEST_F(ReportOutput, AProjectWithAReportJsonIsNotReplaced) {
  const fs::path proj = box / "proj";
  put(proj / "report.json", "{}\n");
  put(proj / "NOTES.md", "x\n");
  put(proj / "src" / "main.c", "int main(){}\n");
  expect_refused("proj", box, "refusing");
  expect_refused(proj.string(), "/", "refusing");
  expect_refused(".", proj, "refusing");
  expect_refused("proj/src/..", box, "refusing");
  expect_refused("proj/", box, "refusing");
  fs::create_directory_symlink("proj", box / "link");
  expect_refused("link", box, "symbolic link");
  expect_refused("link/", box, "refusing");
}

TEST_F(ReportOutput, TheCurrentDirectoryAndItsAncestorsAreRefused) {
  // Even an empty directory or a report of ours: replacing the directory a shell stands in would
  // leave that shell in a deleted directory.
  fs::create_directories(box / "empty" / "deeper");
  expect_refused(".", box / "empty", "current directory");
  expect_refused("..", box / "empty" / "deeper", "current directory");
  expect_refused((box / "empty").string(), box / "empty" / "deeper", "current directory");
  expect_refused("/", box, "current directory");
}

TEST_F(ReportOutput, AnOldStyleReportWithoutTheMarkerIsRefused) {
  // What an older gelucheck wrote: report.json and report.md, no marker. Not provably ours.
  put(box / "old" / "report.json", "{\"schema\": \"gelucheck.report/1\"}\n");
  put(box / "old" / "report.md", "# report\n");
  expect_refused("old", box, ".gelucheck-output");
}

TEST_F(ReportOutput, OurReportIsReplacedButNotWhenSomethingWasAdded) {
  Result r = report("r", box);
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path marker = box / "r" / ".gelucheck-output";
  ASSERT_TRUE(fs::exists(marker));
  const auto j = nlohmann::json::parse(slurp(marker));
  EXPECT_EQ(j["files"], (nlohmann::json{"report-details.md", "report.html", "report.json", "report.md"}));
  EXPECT_EQ(j["written_by"], "gelucheck report");
  // Ours: replaced, nothing left beside it.
  r = report("r", box);
  ASSERT_EQ(r.code, 0) << r.output;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(box)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"r"});
  // A file the user put in, at the top or in a subdirectory: no longer only ours.
  put(box / "r" / "my-notes.txt", "mine\n");
  expect_refused("r", box, "my-notes.txt");
  fs::remove(box / "r" / "my-notes.txt");
  put(box / "r" / "sub" / "mine.txt", "mine\n");
  expect_refused("r", box, "sub");
  fs::remove_all(box / "r" / "sub");
  // A listed name that is now a directory, or a symbolic link, is not the file we wrote.
  fs::remove(box / "r" / "report.md");
  put(box / "r" / "report.md" / "inside", "mine\n");
  expect_refused("r", box, "report.md");
  fs::remove_all(box / "r" / "report.md");
  fs::create_symlink("/etc/hostname", box / "r" / "report.md");
  expect_refused("r", box, "report.md");
  fs::remove(box / "r" / "report.md");
  // A marker that is not ours (unreadable JSON, or a path out of the directory) proves nothing.
  const std::string good = slurp(marker);
  put(marker, "not json");
  expect_refused("r", box, ".gelucheck-output");
  put(marker, R"({"schema": "gelucheck.output/1", "files": ["../elsewhere"]})");
  expect_refused("r", box, ".gelucheck-output");
  // With the marker as written, a report missing some of its files is still ours to replace.
  put(marker, good);
  r = report("r", box);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(box / "r" / "report.md"));
}

TEST_F(ReportOutput, AnEmptyDirectoryOrANewPathIsWritten) {
  fs::create_directory(box / "empty");
  Result r = report("empty", box);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(box / "empty" / "report.json"));
  r = report("new/deeper/r", box);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(box / "new" / "deeper" / "r" / "report.md"));
}

// scripts/publish-report.sh writes the committed records/report/ with `report --out`: the
// committed copy must carry a marker that lets the next publication replace it.
TEST_F(ReportOutput, ThePublishedReportCanBeReplaced) {
  const fs::path latest = fs::path(GELUCHECK_SOURCE_DIR) / "records" / "report";
  fs::copy(latest, box / "latest", fs::copy_options::recursive);
  const Result r = report("latest", box);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(box / "latest" / ".gelucheck-output"));
  EXPECT_FALSE(fs::exists(box / "latest" / "gap.png"));  // --no-plots: the old plots are gone
}

TEST_F(ReportOutput, AFileOrAnEmptyNameIsAUsageError) {
  put(box / "file", "data\n");
  expect_refused("file", box, "not a directory");
  expect_refused("", box, "--out");
}

}  // namespace
