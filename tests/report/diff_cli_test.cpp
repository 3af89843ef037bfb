// `gelucheck diff` from the outside: two subjects over the same inputs, every disagreement found
// and the right side named. The expected counts come from an independent loop over the same
// inputs through Subject::call (no harness, no diff code) and the verdicts from the MPFR
// reference (ref::correctly_rounded).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/reference.hpp"
#include "gelucheck/subject.hpp"
#include "report_files.hpp"
#include "scratch_dir.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gelucheck;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The forward of `spec` at xs, one call, straight through the subject (the independent side).
std::vector<double> forward(const std::string& spec, Form form, Format fmt,
                            const std::vector<double>& xs) {
  auto s = subject::open(spec);
  const std::vector<unsigned char> x = subject::encode(fmt, xs);
  std::vector<unsigned char> y(x.size());
  const subject::Status st =
      s->call({{form, subject::Direction::forward, fmt}, x.data(), nullptr, y.data(), xs.size(), 1});
  EXPECT_TRUE(st.ok()) << spec << ": " << st.message;
  return subject::decode(fmt, y.data(), xs.size());
}

std::size_t differing(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += !same_bits(a[i], b[i]);
  return n;
}

const nlohmann::json* op_of(const nlohmann::json& comparison, const std::string& op) {
  for (const auto& o : comparison["ops"])
    if (o["op"] == op) return &o;
  return nullptr;
}

class DiffCli : public ::testing::Test {
 protected:
  // `gelucheck diff ARGS --out DIR/out`, its report.json (checked against the schema).
  nlohmann::json diff(const std::string& args, int want_code) {
    const auto r = gelucheck::testing::shell("'" GELUCHECK_EXE "' diff " + args + " --quiet --out '" +
                                  (dir / "out").string() + "'");
    EXPECT_EQ(r.code, want_code) << r.output << r.errors;
    EXPECT_EQ(gelucheck::testing::report_file_problems({(dir / "out").string()}), "");
    return nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  }
  gelucheck::testing::ScratchDir scratch{"diff-cli"};
  const fs::path dir{scratch.path()};
};

TEST_F(DiffCli, ASubjectAgreesWithItself) {
  const auto j = diff("accurate accurate --gate --points 400", 0);
  ASSERT_EQ(j["comparisons"].size(), 1u);
  EXPECT_TRUE(j["identical"].get<bool>());
  for (const auto& o : j["comparisons"][0]["ops"]) {
    EXPECT_TRUE(o["compared"].get<bool>()) << o["op"];
    EXPECT_EQ(o["disagreements"], 0) << o["op"];
    EXPECT_GT(o["both_answered"].get<std::size_t>(), 400u) << o["op"];
  }
  EXPECT_NE(slurp(dir / "out" / "report.md").find("**identical** in 16 op(s)"), std::string::npos);
}

// bfloat16 is compared at every value: the count of disagreements is the independent loop's, each
// listed one is judged by the reference, and the JUnit XML fails those ops.
TEST_F(DiffCli, EveryDisagreementIsFoundAndTheRightSideNamed) {
  const std::string junit = (dir / "diff.xml").string();
  const auto j = diff("accurate broken:missing-half --formats bf16 --functions tanh.value,erf.value"
                      " --gate --junit '" + junit + "'",
                      4);
  std::vector<double> xs;  // every bfloat16 value but the NaNs, and one NaN: the campaign's set
  for (std::uint64_t b = 0; b < 0x10000; ++b)
    if (const double x = from_bits(b, Format::bfloat16); !std::isnan(x)) xs.push_back(x);
  xs.push_back(NAN);
  const auto& c = j["comparisons"][0];
  for (const Form form : {Form::tanh, Form::erf}) {
    const std::string op = std::string(name(form)) + ".forward.bf16";
    const nlohmann::json* o = op_of(c, op);
    ASSERT_NE(o, nullptr) << op;
    const auto a = forward("accurate", form, Format::bfloat16, xs);
    const auto b = forward("broken:missing-half", form, Format::bfloat16, xs);
    const std::size_t want = differing(a, b);
    // f(x)/2 differs from f(x) unless f(x) is 0, inf or NaN: all but the underflowed negative tail
    ASSERT_GT(want, 40000u) << op;
    EXPECT_EQ((*o)["disagreements"].get<std::size_t>(), want) << op;
    EXPECT_EQ((*o)["both_answered"].get<std::size_t>(), xs.size()) << op;
    EXPECT_EQ((*o)["regions"]["overall"].get<std::size_t>(), want) << op;
    ASSERT_FALSE((*o)["first"].empty());
    for (const auto& g : (*o)["first"]) {
      const double x = std::strtod(g["x"].get<std::string>().c_str(), nullptr);
      const double cr = ref::correctly_rounded(form, Quantity::value, x, Format::bfloat16);
      EXPECT_EQ(g["expected"], hexfloat(cr));
      EXPECT_EQ(g["a_verdict"], "correctly rounded") << op << " at " << g["x"];
      EXPECT_EQ(g["a"], hexfloat(cr)) << op << " at " << g["x"];
      // B's verdict from the reference's three roundings: faithful is either neighbour of f(x).
      const ref::Enclosure e = ref::enclose(form, Quantity::value, x);
      const double got = std::strtod(g["b"].get<std::string>().c_str(), nullptr);
      const char* verdict = same_bits(got, cr) ? "correctly rounded"
                            : same_bits(got, e.rounded_down(Format::bfloat16)) ||
                                    same_bits(got, e.rounded_up(Format::bfloat16))
                                ? "faithful"
                                : "neither";
      EXPECT_EQ(g["b_verdict"], verdict) << op << " at " << g["x"] << ": B = " << g["b"];
    }
    EXPECT_EQ((*o)["a"]["correctly_rounded"].get<std::size_t>(), want) << op;
    EXPECT_EQ((*o)["better"]["a"].get<std::size_t>(), want) << op;
  }
  const std::string xml = slurp(junit);
  EXPECT_NE(xml.find("name=\"tanh.forward.bf16\"><failure"), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"erf.forward.bf16\"><failure"), std::string::npos) << xml;
}

