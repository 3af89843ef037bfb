// proptests_bite — the property suite must catch every deliberately broken subject and pass the
// correct ones. For each spec of subject::must_fail_specs() (broken:NAME, each the accurate
// library with one realistic mistake and the library's claims), and for `naive` claiming what
// `accurate` claims (@f64=faithful, @f32=cr), run gelucheck_proptests against it in a child
// process with a small, fixed case count and no shrinking, read GoogleTest's JSON, and require
// exit status 1 and at least one failed property. The controls `accurate` and `reference` run
// the same way and must exit 0 with no failure. The tests that check only the reference
// (reference_*) do not depend on the subject and are filtered out of these
// runs. The table "subject -> properties that caught it" is printed and recorded in the JSON
// output (property caught_by_<subject>).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "gelucheck/process.hpp"
#include "gelucheck/subject.hpp"

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

struct BiteRun {
  std::string label;                // for the table
  std::vector<std::string> args;    // --subject SPEC [--claim ITEM]...
  bool must_fail;
};

std::vector<BiteRun> runs() {
  std::vector<BiteRun> v;
  // Without the library under test (subject::library_built() false) the broken variants wrap the
  // reference, and there is no accurate or naive.
  if (gelucheck::subject::library_built()) v.push_back({"accurate", {"--subject", "accurate"}, false});
  v.push_back({"reference", {"--subject", "reference"}, false});
  for (const std::string& spec : gelucheck::subject::must_fail_specs())
    v.push_back({spec, {"--subject", spec}, true});
  if (gelucheck::subject::library_built())
    v.push_back({"naive (claiming accurate's claims)",
                 {"--subject", "naive", "--claim", "@f64=faithful", "--claim", "@f32=cr"}, true});
  return v;
}

struct Outcome {
  std::string why;  // how the child ended
  int status = -1;  // exit status, or -1
  std::vector<std::string> failed;
  int ran = 0;
  std::string log;
};

// Time limit of one run. A run takes about half a second here (25 cases per property, no
// shrinking); ten minutes leave room for a sanitizer build, and a subject that hangs the suite
// shows up as this run's "timed out" instead of the whole test's CTest timeout.
constexpr std::chrono::minutes kRunLimit{10};

Outcome run(const BiteRun& r, const std::filesystem::path& dir, int k) {
  const auto json = dir / ("run" + std::to_string(k) + ".json");
  const auto log = dir / ("run" + std::to_string(k) + ".log");
  gelucheck::process::Spec spec{{exe()}, "", {"RC_PARAMS=" + bite_params()}};
  spec.argv.insert(spec.argv.end(), r.args.begin(), r.args.end());
  spec.argv.push_back("--gtest_filter=-*.reference_*");
  spec.argv.push_back("--gtest_output=json:" + json.string());
  const gelucheck::process::Exit e = gelucheck::process::run(spec, log.string(), kRunLimit);
  Outcome o;
  o.status = e.kind == gelucheck::process::Exit::Kind::exited ? e.code : -1;
  o.why = e.why;
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
  return o;
}

TEST(mutation_suite_bites, every_variant_caught_correct_ones_pass) {
  ::testing::Test::RecordProperty("lean", "none");
  namespace fs = std::filesystem;
  std::string dir_template = (fs::temp_directory_path() / "gelucheck-bite-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir_template.data()), nullptr) << "cannot make a scratch directory";
  const fs::path dir = dir_template;
  std::cout << "subject | expected | exit | properties run | caught by\n";
  int k = 0;
  for (const BiteRun& r : runs()) {
    const Outcome o = run(r, dir, k++);
    std::string caught;
    for (const auto& f : o.failed) caught += (caught.empty() ? "" : ", ") + f;
    std::cout << r.label << " | " << (r.must_fail ? "fail" : "pass") << " | " << o.why << " | "
              << o.ran << " | " << (caught.empty() ? "-" : caught) << std::endl;
    ::testing::Test::RecordProperty("caught_by_" + r.label, caught.empty() ? "-" : caught);
    EXPECT_GT(o.ran, 0) << r.label << ": no property ran; log:\n" << o.log.substr(0, 4000);
    if (r.must_fail) {
      EXPECT_EQ(o.status, 1) << r.label << " (broken on purpose): expected exit 1 (properties "
                             << "failed), got " << o.why << "; log:\n" << o.log.substr(0, 4000);
      EXPECT_FALSE(o.failed.empty()) << r.label << " was not caught by any property";
    } else {
      EXPECT_EQ(o.status, 0) << r.label << " must pass; log:\n" << o.log.substr(0, 8000);
      EXPECT_TRUE(o.failed.empty()) << r.label << " failed: " << caught;
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
