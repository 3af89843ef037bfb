// The door itself: names, storage, claims and their syntax, the built-ins against the library
// and the reference, the broken variants, and the harness (batches, bisection, inputs compared).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "gelucheck/claims.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/harness.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/subject.hpp"
#include "builtins.hpp"

namespace gelucheck::subject {
namespace {

TEST(Names, RoundTripAndAbiSymbols) {
  EXPECT_EQ(all_ops().size(), 16u);
  for (const Op& op : all_ops()) {
    const auto back = parse_op(op_name(op));
    ASSERT_TRUE(back) << op_name(op);
    EXPECT_TRUE(*back == op);
  }
  EXPECT_EQ(abi_symbol({Form::tanh, Direction::forward, Format::binary64}), "gelu_tanh_f64");
  EXPECT_EQ(abi_symbol({Form::erf, Direction::backward, Format::bfloat16}), "gelu_erf_backward_bf16");
  EXPECT_EQ(abi_symbol({Form::erf, Direction::forward, Format::binary16}), "gelu_erf_f16");
  EXPECT_EQ(op_name({Form::tanh, Direction::backward, Format::binary32}), "tanh.backward.f32");
  for (Function f : all_functions) EXPECT_TRUE(parse_function(function_name(f)) == f);
  EXPECT_FALSE(parse_function("tanh"));
  EXPECT_FALSE(parse_op("tanh.forward.f8"));
  EXPECT_EQ(parse_dtype("bf16"), Format::bfloat16);
  EXPECT_EQ(parse_dtype("binary16"), Format::binary16);
  EXPECT_FALSE(parse_dtype("f8"));
}

TEST(Storage, EncodeDecodeEveryBfloat16AndBinary16Value) {
  for (Format fmt : {Format::bfloat16, Format::binary16}) {
    std::vector<double> v;
    for (std::uint32_t b = 0; b < 0x10000; ++b) v.push_back(from_bits(b, fmt));
    const std::vector<unsigned char> s = encode(fmt, v);
    ASSERT_EQ(s.size(), 2 * v.size());
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
      std::uint16_t got;
      std::memcpy(&got, s.data() + 2 * b, 2);
      ASSERT_EQ(got, b) << name(fmt);  // the pattern itself, NaN payloads included
    }
    const std::vector<double> back = decode(fmt, s.data(), v.size());
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(same_bits(back[i], v[i]));
  }
  EXPECT_THROW(encode(Format::binary32, std::vector<double>{0.1}), std::invalid_argument);
}

// binary32's own loops in encode and decode (the exhaustive sweep's format): every 65521st pattern
// and the special ones, NaNs with payloads (quiet, signalling, negative) among them, both ways bit
// for bit against from_bits; a NaN among them sends each through its general path.
TEST(Storage, EncodeDecodeBinary32PatternsAndNaNPayloads) {
  std::vector<std::uint32_t> bits = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                     0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x3f800000u};
  for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += 65521) bits.push_back(static_cast<std::uint32_t>(b));
  const std::size_t finite = bits.size();
  for (std::uint32_t nan : {0x7fc00000u, 0x7f800001u, 0x7fbfffffu, 0xffc12345u, 0xff800001u})
    bits.push_back(nan);
  for (const std::size_t n : {finite, bits.size()}) {  // without NaNs (the loops only), with them
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(from_bits(bits[i], Format::binary32));
    const std::vector<unsigned char> s = encode(Format::binary32, v);
    ASSERT_EQ(s.size(), 4 * n);
    const std::vector<double> back = decode(Format::binary32, s.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t got;
      std::memcpy(&got, s.data() + 4 * i, 4);
      ASSERT_EQ(got, bits[i]) << std::hex << bits[i];
      // Every bit (same_bits takes any two NaNs as the same): a widening that quiets a signalling
      // NaN would pass it.
      ASSERT_EQ(std::bit_cast<std::uint64_t>(back[i]), std::bit_cast<std::uint64_t>(v[i]))
          << std::hex << bits[i];
    }
  }
  EXPECT_THROW(encode(Format::bfloat16, std::vector<double>{1.0 + 0x1p-8}), std::invalid_argument);
}

