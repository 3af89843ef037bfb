// libgelucheck_gelu.so as another language sees it: c_client (plain C) dlopen()s it and calls the
// four C entry points; this harness feeds it inputs and checks every number it prints
//  * bit for bit against the static library called directly (gelucheck::scalar / scalar_deriv:
//    the shared object must be the same code, so this is the wiring), and
//  * for the accurate path, against the MPFR reference: faithful (< 1 ulp). This test is about
//    the shared build, not the accuracy claim: the library's 0.625-ulp bound is tested in
//    tests/library; here a wrong symbol, form or path would be off by far more than 1 ulp.
// and checks that the .so exports the C API and nothing else (nm -D).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "shell.hpp"

namespace gelucheck {
namespace {

namespace fs = std::filesystem;

std::string run(const std::string& cmd, int& code) {
  const testing::ShellOutcome o = testing::shell(cmd);
  code = o.code;
  return o.code == 0 ? o.output : o.output + o.errors;
}

TEST(SharedLibrary, ExportsExactlyTheCApi) {
  int code = -1;
  const std::string out = run(std::string("nm -D --defined-only '") + GELUCHECK_SHARED_LIB + "'", code);
  ASSERT_EQ(code, 0) << out;
  std::set<std::string> names;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) names.insert(l.substr(l.rfind(' ') + 1));
  const std::set<std::string> want = {"gelucheck_map_f64", "gelucheck_map_f32",
                                      "gelucheck_backward_f64", "gelucheck_backward_f32",
                                      "gelucheck_map_f16",      "gelucheck_map_bf16",
                                      "gelucheck_backward_f16", "gelucheck_backward_bf16"};
  EXPECT_EQ(names, want) << out;
}

TEST(SharedLibrary, CProgramThroughDlopenAgreesWithTheLibraryAndTheReference) {
  // dy are powers of two, so dx / dy = the rounded derivative exactly (no under/overflow for
  // these x: |f'(x)| >= ~1e-87 at x = -20), which the reference can then judge.
  const std::vector<double> xs = {-20, -3, -0.75, -0x1p-1074, -0.0, 0.0, 1e-300, 0x1.8p-20, 0.5,
                                  1, 2.5, 7, 40, 1e300, INFINITY, -INFINITY, NAN};
  const double dys[] = {1, -0.5, 4, 0.25};
  const fs::path in = fs::temp_directory_path() /
                      ("gelucheck_shared_in_" + std::to_string(::getpid()));
  {
    std::ofstream f(in);
    for (std::size_t i = 0; i < xs.size(); ++i)
      f << hexfloat(xs[i]) << ' ' << hexfloat(dys[i % 4]) << '\n';
  }
  int code = -1;
  const std::string out = run(std::string("'") + GELUCHECK_C_CLIENT + "' '" +
                                  GELUCHECK_SHARED_LIB + "' <'" + in.string() + "'", code);
  fs::remove(in);
  ASSERT_EQ(code, 0) << "c_client failed (its FAIL lines follow)\n" << out;

  std::map<std::tuple<std::string, int, int, std::size_t>, double> got;
  std::istringstream lines(out);
  for (std::string kind; lines >> kind;) {
    int form, path;
    std::size_t i;
    std::string v;
    lines >> form >> path >> i >> v;
    const auto r = parse_real(v);
    ASSERT_TRUE(r.has_value()) << v;
    got[{kind, form, path, i}] = *r;
  }
  ASSERT_EQ(got.size(), 4 * 4 * xs.size());

  for (Form f : {Form::tanh, Form::erf})
    for (Path path : {Path::accurate, Path::naive})
      for (std::size_t i = 0; i < xs.size(); ++i) {
        const int fi = f == Form::tanh ? 0 : 1, pi = path == Path::accurate ? 0 : 1;
        const double x = xs[i], dy = dys[i % 4];
        const float xf = static_cast<float>(x), dyf = static_cast<float>(dy);
        SCOPED_TRACE(std::string(name(f)) + (pi ? " naive" : " accurate") + " x = " + hexfloat(x));
        const double m64 = got[{"map64", fi, pi, i}], b64 = got[{"bwd64", fi, pi, i}];
        const double m32 = got[{"map32", fi, pi, i}], b32 = got[{"bwd32", fi, pi, i}];
        const double want[] = {scalar(f, x, path), dy * scalar_deriv(f, x, path),
                               static_cast<double>(scalar(f, xf, path)),
                               static_cast<double>(dyf * scalar_deriv(f, xf, path))};
        const double seen[] = {m64, b64, m32, b32};
        for (int k = 0; k < 4; ++k)
          EXPECT_TRUE(same_bits(seen[k], want[k]))
              << "call " << k << ": expected " << hexfloat(want[k]) << " got " << hexfloat(seen[k]);
        if (path != Path::accurate) continue;
        const struct {
          Quantity q;
          double r, x;
          Format fmt;
        } checks[] = {{Quantity::value, m64, x, Format::binary64},
                      {Quantity::derivative, b64 / dy, x, Format::binary64},
                      {Quantity::value, m32, xf, Format::binary32},
                      {Quantity::derivative, b32 / static_cast<double>(dyf), xf, Format::binary32}};
        for (const auto& c : checks) {
          const Error e = measure(c.r, ref::enclose(f, c.q, c.x), c.fmt);
          EXPECT_TRUE(e.faithful() && !e.nan_mismatch && !e.zero_sign_mismatch)
              << name(c.q) << " " << name(c.fmt) << ": got " << hexfloat(c.r)
              << ", reference " << hexfloat(ref::correctly_rounded(f, c.q, c.x, c.fmt))
              << ", " << e.ulp << " ulp";
        }
      }
}

}  // namespace
}  // namespace gelucheck
