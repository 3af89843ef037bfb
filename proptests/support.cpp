// proptests/support.cpp — generators, recording, and the reference-side helpers of support.hpp.
//
// The hard points (gelucheck/facts.hpp, their one home) were computed with mpmath 1.3 at 60 digits:
//   python3 proptests/tools/hard_points.py
// (stable forms x/(1+e^(-2u)) and x·erfc(-x/√2)/2, findroot on log|f(x)| = log 2^-1075 for the
// underflow points and on f'(x) = 0 for the argmins; the gap points are DESIGN.md's, converted).
#include "support.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>
#include <sstream>

namespace gelucheck::prop {

std::string hex(double x) { return hexfloat(x); }
std::string hex(float x) { return hexfloat(static_cast<double>(x)) + "f"; }

std::ostream& operator<<(std::ostream& os, const X64& x) {
  return os << hex(x.v) << " (" << decimal_roundtrip(x.v, Format::binary64) << ") [" << x.origin
            << "]";
}
std::ostream& operator<<(std::ostream& os, const X32& x) {
  const double d = static_cast<double>(x.v);
  return os << hex(x.v) << " (" << decimal_roundtrip(d, Format::binary32) << ") [" << x.origin
            << "]";
}

namespace {

using dlim = std::numeric_limits<double>;
using flim = std::numeric_limits<float>;

struct Hard64 {
  double x;
  const char* origin;
};
const std::vector<Hard64>& hard64() {
  static const std::vector<Hard64> v = [] {
    std::vector<Hard64> h;  // the shared set (facts.hpp), then this suite's extras
    for (const facts::Point& p : facts::hard_points) h.push_back({p.x, p.what});
    h.insert(h.end(), {
      {-7.2, "naive tanh flushes"},
      {-8.4, "naive erf flushes"},
      {-33.0, "erfc argument rounding"},
      {-3.0, "course table"},
      {-1.0, "course table"},
      {0.5, "course table"},
      {1.0, "course table"},
      {2.0, "course table"},
      {dlim::max(), "DBL_MAX"},
      {-dlim::max(), "DBL_MAX"},
      {dlim::min(), "DBL_MIN"},
      {-dlim::min(), "DBL_MIN"},
    });
    return h;
  }();
  return v;
}
const std::vector<Hard64>& specials64() {
  static const std::vector<Hard64> v = {
      {0.0, "+0"}, {-0.0, "-0"}, {dlim::infinity(), "+inf"}, {-dlim::infinity(), "-inf"},
      {dlim::quiet_NaN(), "nan"}, {-dlim::quiet_NaN(), "-nan"},
      {dlim::denorm_min(), "least subnormal"}, {-dlim::denorm_min(), "least subnormal"},
      {dlim::max(), "DBL_MAX"}, {-dlim::max(), "DBL_MAX"},
  };
  return v;
}

double from_parts(bool neg, int exponent, std::uint64_t mantissa) {
  // exponent in [-1074, 1023]: binade [2^e, 2^(e+1)) for normals; subnormal below -1022.
  mantissa &= (std::uint64_t{1} << 52) - 1;
  double v;
  if (exponent >= -1022) {
    v = std::bit_cast<double>((static_cast<std::uint64_t>(exponent + 1023) << 52) | mantissa);
  } else {
    // subnormal with leading bit at 2^exponent
    const int shift = -1022 - exponent;  // 1 .. 52
    const std::uint64_t m = (std::uint64_t{1} << (52 - shift)) | (mantissa >> shift);
    v = std::bit_cast<double>(m);
  }
  return neg ? -v : v;
}

double tail_point(std::uint64_t m) {  // uniform in [-45, -5]
  return -5.0 - 40.0 * static_cast<double>(m >> 11) * 0x1p-53;
}

double perturb(double x, int ulps, int rel) {
  if (!std::isfinite(x)) return x;
  if (rel != 0) return x * (1.0 + 1e-12 * static_cast<double>(rel) / 1000.0);  // |t| <= 1e-12
  double y = x;
  const double dir = ulps > 0 ? dlim::infinity() : -dlim::infinity();
  for (int i = 0; i < std::abs(ulps); ++i) y = std::nextafter(y, dir);
  return y;
}

// rc's arbitrary integers grow with the test size (small early in a run); bit patterns and
// mantissas must cover their whole range from the first case, so their size is pinned at the
// nominal maximum (shrinking still works).
template <class U>
rc::Gen<U> any_bits() {
  return rc::gen::resize(100, rc::gen::arbitrary<U>());
}

}  // namespace

rc::Gen<X64> gen_x64() {
  using namespace rc;
  auto bits = gen::map(any_bits<std::uint64_t>(),
                       [](std::uint64_t b) { return X64{std::bit_cast<double>(b), "bits"}; });
  auto binade = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-1074, 1024),
                 any_bits<std::uint64_t>()),
      [](const std::tuple<bool, int, std::uint64_t>& t) {
        return X64{from_parts(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "binade"};
      });
  auto moderate = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-6, 6), any_bits<std::uint64_t>()),
      [](const std::tuple<bool, int, std::uint64_t>& t) {
        return X64{from_parts(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "|x| in [2^-6,2^6)"};
      });
  auto tail = gen::map(any_bits<std::uint64_t>(),
                       [](std::uint64_t m) { return X64{tail_point(m), "tail [-45,-5]"}; });
  auto near_hard = gen::map(
      gen::tuple(gen::elementOf(hard64()), gen::inRange(-64, 65),
                 gen::weightedElement<int>({{3, 0}, {1, 1}})  ,
                 gen::inRange(-1000, 1001)),
      [](const std::tuple<Hard64, int, int, int>& t) {
        const auto& [h, ulps, use_rel, rel] = t;
        return X64{perturb(h.x, use_rel ? 0 : ulps, use_rel ? rel : 0), h.origin};
      });
  auto special = gen::map(gen::elementOf(specials64()),
                          [](const Hard64& h) { return X64{h.x, h.origin}; });
  auto subnormal = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 52)),
      [](const std::tuple<bool, std::uint64_t>& t) {
        const double v = std::bit_cast<double>(std::get<1>(t));
        return X64{std::get<0>(t) ? -v : v, "subnormal"};
      });
  return gen::weightedOneOf<X64>({{10, bits},
                                  {20, binade},
                                  {25, moderate},
                                  {15, tail},
                                  {20, near_hard},
                                  {5, special},
                                  {5, subnormal}});
}