TEST(Claims, SyntaxAndOverrides) {
  EXPECT_EQ(parse_claim("cr").max_ulp, 0.5);
  EXPECT_TRUE(parse_claim("cr").inclusive);
  EXPECT_FALSE(parse_claim("faithful").inclusive);
  EXPECT_EQ(parse_claim("ulp:4").max_ulp, 4.0);
  const Claim a = parse_claim("allclose:rtol=1e-3,atol=2e-5");
  EXPECT_EQ(a.kind, Claim::Kind::allclose);
  EXPECT_EQ(a.atol, 2e-5);
  EXPECT_EQ(a.rtol, 1e-3);
  for (const char* bad : {"", "exact", "ulp:", "ulp:-1", "ulp:inf", "allclose:atol=1e-5",
                          "allclose:atol=1e-5,rtol=x", "allclose:atol=1,atol=2,rtol=3", "ulp:4x"})
    EXPECT_THROW(parse_claim(bad), std::invalid_argument) << bad;
  ClaimSet s;
  EXPECT_FALSE(s.any());
  s.apply("cr");
  s.apply("tanh.derivative=ulp:4");
  s.apply("erf.*@bf16=faithful");
  s.apply("*.value@f16=allclose:atol=1e-3,rtol=1e-3");
  EXPECT_EQ(s.get({Form::tanh, Quantity::value}, Format::binary64).max_ulp, 0.5);
  EXPECT_EQ(s.get({Form::tanh, Quantity::derivative}, Format::binary32).max_ulp, 4.0);
  EXPECT_EQ(s.get({Form::erf, Quantity::derivative}, Format::bfloat16).max_ulp, 1.0);
  EXPECT_EQ(s.get({Form::erf, Quantity::value}, Format::binary16).kind, Claim::Kind::allclose);
  EXPECT_EQ(s.get({Form::erf, Quantity::derivative}, Format::binary16).max_ulp, 0.5);
  EXPECT_THROW(s.apply("gelu.value=cr"), std::invalid_argument);
  EXPECT_THROW(s.apply("tanh.value@f8=cr"), std::invalid_argument);
}

// allclose: |r - y| <= atol + rtol |y|, NaN-ness and exactness at ±inf.
TEST(Claims, AllcloseMeets) {
  const Claim c = Claim::allclose(1e-5, 1e-3);
  Error e;
  e.ulp = 3;
  e.abs = 1e-5 + 1e-3 * 2.0;
  EXPECT_TRUE(meets(c, e, 2.0));
  e.abs = std::nextafter(e.abs, 1.0);
  EXPECT_FALSE(meets(c, e, 2.0));
  e.abs = 0;
  e.nan_mismatch = true;
  EXPECT_FALSE(meets(c, e, 2.0));
  e = Error{};
  e.ulp = std::numeric_limits<double>::infinity();  // a finite result where +inf is due
  e.abs = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(meets(c, e, std::numeric_limits<double>::infinity()));
  EXPECT_THROW(meets(c, Error{}), std::logic_error);
}

// The built-ins give the library's and the reference's own bits (the door adds nothing).
TEST(Builtins, AccurateIsTheLibraryReferenceIsCorrectlyRounded) {
  auto acc = open("accurate");
  auto ref = open("reference");
  const std::vector<double> xs = {-40.0, -20.0, -3.0, -0.75, -0x1p-1074, -0.0, 0.0, 0.5, 3.0,
                                  1e300, std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(), NAN};
  for (Function f : all_functions) {
    const Evaluation a = evaluate(*acc, f, Format::binary64, xs);
    const Evaluation r = evaluate(*ref, f, Format::binary64, xs);
    ASSERT_TRUE(a.complete() && r.complete());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double lib = f.quantity == Quantity::value ? scalar(f.form, xs[i]) : scalar_deriv(f.form, xs[i]);
      EXPECT_TRUE(same_bits(a.y[i], lib)) << function_name(f) << " " << hexfloat(xs[i]);
      EXPECT_TRUE(same_bits(r.y[i], ref::correctly_rounded(f.form, f.quantity, xs[i], Format::binary64)));
    }
  }
  // Strided through the library's views: the same bits.
  HarnessOptions strided;
  strided.stride = 3;
  const Evaluation s = evaluate(*acc, {Form::erf, Quantity::value}, Format::binary64, xs, strided);
  const Evaluation c = evaluate(*acc, {Form::erf, Quantity::value}, Format::binary64, xs);
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_TRUE(same_bits(s.y[i], c.y[i]));
  EXPECT_TRUE(acc->claims().get({Form::tanh, Quantity::value}, Format::binary64).claims_anything());
  EXPECT_FALSE(open("naive")->claims().any());
  EXPECT_THROW(open("broken:nonsense"), SpecError);
  EXPECT_THROW(open("frobnicate"), SpecError);
  EXPECT_THROW(open("broken:away:0"), SpecError);
}

// A subject that fails on one input among many: the harness finds that input by bisection and
// still returns every other result.
class FailsAt final : public Subject {
 public:
  explicit FailsAt(double bad) : bad_(bad) {}
  std::string spec() const override { return "test"; }
  std::string describe() const override { return "fails at one input"; }
  Capabilities capabilities() const override { return {{{Form::tanh, Direction::forward, Format::binary64}}}; }
  Status call(const Call& c) override {
    ++calls;
    const auto* x = static_cast<const double*>(c.x);
    auto* y = static_cast<double*>(c.out);
    for (std::size_t i = 0; i < c.n; ++i) {
      if (x[i] == bad_) return Status::make(Status::Kind::crashed, "killed by signal 11");
      y[i] = 2 * x[i];
    }
    return Status::success();
  }
  int calls = 0;

