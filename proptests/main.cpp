// gelucheck_proptests — the property suite's entry point.
//
//   gelucheck_proptests [gtest flags]      run every property against the subject
//   gelucheck_proptests --list-subjects    print the registered implementations, one a line:
//                                          "<name>\t<expect: pass|fail>"
// Environment: GELUCHECK_IMPL=<name> chooses the subject (default accurate); RC_PARAMS is
// RapidCheck's (seed=, max_success=, reproduce=, noshrink=1, ...). When RC_PARAMS names no seed,
// the fixed default seed below is added, so that every run is reproducible unless asked not to be.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/proptests/subject.hpp"

namespace {
constexpr const char* kDefaultSeed = "20240607";
}

int main(int argc, char** argv) {
  // A signal ends the suite by that signal (cleanup.hpp), whatever RapidCheck was doing.
  gelucheck::cleanup::install();
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--list-subjects") == 0) {
      for (const auto& r : gelucheck::prop::registered())
        std::cout << r.name << '\t' << (r.must_fail ? "fail" : "pass") << '\n';
      return 0;
    }
  // RapidCheck reads RC_PARAMS on first use, after this point.
  const char* rc = std::getenv("RC_PARAMS");
  std::string params = rc ? rc : "";
  if (params.find("seed=") == std::string::npos) {
    params = "seed=" + std::string(kDefaultSeed) + (params.empty() ? "" : " " + params);
    setenv("RC_PARAMS", params.c_str(), 1);
  }
  try {
    const auto& s = gelucheck::prop::subject();
    std::cout << "gelucheck_proptests: subject " << s.name() << ", RC_PARAMS=\"" << params
              << "\"\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "gelucheck_proptests: " << e.what() << '\n';
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