rc::Gen<X64> gen_x64_finite() {
  return rc::gen::suchThat(gen_x64(), [](const X64& x) { return std::isfinite(x.v); });
}

rc::Gen<X64> gen_x64_in(double lo, double hi) {
  return rc::gen::suchThat(gen_x64(), [lo, hi](const X64& x) { return x.v >= lo && x.v <= hi; });
}

namespace {
struct Hard32 {
  float x;
  const char* origin;
};
const std::vector<Hard32>& hard32() {
  static const std::vector<Hard32> v = [] {
    std::vector<Hard32> h;  // the shared set (facts.hpp), then this suite's extras
    for (const facts::Point32& p : facts::hard_points32) h.push_back({p.x, p.what});
    h.insert(h.end(), {
      {0x1p64f, "u overflow"},
      {-0x1p64f, "u overflow"},
      {flim::max(), "FLT_MAX"},
      {-flim::max(), "FLT_MAX"},
      {flim::min(), "FLT_MIN"},
      {-flim::min(), "FLT_MIN"},
      {-3.0f, "course table"},
      {-1.0f, "course table"},
    });
    return h;
  }();
  return v;
}
const std::vector<Hard32>& specials32() {
  static const std::vector<Hard32> v = {
      {0.0f, "+0"}, {-0.0f, "-0"}, {flim::infinity(), "+inf"}, {-flim::infinity(), "-inf"},
      {flim::quiet_NaN(), "nan"}, {flim::denorm_min(), "least subnormal"},
      {-flim::denorm_min(), "least subnormal"},
  };
  return v;
}
float from_parts32(bool neg, int exponent, std::uint32_t mantissa) {
  mantissa &= (1u << 23) - 1;
  float v;
  if (exponent >= -126) {
    v = std::bit_cast<float>((static_cast<std::uint32_t>(exponent + 127) << 23) | mantissa);
  } else {
    const int shift = -126 - exponent;  // 1 .. 23
    v = std::bit_cast<float>((1u << (23 - shift)) | (mantissa >> shift));
  }
  return neg ? -v : v;
}
}  // namespace

