// A stand-in for gelucheck_proptests with a known outcome, for the report's own tests: it speaks
// the same protocol (GoogleTest, the "lean" property, RapidCheck's messages). With
// FAKE_PROPTESTS_FAIL=1 in the environment one check fails with a RapidCheck-style counterexample.
// With FAKE_PROPTESTS_HANG=FILE it starts a grandchild, writes "<its pid> <the grandchild's pid>"
// to FILE and hangs (the signal tests stop gelucheck while its property suite runs).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

namespace {
// Before GoogleTest starts (a static initialiser), so that the tests listed stay the three below.
[[maybe_unused]] const bool hang_when_asked = [] {
  const char* file = std::getenv("FAKE_PROPTESTS_HANG");
  if (!file) return false;
  const pid_t child = fork();
  if (child == 0) {
    for (;;) pause();
  }
  {
    std::ofstream tmp(std::string(file) + ".tmp");
    tmp << getpid() << " " << child << "\n";
  }
  std::rename((std::string(file) + ".tmp").c_str(), file);  // whole, or not at all
  for (;;) pause();
}();
}  // namespace

TEST(hasVJP_correct, BackwardIsJacobianContraction) {
  RecordProperty("lean", "Proofs.GeluForm.hasVJP_correct");
  std::cout << "Using configuration: seed=1\n\n- BackwardIsJacobianContraction\nOK, passed 100 tests\n";
}

TEST(pdiv_map, OffDiagonalIsZero) {
  RecordProperty("lean", "Proofs.GeluForm.pdiv_map");
  const char* fail = std::getenv("FAKE_PROPTESTS_FAIL");
  if (fail && std::string(fail) == "1")
    // With a character beyond ASCII, as the real suite's messages have ("dy·f'(x)"): the report
    // must carry it through GoogleTest's JSON unchanged.
    FAIL() << "Falsifiable after 7 tests and 2 shrinks\n\nstd::tuple<double>:\n(0x1p-1074)\n"
              "exact dy·f'(x) ~ 0x1p-1074\n";
}

TEST(tanh_erf_gap, NoTheorem) {
  RecordProperty("lean", "none");
  RecordProperty("cases", 6);
}
