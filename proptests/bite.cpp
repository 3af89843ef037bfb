// mutation_suite_bites — issue 4, point 8: the property suite must catch every deliberately broken
// variant and pass the real implementation. For each subject that gelucheck_proptests registers
// (`--list-subjects`), run the suite against it in a child process with a small, fixed case count
// and no shrinking, read GoogleTest's JSON, and require: "fail" subjects — exit status 1 and at
// least one failed property; "pass" subjects — exit status 0 and none. The tests that check only
// the reference (names reference_*, and the course grid) do not depend on the subject and are
// filtered out of these runs. The table "variant -> properties that caught it" is printed and
// recorded in the JSON output (property caught_by).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifndef GELUCHECK_PROPTESTS_EXE
#error "GELUCHECK_PROPTESTS_EXE must name the gelucheck_proptests executable"
#endif

namespace {

std::string exe() {
  const char* e = std::getenv("GELUCHECK_PROPTESTS_EXE");
  return e && *e ? e : GELUCHECK_PROPTESTS_EXE;
}
std::string bite_params() {
  const char* e = std::getenv("GELUCHECK_BITE_RC_PARAMS");
  return e && *e ? e : "seed=20240607 max_success=25 noshrink=1";
}

std::string capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  return out;
}

struct Subject {
  std::string name;
  bool must_fail;
};
std::vector<Subject> subjects() {
  std::vector<Subject> v;
  std::istringstream in(capture("'" + exe() + "' --list-subjects"));
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    v.push_back({line.substr(0, tab), line.substr(tab + 1) == "fail"});
  }
  return v;
}

struct Outcome {
  int status = -1;       // exit status, or -1 when killed by a signal
  std::vector<std::string> failed;
  int ran = 0;
  std::string log;
};

Outcome run(const Subject& s) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gelucheck_bite_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto json = dir / (s.name + ".json");
  const auto log = dir / (s.name + ".log");
  std::filesystem::remove(json);
  const std::string cmd = "GELUCHECK_IMPL='" + s.name + "' RC_PARAMS='" + bite_params() + "' '" +
                          exe() + "' '--gtest_filter=-*.reference_*:*.course_atol_*'" +
                          " --gtest_output=json:'" + json.string() + "' > '" + log.string() +
                          "' 2>&1";
  const int rc = std::system(cmd.c_str());
  Outcome o;
  o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream lf(log);
  o.log.assign(std::istreambuf_iterator<char>(lf), {});
  std::ifstream jf(json);
  if (jf) {
    const auto j = nlohmann::json::parse(jf, nullptr, /*allow_exceptions=*/false);
    if (j.is_object())
      for (const auto& suite : j.value("testsuites", nlohmann::json::array()))
        for (const auto& t : suite.value("testsuite", nlohmann::json::array())) {
          if (t.value("result", "") == "SKIPPED") continue;
          ++o.ran;
          if (t.contains("failures"))
            o.failed.push_back(suite.value("name", "?") + "." + t.value("name", "?"));
        }
  }
  std::filesystem::remove_all(dir);
  return o;
}

TEST(mutation_suite_bites, every_variant_caught_real_one_passes) {
  ::testing::Test::RecordProperty("lean", "none");
  const auto list = subjects();
  ASSERT_FALSE(list.empty()) << "no subjects listed by " << exe() << " --list-subjects";
  std::cout << "variant | expected | exit | properties run | caught by\n";
  for (const auto& s : list) {
    const Outcome o = run(s);
    std::string caught;
    for (const auto& f : o.failed) caught += (caught.empty() ? "" : ", ") + f;
    std::cout << s.name << " | " << (s.must_fail ? "fail" : "pass") << " | " << o.status << " | "
              << o.ran << " | " << (caught.empty() ? "-" : caught) << std::endl;
    ::testing::Test::RecordProperty("caught_by_" + s.name, caught.empty() ? "-" : caught);
    EXPECT_GT(o.ran, 0) << s.name << ": no property ran; log:\n" << o.log;
    if (s.must_fail) {
      EXPECT_EQ(o.status, 1) << s.name << " (broken on purpose): expected exit 1 (properties "
                             << "failed), got " << o.status << "; log:\n" << o.log.substr(0, 4000);
      EXPECT_FALSE(o.failed.empty()) << s.name << " was not caught by any property";
    } else {
      EXPECT_EQ(o.status, 0) << s.name << " must pass; log:\n" << o.log.substr(0, 8000);
      EXPECT_TRUE(o.failed.empty()) << s.name << " failed: " << caught;
    }
  }
}

}  // namespace