rc::Gen<X32> gen_x32() {
  using namespace rc;
  auto bits = gen::map(any_bits<std::uint32_t>(),
                       [](std::uint32_t b) { return X32{std::bit_cast<float>(b), "bits"}; });
  auto binade = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-149, 128), any_bits<std::uint32_t>()),
      [](const std::tuple<bool, int, std::uint32_t>& t) {
        return X32{from_parts32(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "binade"};
      });
  auto moderate = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-6, 6), any_bits<std::uint32_t>()),
      [](const std::tuple<bool, int, std::uint32_t>& t) {
        return X32{from_parts32(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "|x| in [2^-6,2^6)"};
      });
  auto tail = gen::map(any_bits<std::uint32_t>(), [](std::uint32_t m) {
    return X32{-3.0f - 15.0f * static_cast<float>(m >> 8) * 0x1p-24f, "tail [-18,-3]"};
  });
  auto near_hard = gen::map(
      gen::tuple(gen::elementOf(hard32()), gen::inRange(-64, 65)),
      [](const std::tuple<Hard32, int>& t) {
        float y = std::get<0>(t).x;
        const int k = std::get<1>(t);
        for (int i = 0; i < std::abs(k); ++i)
          y = std::nextafter(y, k > 0 ? flim::infinity() : -flim::infinity());
        return X32{y, std::get<0>(t).origin};
      });
  auto special = gen::map(gen::elementOf(specials32()),
                          [](const Hard32& h) { return X32{h.x, h.origin}; });
  return gen::weightedOneOf<X32>(
      {{10, bits}, {20, binade}, {30, moderate}, {15, tail}, {20, near_hard}, {5, special}});
}

rc::Gen<X32> gen_x32_finite() {
  return rc::gen::suchThat(gen_x32(), [](const X32& x) { return std::isfinite(x.v); });
}

const char* region(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return "inf";
  if (x == 0) return "zero";
  if (std::fabs(x) < dlim::min()) return "subnormal |x|";
  if (x < -38.6) return "x < -38.6";
  if (x < -10) return "[-38.6, -10)";
  if (x < -1) return "[-10, -1)";
  if (x <= 1) return "[-1, 1]";
  if (x <= 10) return "(1, 10]";
  return "x > 10";
}
void tag(const X64& x) { RC_TAG(std::string(region(x.v)), std::string(x.origin)); }
void tag(const X32& x) {
  RC_TAG(std::string(region(static_cast<double>(x.v))), std::string(x.origin));
}

double draw64(std::mt19937_64& rng, bool finite_only) {
  for (;;) {
    const std::uint64_t a = rng(), b = rng();
    double v;
    switch (a % 8) {
      case 0: v = std::bit_cast<double>(b); break;
      case 1: v = from_parts(b & 1, static_cast<int>((b >> 1) % 2098) - 1074, rng()); break;
      case 2:
      case 3: v = from_parts(b & 1, static_cast<int>((b >> 1) % 12) - 6, rng()); break;
      case 4: v = tail_point(b); break;
      case 5: {
        const auto& h = hard64()[b % hard64().size()];
        v = perturb(h.x, static_cast<int>((b >> 32) % 129) - 64, 0);
        break;
      }
      case 6: v = specials64()[b % specials64().size()].x; break;
      default: v = from_parts(b & 1, static_cast<int>((b >> 1) % 16) - 8, rng()); break;
    }
    if (!finite_only || std::isfinite(v)) return v;
  }
}