 private:
  double bad_;
};

TEST(Harness, BisectsToTheOneFailingInputAndKeepsTheRest) {
  std::vector<double> xs(65536);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i);
  FailsAt s(12345);
  const Evaluation ev = forward(s, Form::tanh, Format::binary64, xs);
  ASSERT_EQ(ev.findings.size(), 1u);
  EXPECT_EQ(ev.findings[0].x, 12345.0);
  EXPECT_EQ(ev.findings[0].index, 12345u);
  EXPECT_EQ(ev.findings[0].status.kind, Status::Kind::crashed);
  EXPECT_EQ(ev.failed_count, 1u);
  EXPECT_EQ(ev.findings[0].alone, Finding::Alone::reproduces);
  // The bisection of 2^16 elements, and the replay of the one input alone that confirms it.
  EXPECT_LE(s.calls, 1 + 2 * 16 + 1);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i != 12345) {
      ASSERT_EQ(ev.y[i], 2 * xs[i]) << i;
    }
  }
  EXPECT_NE(describe(ev.findings[0]).find("x = 0x1.81c8p+13"), std::string::npos)
      << describe(ev.findings[0]);
  // An op it does not provide is unavailable, never called.
  const Evaluation no = forward(s, Form::erf, Format::binary64, xs);
  EXPECT_TRUE(no.unavailable);
}

// Empty and short calls (n = 0 has null pointers in the harness's buffers; n < 8 gives
// vector-tail an empty body): every built-in answers them, and the sanitizer build sees no UB.
TEST(Builtins, EmptyAndShortCalls) {
  std::vector<std::string> specs = must_fail_specs();
  for (const char* s : {"accurate", "naive", "reference"}) specs.emplace_back(s);
  for (const std::string& spec : specs) {
    auto sub = open(spec);
    for (Format fmt : all_formats) {
      for (Function f : all_functions) {
        for (std::size_t n : {0u, 1u, 7u}) {
          const std::vector<double> xs(n, 0.5);
          const Evaluation e = evaluate(*sub, f, fmt, xs);
          EXPECT_EQ(e.y.size(), n) << spec;
        }
      }
    }
  }
}

TEST(Harness, CatchesWritesIntoInputsAndKeepsTheResults) {
  auto s = open("broken:writes-input");
  const std::vector<double> xs = {-1.0, 0.5, 2.0};
  const Evaluation ev = forward(*s, Form::tanh, Format::binary64, xs);
  ASSERT_EQ(ev.findings.size(), 1u);
  EXPECT_EQ(ev.findings[0].status.kind, Status::Kind::wrote_input);
  EXPECT_EQ(ev.findings[0].inputs, 0u);  // every result is measured
  EXPECT_EQ(ev.failed_count, 0u);
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_TRUE(same_bits(ev.y[i], scalar(Form::tanh, xs[i])));
  EXPECT_TRUE(forward(*open("accurate"), Form::tanh, Format::binary64, xs).findings.empty());
}

// Every fixed broken variant differs from the accurate library somewhere on a small input set
// (the checks then catch it; the property suite's bite test shows which property does).
TEST(Broken, EveryVariantChangesSomething) {
  auto acc = open("accurate");
  std::vector<double> xs;
  for (double x = -12; x <= 4; x += 0.37) xs.push_back(x);
  xs.push_back(-std::numeric_limits<double>::infinity());
  for (std::size_t k = 0; k < 11; ++k) xs.push_back(-3.0 - 0.1 * static_cast<double>(k));
  // 56 so far; three more make a tail of n mod 8 = 3 elements where the naive path flushes to -0.
  for (double x : {-20.0, -25.0, -30.0}) xs.push_back(x);
  ASSERT_EQ(xs.size() % 8, 3u);
  for (const std::string& spec : must_fail_specs()) {
    auto b = open(spec);
    bool differs = false;
    for (Format fmt : {Format::binary64, Format::binary32, Format::bfloat16})
      for (Function f : all_functions) {
        std::vector<double> v;
        for (double x : xs) v.push_back(round_to_format(x, fmt));
        const std::vector<double> dy(v.size(), 0.75);
        for (int rep = 0; rep < 2; ++rep) {  // second-call-differs shows on the second call
          const Evaluation e = f.quantity == Quantity::value ? forward(*b, f.form, fmt, v)
                                                             : backward(*b, f.form, fmt, v, dy);
          const Evaluation a = f.quantity == Quantity::value ? forward(*acc, f.form, fmt, v)
                                                             : backward(*acc, f.form, fmt, v, dy);
          differs |= !e.findings.empty() || e.failed_count > 0;
          for (std::size_t i = 0; i < v.size(); ++i) differs |= !e.failed[i] && !same_bits(e.y[i], a.y[i]);
        }
      }
    EXPECT_TRUE(differs) << spec;
  }
}

}  // namespace
}  // namespace gelucheck::subject