// --exhaustive over a range of binary32 bit patterns: the library's two paths, which differ at
// a few inputs only; the count and every input listed are the independent loop's.
TEST_F(DiffCli, ExhaustiveOverARangeFindsEveryDisagreement) {
  const std::uint64_t lo = 0xc0a00000, hi = 0xc0a04000;  // x from -5 down, 16384 patterns
  const auto j = diff("accurate naive --exhaustive --range 0xc0a00000:0xc0a04000 --formats f32"
                      " --functions erf.value",
                      0);
  std::vector<double> xs;
  for (std::uint64_t p = lo; p < hi; ++p) xs.push_back(from_bits(p, Format::binary32));
  const auto a = forward("accurate", Form::erf, Format::binary32, xs);
  const auto b = forward("naive", Form::erf, Format::binary32, xs);
  std::vector<double> want;
  std::size_t runs = 0, longest = 0, run = 0;  // maximal runs of consecutive patterns that differ
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (same_bits(a[i], b[i])) {
      run = 0;
      continue;
    }
    want.push_back(xs[i]);
    if (run++ == 0) ++runs;
    longest = std::max(longest, run);
  }
  ASSERT_GT(want.size(), 0u);
  const nlohmann::json* o = op_of(j["comparisons"][0], "erf.forward.f32");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ((*o)["inputs"].get<std::size_t>(), xs.size());
  EXPECT_EQ((*o)["disagreements"].get<std::size_t>(), want.size());
  for (std::size_t k = 0; k < (*o)["first"].size(); ++k)
    EXPECT_EQ((*o)["first"][k]["x"], hexfloat(want[k])) << k;
  EXPECT_EQ((*o)["runs"]["count"].get<std::size_t>(), runs);
  EXPECT_EQ((*o)["runs"]["longest"]["count"].get<std::size_t>(), longest);
  EXPECT_EQ(j["inputs"]["range"], "0xc0a00000:0xc0a04000");
}

TEST_F(DiffCli, UsageErrors) {
  for (const char* args : {"accurate", "accurate naive extra", "accurate --variants",
                           "accurate no-such-subject", "accurate naive --range 0:16",
                           "accurate naive --exhaustive --formats bf16", "torch:bogus accurate"}) {
    const auto r = gelucheck::testing::shell("'" GELUCHECK_EXE "' diff " + std::string(args) +
                                  " --quiet --out '" + (dir / "u").string() + "'");
    EXPECT_EQ(r.code, 2) << args << ": " << r.errors;
    EXPECT_NE(r.errors.find("gelucheck diff"), std::string::npos) << args << ": " << r.errors;
    EXPECT_FALSE(fs::exists(dir / "u")) << args;
  }
}

// A peer's variants: one comparison each, with the default on the A side. oneDNN's are fast.
TEST_F(DiffCli, APeersVariantsAreEachComparedWithItsDefault) {
  const auto probe = gelucheck::testing::shell("'" GELUCHECK_EXE "' diff onednn onednn --formats f32 "
                                    "--functions tanh.value --points 16 --quiet --out '" +
                                    (dir / "probe").string() + "'");
  if (probe.code != 0) GTEST_SKIP() << "the oneDNN peer is not available: " << probe.errors;
  const auto j = diff("onednn --variants --formats f32 --functions tanh.value,erf.value --points 400", 0);
  ASSERT_GE(j["comparisons"].size(), 1u);
  for (const auto& c : j["comparisons"]) {
    EXPECT_EQ(c["a"]["spec"], "onednn");
    EXPECT_EQ(c["b"]["spec"].get<std::string>().rfind("onednn:", 0), 0u) << c["b"]["spec"];
    EXPECT_NE(c["b"]["description"].get<std::string>().find("oneDNN"), std::string::npos);
  }
}

}  // namespace