float draw32(std::mt19937_64& rng, bool finite_only) {
  for (;;) {
    const std::uint64_t a = rng(), b = rng();
    float v;
    switch (a % 8) {
      case 0: v = std::bit_cast<float>(static_cast<std::uint32_t>(b)); break;
      case 1: v = from_parts32(b & 1, static_cast<int>((b >> 1) % 277) - 149, static_cast<std::uint32_t>(rng())); break;
      case 2:
      case 3: v = from_parts32(b & 1, static_cast<int>((b >> 1) % 12) - 6, static_cast<std::uint32_t>(rng())); break;
      case 4: v = -3.0f - 15.0f * static_cast<float>(b >> 40) * 0x1p-24f; break;
      case 5: v = hard32()[b % hard32().size()].x; break;
      case 6: v = specials32()[b % specials32().size()].x; break;
      default: v = from_parts32(b & 1, static_cast<int>((b >> 1) % 16) - 8, static_cast<std::uint32_t>(rng())); break;
    }
    if (!finite_only || std::isfinite(v)) return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Layouts.

Layout make_layout(std::vector<std::size_t> shape, std::vector<std::size_t> perm,
                   std::vector<int> gap, std::vector<bool> negative, std::uint64_t seed) {
  Layout l;
  l.shape = std::move(shape);
  l.perm = std::move(perm);
  l.gap = std::move(gap);
  l.negative = std::move(negative);
  l.seed = seed;
  const std::size_t r = l.shape.size();
  l.strides.assign(r, 0);
  std::ptrdiff_t acc = 1;
  for (std::size_t k = r; k-- > 0;) {  // innermost (fastest) first
    const std::size_t d = l.perm[k];
    const std::ptrdiff_t s = acc * l.gap[d];
    l.strides[d] = l.negative[d] ? -s : s;
    acc = s * static_cast<std::ptrdiff_t>(std::max<std::size_t>(l.shape[d], 1));
  }
  std::ptrdiff_t lo = 0, hi = 0;
  if (l.size() > 0)
    for (std::size_t d = 0; d < r; ++d) {
      const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(l.shape[d] - 1) * l.strides[d];
      (span < 0 ? lo : hi) += span;
    }
  l.offset = -lo;
  l.buffer = static_cast<std::size_t>(hi - lo + 1);
  return l;
}

std::ostream& operator<<(std::ostream& os, const Layout& l) {
  auto list = [&](const auto& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  return os << "shape " << list(l.shape) << " strides " << list(l.strides) << " offset "
            << l.offset << " buffer " << l.buffer << " value-seed " << l.seed;
}

rc::Gen<std::vector<std::size_t>> gen_shape() {
  using namespace rc;
  using Shape = std::vector<std::size_t>;
  auto dim = gen::weightedElement<std::size_t>(
      {{4, 1}, {2, 0}, {3, 2}, {3, 3}, {3, 5}, {2, 7}, {2, 11}, {1, 13}, {1, 4}});
  auto small = gen::mapcat(gen::inRange(0, 6), [dim](int rank) {
    return gen::container<Shape>(static_cast<std::size_t>(rank), dim);
  });
  auto fixture = gen::just(Shape{4, 64});
  auto scratch = gen::map(gen::inRange<std::size_t>(1, 4),
                          [](std::size_t t) { return Shape{t, 3072}; });
  return gen::weightedOneOf<Shape>({{12, small}, {2, fixture}, {1, scratch}});
}

rc::Gen<Layout> gen_layout() {
  using namespace rc;
  return gen::mapcat(gen_shape(), [](const std::vector<std::size_t>& shape) {
    const std::size_t r = shape.size();
    return gen::map(
        gen::tuple(any_bits<std::uint64_t>(), gen::container<std::vector<int>>(r, gen::inRange(1, 3)),
                   gen::container<std::vector<bool>>(r, gen::arbitrary<bool>()),
                   any_bits<std::uint64_t>(), gen::arbitrary<bool>()),
        [shape, r](const std::tuple<std::uint64_t, std::vector<int>, std::vector<bool>,
                                    std::uint64_t, bool>& t) {
          const auto& [perm_seed, gap, neg, seed, dense] = t;
          std::vector<std::size_t> perm(r);
          for (std::size_t i = 0; i < r; ++i) perm[i] = i;
          if (dense) return make_layout(shape, perm, std::vector<int>(r, 1),
                                        std::vector<bool>(r, false), seed);
          std::mt19937_64 g(perm_seed);
          std::shuffle(perm.begin(), perm.end(), g);
          return make_layout(shape, perm, gap, neg, seed);
        });
  });
}

// ---------------------------------------------------------------------------------------------
// Recording.

std::uint64_t seed() { return rc::detail::configuration().testParams.seed; }

void begin_test(const char* lean, Need need) {
  ::testing::Test::RecordProperty("lean", lean);
  ::testing::Test::RecordProperty("subject", impl().name());
  ::testing::Test::RecordProperty("seed", std::to_string(seed()));
  const Claims c = impl().claims();
  const bool ok = need == Need::nothing || (need == Need::accuracy && c.accurate()) ||
                  (need == Need::specials && c.specials) ||
                  (need == Need::seed_formula && c.seed_formula);
  if (!ok) GTEST_SKIP() << "subject '" << impl().name() << "' makes no such claim";
}

void run_checked(const std::function<void()>& property) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkTestable(property, metadata);
  if (result.template is<rc::detail::SuccessResult>()) {
    const auto& s = result.template get<rc::detail::SuccessResult>();
    ::testing::Test::RecordProperty("cases", std::to_string(s.numSuccess));
    if (!s.distribution.empty()) {
      rc::detail::printResultMessage(result, std::cout);
      std::cout << std::endl;
    }
    return;
  }
  std::ostringstream ss;
  rc::detail::printResultMessage(result, ss);
  if (result.template is<rc::detail::FailureResult>()) {
    const auto& f = result.template get<rc::detail::FailureResult>();
    ::testing::Test::RecordProperty("cases", std::to_string(f.numSuccess));
    std::string ce;
    for (const auto& [type, value] : f.counterExample) ce += value + "; ";
    ::testing::Test::RecordProperty("counterexample", ce + f.description);
  }
  FAIL() << "RC_PARAMS seed=" << seed() << " (subject " << impl().name() << ")\n" << ss.str();
}

// ---------------------------------------------------------------------------------------------
// Numbers.

double ulp_of(double y, Format fmt) {
  const FormatInfo fi = info(fmt);
  int e = fi.emin;
  if (y != 0 && std::isfinite(y)) e = std::max(std::ilogb(y), fi.emin);
  return std::ldexp(1.0, e - fi.precision + 1);
}

double claimed_ulp(Format fmt) {
  const Claims c = impl().claims();
  return fmt == Format::binary32 ? c.ulp32 : c.ulp64;
}

bool within_claim(double err, Format fmt) {
  const Claims c = impl().claims();
  const bool strict = fmt == Format::binary32 ? c.strict32 : c.strict64;
  const double b = claimed_ulp(fmt);
  return strict ? err < b : err <= b;
}

void check_accuracy(const char* what, Form form, Quantity q, double x, double r, Format fmt) {
  const ref::Enclosure y = ref::enclose(form, q, x);
  const Error e = measure(r, y, fmt);
  if (within_claim(e.ulp, fmt) && !e.nan_mismatch && !e.zero_sign_mismatch) return;
  const double expected = ref::correctly_rounded(form, q, x, fmt);
  fail(fmt::format(
      "{} {} {} {}: input {}, expected {} (correctly rounded), got {}, error {} ulp (claimed {}{}){}{}",
      what, name(form), name(q), name(fmt), hex(x), hex(expected), hex(r), e.ulp,
      (fmt == Format::binary32 ? impl().claims().strict32 : impl().claims().strict64) ? "< " : "<= ",
      claimed_ulp(fmt), e.nan_mismatch ? ", NaN mismatch" : "",
      e.zero_sign_mismatch ? ", sign-of-zero mismatch" : ""));
}

// Exact -----------------------------------------------------------------------------------------
static constexpr mpfr_prec_t kExactPrec = 2300;
Exact::Exact() { mpfr_init2(v_, kExactPrec); mpfr_set_zero(v_, 1); }
Exact::Exact(double v) { mpfr_init2(v_, kExactPrec); mpfr_set_d(v_, v, MPFR_RNDN); }
Exact::Exact(const Exact& o) { mpfr_init2(v_, kExactPrec); mpfr_set(v_, o.v_, MPFR_RNDN); }
Exact::~Exact() { mpfr_clear(v_); }
Exact Exact::operator+(const Exact& o) const {
  Exact r; mpfr_add(r.v_, v_, o.v_, MPFR_RNDN); return r;
}
Exact Exact::operator-(const Exact& o) const {
  Exact r; mpfr_sub(r.v_, v_, o.v_, MPFR_RNDN); return r;
}
Exact Exact::abs() const { Exact r; mpfr_abs(r.v_, v_, MPFR_RNDN); return r; }
int Exact::cmp(const Exact& o) const { return mpfr_cmp(v_, o.v_); }
int Exact::cmp(double o) const { return mpfr_cmp_d(v_, o); }
double Exact::to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }

// Theorem formulas ------------------------------------------------------------------------------
// Precision. Every MPFR operation below is correctly rounded at the working precision p, so each
// contributes a relative error <= 2^-p. The only growth is cancellation:
//   1 + tanh u (u < 0) = 2/(1 + e^(-2u)) ≈ 2e^(2u): loses ≈ 2|u|/ln 2 bits;
//   1 - tanh² u = sech² u ≈ 4e^(-2|u|): the same;
//   1 + erf z (z < 0) ≈ erfc(|z|) ≈ e^(-z²): loses ≈ z²/ln 2 bits;
//   Φ(x) + x·φ(x) near its zero x0 ≈ -0.75: the result ~ |x - x0| ≥ 2^-54 at doubles, terms
//   ~0.3: loses ≤ 56 bits.
// So p = base + 2·(2|u| or z²)·(1/ln 2) + 64 leaves ≥ base - 8 good bits after some dozen
// operations (the factor 2 covers the estimate of u, computed in double). For x beyond the
// range below the bits needed exceed ~6000 and the check is skipped.
bool theorem_range(Form f, double x) {
  if (!std::isfinite(x)) return false;
  return f == Form::tanh ? x >= -30.0 : x >= -40.0;
}

namespace {
mpfr_prec_t working_prec(Form f, double x, int base) {
  double lost = 0;
  if (x < 0) {
    const double ax = std::fabs(x);
    lost = f == Form::tanh ? 2.0 * 0.8 * (ax + 0.044715 * ax * ax * ax) / std::log(2.0)
                           : 0.5 * ax * ax / std::log(2.0);
  }
  const double e = std::fabs(x) > 1 ? std::log2(std::fabs(x)) : 0.0;
  return static_cast<mpfr_prec_t>(base + 2.0 * lost + 3.0 * e + 64);
}
struct Tmp {
  mpfr_t v;
  explicit Tmp(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Tmp() { mpfr_clear(v); }
  operator mpfr_ptr() { return v; }
};
// t = √(2/π)·(x + 0.044715·x³) with 0.044715 = 44715/10^6 exactly.
void tanh_arg(mpfr_ptr u, mpfr_srcptr x, mpfr_prec_t p) {
  Tmp c(p), k(p), x3(p);
  mpfr_set_ui(c, 44715, MPFR_RNDN);
  mpfr_div_ui(c, c, 1000000, MPFR_RNDN);
  mpfr_const_pi(k, MPFR_RNDN);
  mpfr_ui_div(k, 2, k, MPFR_RNDN);
  mpfr_sqrt(k, k, MPFR_RNDN);
  mpfr_pow_ui(x3, x, 3, MPFR_RNDN);
  mpfr_mul(x3, x3, c, MPFR_RNDN);
  mpfr_add(x3, x3, x, MPFR_RNDN);
  mpfr_mul(u, x3, k, MPFR_RNDN);
}
}  // namespace

void theorem_value(Form f, mpfr_srcptr x, mpfr_ptr out, int base_bits) {
  const mpfr_prec_t p = working_prec(f, mpfr_get_d(x, MPFR_RNDN), base_bits);
  mpfr_set_prec(out, p);
  Tmp t(p);
  if (f == Form::tanh) {  // 0.5 · x · (1 + tanh(√(2/π)·(x + 0.044715·x³)))
    tanh_arg(t, x, p);
    mpfr_tanh(t, t, MPFR_RNDN);
  } else {  // x · Φ(x), Φ(x) = (1 + erf(x/√2)) / 2
    mpfr_sqrt_ui(t, 2, MPFR_RNDN);
    mpfr_div(t, x, t, MPFR_RNDN);
    mpfr_erf(t, t, MPFR_RNDN);
  }
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_mul(out, t, x, MPFR_RNDN);
  mpfr_div_2ui(out, out, 1, MPFR_RNDN);
}

void theorem_deriv(Form f, mpfr_srcptr x, mpfr_ptr out, int base_bits) {
  const mpfr_prec_t p = working_prec(f, mpfr_get_d(x, MPFR_RNDN), base_bits);
  mpfr_set_prec(out, p);
  Tmp a(p), b(p), k(p);
  if (f == Form::tanh) {
    // geluScalarDeriv: 0.5·(1 + tanh u) + 0.5·x·(1 - tanh² u)·√(2/π)·(1 + 3·0.044715·x²)
    tanh_arg(a, x, p);
    mpfr_tanh(a, a, MPFR_RNDN);           // th
    mpfr_sqr(b, a, MPFR_RNDN);
    mpfr_ui_sub(b, 1, b, MPFR_RNDN);      // 1 - th²
    mpfr_add_ui(a, a, 1, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);     // 0.5 (1 + th)
    mpfr_sqr(k, x, MPFR_RNDN);
    mpfr_mul_ui(k, k, 3 * 44715, MPFR_RNDN);
    mpfr_div_ui(k, k, 1000000, MPFR_RNDN);
    mpfr_add_ui(k, k, 1, MPFR_RNDN);      // 1 + 3·0.044715·x²
    mpfr_mul(b, b, k, MPFR_RNDN);
    mpfr_const_pi(k, MPFR_RNDN);
    mpfr_ui_div(k, 2, k, MPFR_RNDN);
    mpfr_sqrt(k, k, MPFR_RNDN);
    mpfr_mul(b, b, k, MPFR_RNDN);
    mpfr_mul(b, b, x, MPFR_RNDN);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);
    mpfr_add(out, a, b, MPFR_RNDN);
  } else {
    // geluErfScalarDeriv: Φ(x) + x·φ(x), φ(x) = exp(-x²/2)/√(2π)
    mpfr_sqrt_ui(a, 2, MPFR_RNDN);
    mpfr_div(a, x, a, MPFR_RNDN);
    mpfr_erf(a, a, MPFR_RNDN);
    mpfr_add_ui(a, a, 1, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);     // Φ
    mpfr_sqr(b, x, MPFR_RNDN);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);
    mpfr_neg(b, b, MPFR_RNDN);
    mpfr_exp(b, b, MPFR_RNDN);
    mpfr_const_pi(k, MPFR_RNDN);
    mpfr_mul_2ui(k, k, 1, MPFR_RNDN);
    mpfr_sqrt(k, k, MPFR_RNDN);
    mpfr_div(b, b, k, MPFR_RNDN);         // φ
    mpfr_mul(b, b, x, MPFR_RNDN);
    mpfr_add(out, a, b, MPFR_RNDN);
  }
}

bool close_rel(mpfr_srcptr a, mpfr_srcptr b, int bits) {
  if (mpfr_equal_p(a, b)) return true;
  Tmp d(std::max(mpfr_get_prec(a), mpfr_get_prec(b)) + 8);
  mpfr_sub(d, a, b, MPFR_RNDA);
  mpfr_abs(d, d, MPFR_RNDU);
  Tmp t(std::max<mpfr_prec_t>(mpfr_get_prec(b), 64));
  mpfr_abs(t, b, MPFR_RNDD);
  mpfr_div_2si(t, t, bits, MPFR_RNDD);
  return mpfr_lessequal_p(d, t);
}

std::string mpfr_hex(mpfr_srcptr v) {
  char* s = nullptr;
  mpfr_asprintf(&s, "%.30Ra", v);
  std::string r = s ? s : "?";
  mpfr_free_str(s);
  return r;
}

}  // namespace gelucheck::prop
