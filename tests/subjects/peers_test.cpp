// The shipped adapters as subjects, against the MPFR reference: the Python example through cmd:
// (adapters/python/examples/my_gelu.py), PyTorch through cmd: (adapters/python/torch_subject.py,
// each layout), oneDNN through lib: (libgelucheck_onednn.so), ONNX Runtime and ggml by their peer
// specs (onnxruntime[:contrib,threads=N], ggml:VARIANT,threads=N). Skipped, with the reason, when
// the interpreter, numpy, torch, oneDNN, Node.js or an npm package is missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "gelucheck/harness.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/process.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/subject.hpp"
#include "peers.hpp"
#include "process_subject.hpp"

namespace gelucheck::subject {
namespace {

bool python_has(const std::string& module) {
  process::Spec s;
  s.argv = {GELUCHECK_PYTHON, "-c", "import " + module};
  return process::run(s, "", std::chrono::milliseconds(60000)).ok();
}

OpenOptions opts() {
  OpenOptions o;
  o.call_timeout_seconds = 60;
  o.handshake_timeout_seconds = 120;  // importing torch on a loaded machine
  return o;
}

// Evaluates op at xs (dy = 1 for a backward, so the result is the derivative) and returns, per
// point, the error in ulps of the op's format against the reference (gelucheck/measure.hpp).
std::vector<double> ulps(Subject& s, const Op& op, const std::vector<double>& xs) {
  const std::size_t n = xs.size(), es = element_size(op.format);
  std::vector<unsigned char> x(n * es), dy(n * es), out(n * es);
  for (std::size_t i = 0; i < n; ++i) {
    store(op.format, xs[i], x.data(), i);
    store(op.format, 1.0, dy.data(), i);
  }
  const bool bwd = op.direction == Direction::backward;
  const Status st = s.call({op, x.data(), bwd ? dy.data() : nullptr, out.data(), n, 1});
  EXPECT_TRUE(st.ok()) << op_name(op) << ": " << kind_name(st.kind) << ": " << st.message;
  std::vector<double> err(n, INFINITY);
  if (!st.ok()) return err;
  const Quantity q = bwd ? Quantity::derivative : Quantity::value;
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = load(op.format, x.data(), i), got = load(op.format, out.data(), i);
    err[i] = measure(got, ref::enclose(op.form, q, xi), op.format).ulp;
  }
  return err;
}

// Expects every point of `xs` within `bound` ulps; the failure names input and error.
void expect_within(Subject& s, const Op& op, const std::vector<double>& xs, double bound) {
  const auto e = ulps(s, op, xs);
  for (std::size_t i = 0; i < xs.size(); ++i)
    EXPECT_LE(e[i], bound) << op_name(op) << " at x = " << hexfloat(xs[i]) << ": " << e[i] << " ulp";
}

// Expects each spec to be refused as a usage error (an unknown word, a bad thread count, ...).
void expect_usage_errors(std::initializer_list<const char*> specs) {
  for (const char* bad : specs) {
    try {
      (void)open(bad, opts());
      ADD_FAILURE() << bad << " opened";
    } catch (const SpecError& e) {
      EXPECT_EQ(e.kind, SpecError::Kind::usage) << bad << ": " << e.what();
    }
  }
}

// ---------------------------------------------------------------------------------------------

TEST(PythonExample, ThroughCmd) {
  if (!python_has("numpy")) GTEST_SKIP() << GELUCHECK_PYTHON << " cannot import numpy";
  auto s = open_cmd(std::string(GELUCHECK_PYTHON) + " '" + ADAPTERS_DIR + "/python/examples/my_gelu.py'", opts());
  EXPECT_NE(s->describe().find("my_gelu.py"), std::string::npos) << s->describe();
  const Op fwd{Form::tanh, Direction::forward, Format::binary64};
  const Op bwd{Form::tanh, Direction::backward, Format::binary64};
  EXPECT_TRUE(s->capabilities().provides(fwd));
  EXPECT_TRUE(s->capabilities().provides(bwd));
  // Its docstring's analysis: x·σ(2u) has no cancellation; e^(-2u) multiplies the rounding error
  // of u (a few ulps) by up to 2|u|, and 2|u| < 746 wherever the value does not underflow, so
  // the error stays below a few thousand ulps; on [-3, 3] 2|u| <= 11, so below ~50 ulps.
  expect_within(*s, fwd, {-3, -1, -0.5, -1e-3, 0, 1e-300, 0.5, 1, 3, 10}, 50);
  expect_within(*s, fwd, {-8.37, -15, -19}, 5000);
  // The specials exactly: the limits at ±inf (0 from below at -inf), NaN.
  expect_within(*s, fwd, {-INFINITY, INFINITY, NAN, -0.0}, 0);
  // The derivative away from its zero near x = -0.75 (where any relative measure blows up).
  expect_within(*s, bwd, {-3, -2, 0, 0.5, 1, 3, 10}, 50);
  expect_within(*s, bwd, {-INFINITY, INFINITY, NAN}, 0);
  // Not provided: binary32.
  float x = 1, y;
  EXPECT_EQ(s->call({{Form::tanh, Direction::forward, Format::binary32}, &x, nullptr, &y, 1, 1}).kind,
            Status::Kind::unavailable);
}

TEST(PythonServe, AWriteIntoXComesWithItsResults) {
  if (!python_has("numpy")) GTEST_SKIP() << GELUCHECK_PYTHON << " cannot import numpy";
  auto s = open_cmd(std::string(GELUCHECK_PYTHON) + " '" + WRITES_INPUT_PY + "' '" + ADAPTERS_DIR +
                        "/python'",
                    opts());
  HarnessOptions o;
  o.batch = 2;
  const std::vector<double> xs = {0.5, -1.5, 3, 7};
  const Evaluation ev = forward(*s, Form::tanh, Format::binary64, xs, o);
  ASSERT_EQ(ev.findings.size(), 1u) << describe(ev.findings[1]);  // two writing calls, one finding
  EXPECT_EQ(ev.findings[0].status.kind, Status::Kind::wrote_input);
  EXPECT_EQ(ev.findings[0].x, 0.5);
  EXPECT_EQ(ev.findings[0].alone, Finding::Alone::reproduces);
  EXPECT_EQ(ev.failed_count, 0u);
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(ev.y[i], 2 * xs[i]) << i;  // not NaN
}

// ---------------------------------------------------------------------------------------------

class TorchLayout : public testing::TestWithParam<const char*> {};

TEST_P(TorchLayout, AnswersNearTheReference) {
  if (!python_has("torch")) GTEST_SKIP() << GELUCHECK_PYTHON << " cannot import torch";
  const std::string layout = GetParam();
  auto s = open_cmd(std::string(GELUCHECK_PYTHON) + " '" + ADAPTERS_DIR +
                        "/python/torch_subject.py' --layout " + layout + " --threads 1",
                    opts());
  const std::string name = s->describe();
  EXPECT_NE(name.find("torch "), std::string::npos) << name;
  EXPECT_NE(name.find("layout " + layout), std::string::npos) << name;
  EXPECT_NE(name.find("threads 1"), std::string::npos) << name;
  const Capabilities c = s->capabilities();
  EXPECT_EQ(c.strided, layout != "element");
  for (Format f : {Format::binary64, Format::binary32, Format::bfloat16})
    for (Form form : {Form::tanh, Form::erf})
      for (Direction d : {Direction::forward, Direction::backward})
        EXPECT_TRUE(c.provides({form, d, f})) << op_name({form, d, f});
  // float16: when torch has no CPU kernel, not provided, and the name says why.
  if (!c.provides({Form::erf, Direction::forward, Format::binary16})) {
    EXPECT_NE(name.find("f16 not provided"), std::string::npos) << name;
  }

  // This checks the adapter, not PyTorch: at points where PyTorch's formulas suffer no
  // cancellation, x >= -1 (1 + erf(x/√2) >= 0.31, 1 + tanh(u) >= 0.32), F.gelu is a handful of
  // roundings in the format (binary64, binary32): 8 ulps. Its bfloat16 forward is evaluated in
  // binary32 and rounded once: 0.5 ulp for that rounding plus binary32's error (2^-16 of a
  // bfloat16 ulp), so 1 ulp. Its bfloat16 tanh backward is less accurate (3.9 ulps at x = -1
  // with torch 1.13, measured; the check's campaign reports such things): 8 ulps, wide enough
  // for that and tight enough that a swapped form or a garbled bit pattern (tens of ulps and
  // more at these points) fails.
  const std::vector<double> xs = {-1, -0.5, -0x1p-10, 0, 0x1p-10, 0.5, 1, 2, 3, 6};
  for (Form form : {Form::tanh, Form::erf}) {
    for (Direction d : {Direction::forward, Direction::backward}) {
      expect_within(*s, {form, d, Format::binary64}, xs, 8);
      expect_within(*s, {form, d, Format::binary32}, xs, 8);
    }
    expect_within(*s, {form, Direction::forward, Format::bfloat16}, xs, 1);
    expect_within(*s, {form, Direction::backward, Format::bfloat16}, xs, 8);
  }
  // gelu(0) = 0 and gelu(1) = Φ(1) = 0.8413447460685429... (erf form), in every layout.
  double x[2] = {0, 1}, y[2];
  ASSERT_TRUE(s->call({{Form::erf, Direction::forward, Format::binary64}, x, nullptr, y, 2, 1}).ok());
  EXPECT_EQ(y[0], 0.0);
  EXPECT_NEAR(y[1], 0.8413447460685429, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TorchLayout, testing::Values("batch", "element", "strided"));

// ---------------------------------------------------------------------------------------------

TEST(OneDnn, ThroughLib) {
#ifndef ONEDNN_LIB
  GTEST_SKIP() << "oneDNN was not found at configure time: the adapter is not built";
#else
  auto s = open_lib(ONEDNN_LIB, opts());
  EXPECT_NE(s->describe().find("oneDNN"), std::string::npos) << s->describe();
  const std::vector<double> xs = {-3, -1, -0.5, 0, 0.5, 1, 3};
  for (Form form : {Form::tanh, Form::erf})
    for (Direction d : {Direction::forward, Direction::backward}) {
      const bool bwd = d == Direction::backward;
      const Op op32{form, d, Format::binary32}, op16{form, d, Format::bfloat16};
      ASSERT_TRUE(s->capabilities().provides(op32)) << s->describe();
      ASSERT_TRUE(s->capabilities().provides(op16)) << s->describe();
      // binary32: within 1e-5 of the reference (absolute, and relative where |f| > 1).
      const std::size_t n = xs.size();
      std::vector<float> x(xs.begin(), xs.end()), dy(n, 1.0f), out(n);
      const Status st = s->call({op32, x.data(), bwd ? dy.data() : nullptr, out.data(), n, 1});
      ASSERT_TRUE(st.ok()) << op_name(op32) << ": " << st.message;
      for (std::size_t i = 0; i < n; ++i) {
        const double want = ref::correctly_rounded(
            form, bwd ? Quantity::derivative : Quantity::value, xs[i], Format::binary64);
        const double got = static_cast<double>(out[i]);
        EXPECT_LE(std::fabs(got - want), 1e-5 * std::max(1.0, std::fabs(want)))
            << op_name(op32) << " at x = " << hexfloat(xs[i]) << ": expected " << hexfloat(want)
            << " got " << hexfloat(got);
      }
      // bfloat16: oneDNN converts to binary32, evaluates and rounds once; within 1e-5 of the
      // value before the rounding, so within 1 ulp of bfloat16 (2^-8 relative or more) after.
      expect_within(*s, op16, xs, 1);
    }
#endif
}


// ---------------------------------------------------------------------------------------------

// The ggml peer's wiring: the right ggml op on each form, the variant and thread count asked for,
// what it does not provide, and its spec's errors. Not ggml's accuracy: the check measures that.
TEST(Ggml, ThroughItsPeerSpec) {
#ifndef GGML_LIB
  GTEST_SKIP() << "@node-llama-cpp/linux-x64 was not installed (scripts/setup.sh) when gelucheck "
                  "was configured: the ggml adapter is not built";
#else
  auto s = open("ggml", opts());
  const std::string d = s->describe();
  EXPECT_EQ(d.rfind("ggml 0.", 0), 0u) << d;  // the version ggml_version() gives
  EXPECT_NE(d.find(" (commit "), std::string::npos) << d;
  EXPECT_NE(d.find(", threads 1;"), std::string::npos) << d;
  const std::size_t at = d.find("CPU variant ");
  ASSERT_NE(at, std::string::npos) << d;
  const std::string best = d.substr(at + 12, d.find(',', at) - at - 12);
  EXPECT_NE(d.find("this CPU runs the variants "), std::string::npos) << d;
  const Capabilities c = s->capabilities();
  for (Form form : {Form::tanh, Form::erf}) {
    for (Format f : {Format::binary32, Format::binary16})
      EXPECT_TRUE(c.provides({form, Direction::forward, f})) << op_name({form, Direction::forward, f});
    EXPECT_FALSE(c.provides({form, Direction::forward, Format::binary64}));
    for (Format f : all_formats) EXPECT_FALSE(c.provides({form, Direction::backward, f}));
  }
  // bfloat16 is provided exactly when ggml's CPU backend computes it; when not, the name says so.
  if (!c.provides({Form::tanh, Direction::forward, Format::bfloat16})) {
    EXPECT_NE(d.find("not provided: bf16"), std::string::npos) << d;
  }

  // The points are binary16 numbers, so that ggml's binary16 table (its binary32 tanh form looks
  // gelu up in a table indexed by x rounded to binary16) adds only the table's rounding, 2^-11
  // relative: within 2^-10, 8192 ulps of binary32. Its erf form is binary32 arithmetic (erff):
  // 16 ulps. Each binary16 op is a binary32 evaluation rounded once: 1 ulp. The forms differ by
  // 11% at x = -3 (and 0.1% at -1), which is millions of binary32 ulps: a swapped op fails.
  const std::vector<double> xs = {-3, -1, -0.5, 0, 0.5, 1, 3};
  expect_within(*s, {Form::tanh, Direction::forward, Format::binary32}, xs, 8192);
  expect_within(*s, {Form::erf, Direction::forward, Format::binary32}, xs, 16);
  for (Form form : {Form::tanh, Form::erf})
    expect_within(*s, {form, Direction::forward, Format::binary16}, xs, 1);

  // A variant and a thread count as asked (x64, the baseline build, runs on every x86-64 CPU).
  const std::string d2 = open("ggml:x64,threads=2", opts())->describe();
  EXPECT_NE(d2.find("CPU variant x64, threads 2;"), std::string::npos) << d2;
  // The variants: every other build this CPU runs, and two threads; never the default itself.
  const std::vector<std::string> v = variant_specs("ggml");
  EXPECT_NE(std::find(v.begin(), v.end(), "ggml:threads=2"), v.end());
  EXPECT_EQ(std::find(v.begin(), v.end(), "ggml:" + best), v.end()) << best;
  if (best != "x64") {
    EXPECT_NE(std::find(v.begin(), v.end(), "ggml:x64"), v.end());
  }

  // Spec errors: an unknown variant, two variants, a build this CPU cannot run (when there is one).
  expect_usage_errors({"ggml:pentium", "ggml:x64,sse42", "ggml:threads=0"});
  for (const char* name : {"sapphirerapids", "alderlake", "zen4", "x64"}) {
    if (d.find(" " + std::string(name), d.find("this CPU runs the variants")) != std::string::npos)
      continue;
    try {
      (void)open(std::string("ggml:") + name, opts());
      ADD_FAILURE() << name << " opened, though not among the variants this CPU runs";
    } catch (const SpecError& e) {
      EXPECT_EQ(e.kind, SpecError::Kind::unavailable) << e.what();
      EXPECT_EQ(std::string(e.what()), std::string("ggml:") + name + ": this CPU cannot run the " +
                                           name + " build of ggml");
    }
    break;
  }
#endif
}

// ---------------------------------------------------------------------------------------------

// The ONNX Runtime peer's wiring: the ONNX op (or the contrib ops) on each form, the thread count
// asked for, what it does not provide and why, and its spec's errors. Not ONNX Runtime's accuracy:
// the check measures that.
TEST(Onnxruntime, ThroughItsPeerSpec) {
  PeerSpec parsed;
  const Peer* peer = find_peer("onnxruntime", &parsed);
  ASSERT_NE(peer, nullptr);
  if (!peer->available())
    GTEST_SKIP() << "no Node.js, or onnxruntime-node is not in GELUCHECK_NPM_DIR "
                    "(scripts/setup.sh installs it)";
  auto s = open("onnxruntime", opts());
  const std::string d = s->describe();
  EXPECT_EQ(d.rfind("ONNX Runtime 1.", 0), 0u) << d;
  EXPECT_NE(d.find("opset-20 Gelu"), std::string::npos) << d;
  EXPECT_NE(d.find("intra-op threads 1;"), std::string::npos) << d;
  EXPECT_NE(d.find("kernels that ran: "), std::string::npos) << d;
  EXPECT_NE(d.find("not provided: bf16"), std::string::npos) << d;
  const Capabilities c = s->capabilities();
  for (Form form : {Form::tanh, Form::erf}) {
    for (Format f : {Format::binary32, Format::binary16})
      EXPECT_TRUE(c.provides({form, Direction::forward, f})) << op_name({form, Direction::forward, f});
    EXPECT_FALSE(c.provides({form, Direction::forward, Format::bfloat16}));
    for (Format f : all_formats) EXPECT_FALSE(c.provides({form, Direction::backward, f}));
  }
  // An op withdrawn at start-up is named with ONNX Runtime's reason.
  if (!c.provides({Form::erf, Direction::forward, Format::binary64})) {
    EXPECT_NE(d.find("withdrawn: erf.forward.f64: "), std::string::npos) << d;
  }

  // The forms differ by 11% at x = -3 (0.1% at -1): about 1.8e6 binary32 ulps, so a swapped op
  // or form fails these bounds. They leave room for the formula 0.5x(1 + t): at x = -3, 1 + t is
  // 0.0036 (tanh form) or 0.0027 (erf form), so a few ulps of t relative to 1 become up to
  // 4/0.0027 ~ 1500 ulps of the result (measured: 560 for the tanh form); and for the several
  // roundings of an op expanded into elementary binary16 ops.
  const std::vector<double> xs = {-3, -1, -0.5, 0, 0.5, 1, 3};
  for (Form form : {Form::tanh, Form::erf}) {
    expect_within(*s, {form, Direction::forward, Format::binary32}, xs, 2048);
    expect_within(*s, {form, Direction::forward, Format::binary16}, xs, 4);
  }

  // The contrib ops and a thread count, as asked.
  auto s2 = open("onnxruntime:contrib,threads=2", opts());
  const std::string d2 = s2->describe();
  EXPECT_NE(d2.find("contrib ops com.microsoft.FastGelu (tanh), com.microsoft.Gelu (erf)"),
            std::string::npos) << d2;
  EXPECT_NE(d2.find("intra-op threads 2;"), std::string::npos) << d2;
  EXPECT_NE(d2.find(": FastGelu"), std::string::npos) << d2;  // the kernel that ran
  for (Form form : {Form::tanh, Form::erf})
    expect_within(*s2, {form, Direction::forward, Format::binary32}, xs, 2048);

  const std::vector<std::string> v = variant_specs("onnxruntime");
  EXPECT_NE(std::find(v.begin(), v.end(), "onnxruntime:threads=2"), v.end());
  EXPECT_NE(std::find(v.begin(), v.end(), "onnxruntime:contrib"), v.end());
  EXPECT_EQ(std::find(v.begin(), v.end(), "onnxruntime"), v.end());

  expect_usage_errors({"onnxruntime:cuda", "onnxruntime:threads=0", "onnxruntime:"});
}

}  // namespace
}  // namespace gelucheck::subject
