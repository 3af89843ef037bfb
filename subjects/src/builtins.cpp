// The in-process subjects: the library's two paths (src/, through its real array API), the
// correctly rounded reference, and the deliberately broken variants — each the accurate library
// with one realistic mistake, claiming what the library claims, so that the checks must catch it.
// They reach src/ and reference/ here and nowhere else among the checks (subject.hpp).
// A build without the library (GELUCHECK_WITH_LIBRARY=0: no x87 long double, docs/architecture.md)
// has no accurate and naive; its broken variants are the reference with the same mistakes,
// claiming what the reference claims.
#include "builtins.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gelucheck/reference.hpp"
#ifndef GELUCHECK_WITH_LIBRARY
#error "GELUCHECK_WITH_LIBRARY (1 or 0) is defined by the top-level CMakeLists.txt"
#endif
#if GELUCHECK_WITH_LIBRARY
#include "gelucheck/claims.hpp"
#include "gelucheck/constants.hpp"
#include "gelucheck/gelu.hpp"
#endif

namespace gelucheck::subject {
namespace {

#if GELUCHECK_WITH_LIBRARY
constexpr double kSqrt2OverPi = constants::kSqrt2OverPi;
constexpr double kCubic = constants::kCubic;
#else
// The tanh form's coefficients as src/include/gelucheck/constants.hpp has them: RN(√(2/π)) (mpmath
// at 200 bits gives the same) and RN(0.044715).
constexpr double kSqrt2OverPi = 0x1.9884533d43651p-1;
constexpr double kCubic = 0.044715;
#endif

#if GELUCHECK_WITH_LIBRARY
// ---------------------------------------------------------------------------------------------
// The library behind the door: map/backward over (possibly strided) views, as a user calls it.

// fmt: none for double and float; the Format for 16-bit encodings (map/backward's 16-bit overloads).
template <class T, class... F>
void library_call(Path path, const Call& c, const T* x, const T* dy, T* out, F... fmt) {
  const std::size_t n = c.n, s = std::max<std::size_t>(c.stride, 1);
  const auto sn = static_cast<std::ptrdiff_t>(s);
  if (s == 1) {
    View<const T> xv{x, {n}, {1}};
    View<T> ov{out, {n}, {1}};
    if (c.op.direction == Direction::forward) map(c.op.form, fmt..., xv, ov, path);
    else backward(c.op.form, fmt..., xv, View<const T>{dy, {n}, {1}}, ov, path);
    return;
  }
  // Strided: the elements at i·s of buffers of our own (the gaps hold a canary value that must
  // not matter).
  std::vector<T> xb(n * s, T(0.125)), db(n * s, T(0.25)), ob(n * s, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    xb[i * s] = x[i];
    if (dy) db[i * s] = dy[i];
  }
  View<const T> xv{xb.data(), {n}, {sn}};
  View<T> ov{ob.data(), {n}, {sn}};
  if (c.op.direction == Direction::forward) map(c.op.form, fmt..., xv, ov, path);
  else backward(c.op.form, fmt..., xv, View<const T>{db.data(), {n}, {sn}}, ov, path);
  for (std::size_t i = 0; i < n; ++i) out[i] = ob[i * s];
}

class LibrarySubject : public Subject {
 public:
  explicit LibrarySubject(Path p) : path_(p) {}
  std::string spec() const override { return path_ == Path::accurate ? "accurate" : "naive"; }
  std::string describe() const override {
    return path_ == Path::accurate
               ? "gelucheck's library, accurate path (binary64 faithful; binary32, binary16 and "
                 "bfloat16 correctly rounded)"
               : "gelucheck's library, naive path: the textbook formulas, claims nothing";
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ops = all_ops();
    c.strided = true;
    return c;
  }
  ClaimSet claims() const override {
    ClaimSet s;
    for (Format fmt : all_formats)
      if (const std::optional<Claim> c = claim(path_, fmt)) s.set(std::nullopt, fmt, *c);
    return s;
  }
  Status call(const Call& c) override {
    switch (c.op.format) {
      case Format::binary64:
        library_call(path_, c, static_cast<const double*>(c.x), static_cast<const double*>(c.dy),
                     static_cast<double*>(c.out));
        break;
      case Format::binary32:
        library_call(path_, c, static_cast<const float*>(c.x), static_cast<const float*>(c.dy),
                     static_cast<float*>(c.out));
        break;
      default:  // binary16, bfloat16: 16-bit encodings
        library_call(path_, c, static_cast<const std::uint16_t*>(c.x), static_cast<const std::uint16_t*>(c.dy),
                     static_cast<std::uint16_t*>(c.out), c.op.format);
    }
    return Status::success();
  }

 private:
  Path path_;
};

// What the broken variants wrap: the accurate library.
struct Accurate final : LibrarySubject {
  Accurate() : LibrarySubject(Path::accurate) {}
};
#endif  // GELUCHECK_WITH_LIBRARY

// ---------------------------------------------------------------------------------------------
// The reference: value and derivative correctly rounded to the format. Its backward with dy = 1 is
// the correctly rounded derivative; for other dy it is RN_fmt(dy · RN64(f'(x))) (two roundings:
// the reference computes f', not the product), and it claims only the derivative (dy = 1).

class ReferenceSubject : public Subject {
 public:
  std::string spec() const override { return "reference"; }
  std::string describe() const override {
    return "gelucheck's MPFR reference, correctly rounded in every format";
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ops = all_ops();
    return c;
  }
  ClaimSet claims() const override {
    ClaimSet s;
    s.set(std::nullopt, std::nullopt, Claim::correctly_rounded());
    return s;
  }
  Status call(const Call& c) override {
    const Format fmt = c.op.format;
    const std::vector<double> x = decode(fmt, c.x, c.n);
    const std::vector<double> dy = c.dy ? decode(fmt, c.dy, c.n) : std::vector<double>();
    std::vector<double> r(c.n);
    try {
      for (std::size_t i = 0; i < c.n; ++i) {
        if (c.op.direction == Direction::forward) {
          r[i] = ref::correctly_rounded(c.op.form, Quantity::value, x[i], fmt);
        } else if (dy[i] == 1) {
          r[i] = ref::correctly_rounded(c.op.form, Quantity::derivative, x[i], fmt);
        } else {
          const double d = ref::correctly_rounded(c.op.form, Quantity::derivative, x[i],
                                                  Format::binary64);
          r[i] = round_to_format(dy[i] * d, fmt);
        }
      }
    } catch (const std::exception& e) {
      return Status::make(Status::Kind::failed, e.what());
    }
    const std::vector<unsigned char> bytes = encode(fmt, r);
    if (!bytes.empty()) std::memcpy(c.out, bytes.data(), bytes.size());
    return Status::success();
  }
};

#if !GELUCHECK_WITH_LIBRARY
using Accurate = ReferenceSubject;  // without the library, the broken variants wrap the reference
#endif

// ---------------------------------------------------------------------------------------------
// Broken variants. Each wraps the accurate library (the reference, without it) and changes one
// thing.

class Broken : public Subject {
 public:
  explicit Broken(std::string name, std::string what) : name_(std::move(name)), what_(std::move(what)) {}
  std::string spec() const override { return "broken:" + name_; }
  std::string describe() const override { return "deliberately broken: " + what_; }
  Capabilities capabilities() const override { return lib_.capabilities(); }
  ClaimSet claims() const override { return lib_.claims(); }  // claims what the library claims
  Status call(const Call& c) override { return lib_.call(c); }

 protected:
  Accurate lib_;
  // Results as doubles and back (values of the format, exact both ways).
  static std::vector<double> get(const Call& c) { return decode(c.op.format, c.out, c.n); }
  static void put(const Call& c, const std::vector<double>& r) {
    const std::vector<unsigned char> bytes = encode(c.op.format, r);
    if (!bytes.empty()) std::memcpy(c.out, bytes.data(), bytes.size());
  }
  // The library's forward, then r = edit(x, r) on each result (a backward passes through).
  template <class Edit>
  Status forward_edited(const Call& c, Edit edit) {
    const Status s = lib_.call(c);
    if (!s.ok() || c.op.direction != Direction::forward) return s;
    const std::vector<double> x = decode(c.op.format, c.x, c.n);
    std::vector<double> r = get(c);
    for (std::size_t i = 0; i < c.n; ++i) r[i] = edit(x[i], r[i]);
    put(c, r);
    return s;
  }
  // The neighbour of v in fmt away from zero (v a value of fmt; ±inf and NaN stay).
  static double away(Format fmt, double v) { return next_in(fmt, v, std::copysign(INFINITY, v)); }

 private:
  std::string name_, what_;
};

// The exact GELU where the tanh form is asked (the two are ~1e-3 apart).
struct ErfForTanh final : Broken {
  ErfForTanh() : Broken("erf-for-tanh", "computes the erf form where the tanh form is asked") {}
  Status call(const Call& c) override {
    Call e = c;
    e.op.form = Form::erf;
    return lib_.call(e);
  }
};

// 0.0447 typed for 0.044715 in the tanh form's value (stable form x / (1 + e^(-2u))).
struct ChangedConstant final : Broken {
  ChangedConstant() : Broken("constant-0.0447", "0.0447 typed for 0.044715 in the tanh form's value") {}
  Status call(const Call& c) override {
    if (c.op.form != Form::tanh) return lib_.call(c);
    return forward_edited(c, [&](double x, double r) {
      if (!std::isfinite(x) || std::fabs(x) >= 1e100) return r;
      const double u = kSqrt2OverPi * (x + 0.0447 * (x * x * x));
      return round_to_format(x / (1.0 + std::exp(-2.0 * u)), c.op.format);
    });
  }
};

// The ½ forgotten: x·(1 + tanh u) and x·(1 + erf(x/√2)).
struct MissingHalf final : Broken {
  MissingHalf() : Broken("missing-half", "the forward forgets the factor 1/2") {}
  Status call(const Call& c) override {
    return forward_edited(c, [&](double, double r) { return round_to_format(2 * r, c.op.format); });
  }
};

// NaN at -inf for the value, as 0.5·x·(1 + tanh(u)) gives (-inf · 0).
struct NanAtMinusInf final : Broken {
  NanAtMinusInf() : Broken("nan-at-minus-inf", "the forward returns NaN at -inf") {}
  Status call(const Call& c) override {
    return forward_edited(c, [](double x, double r) {
      return x == -std::numeric_limits<double>::infinity() ? std::numeric_limits<double>::quiet_NaN() : r;
    });
  }
};

// The derivative without its product-rule term: Φ(x) alone (resp. ½(1 + tanh u)).
struct DerivMissingTerm final : Broken {
  DerivMissingTerm() : Broken("deriv-missing-term", "the backward drops the product rule's x·f'-term") {}
  Status call(const Call& c) override {
    if (c.op.direction != Direction::backward) return lib_.call(c);
    const std::vector<double> x = decode(c.op.format, c.x, c.n);
    const std::vector<double> dy = decode(c.op.format, c.dy, c.n);
    std::vector<double> r(c.n);
    for (std::size_t i = 0; i < c.n; ++i) {
      double d;
      if (c.op.form == Form::erf) {
        d = 0.5 * std::erfc(-x[i] * 0x1.6a09e667f3bcdp-1);  // x·(1/√2)
      } else {
        const double u = kSqrt2OverPi * (x[i] + kCubic * (x[i] * x[i] * x[i]));
        d = 1.0 / (1.0 + std::exp(-2.0 * u));
      }
      r[i] = round_to_format(dy[i] * d, c.op.format);
    }
    put(c, r);
    return Status::success();
  }
};

// backward returning the Jacobian's diagonal: dy is ignored.
struct BackwardIgnoresDy final : Broken {
  BackwardIgnoresDy() : Broken("backward-ignores-dy", "the backward ignores dy (returns f'(x))") {}
  Status call(const Call& c) override {
    if (c.op.direction != Direction::backward) return lib_.call(c);
    const std::vector<double> ones(c.n, 1.0);
    const std::vector<unsigned char> one = encode(c.op.format, ones);
    Call e = c;
    e.dy = one.data();
    return lib_.call(e);
  }
};

// backward evaluating the derivative at the forward output y = f(x) instead of at x.
struct BackwardReadsOutput final : Broken {
  BackwardReadsOutput()
      : Broken("backward-reads-output", "the backward evaluates f' at the forward output f(x)") {}
  Status call(const Call& c) override {
    if (c.op.direction != Direction::backward) return lib_.call(c);
    std::vector<unsigned char> y(c.n * element_size(c.op.format));
    Call f = c;
    f.op.direction = Direction::forward;
    f.dy = nullptr;
    f.out = y.data();
    if (Status s = lib_.call(f); !s.ok()) return s;
    Call b = c;
    b.x = y.data();
    return lib_.call(b);
  }
};

// Stores its results into x as well (an "in-place" memory saving): every result is right, but
// the caller's input is gone.
struct WritesInput final : Broken {
  WritesInput() : Broken("writes-input", "writes its results into x as well (in place)") {}
  Status call(const Call& c) override {
    const Status s = lib_.call(c);
    if (s.ok() && c.n > 0) std::memcpy(const_cast<void*>(c.x), c.out, c.n * element_size(c.op.format));
    return s;
  }
};

// A "vectorised" kernel in blocks of 8 whose scalar tail (the last n mod 8 elements of a call)
// was written separately and computes through the naive path (without the library: one ulp away
// from zero): an element's bits depend on where it sits.
struct VectorTail final : Broken {
#if GELUCHECK_WITH_LIBRARY
  VectorTail() : Broken("vector-tail", "the last n mod 8 elements of a call take the naive path") {}
#else
  VectorTail() : Broken("vector-tail", "the last n mod 8 elements of a call are one ulp off") {}
#endif
  Status call(const Call& c) override {
    const std::size_t body = c.n - c.n % 8, w = element_size(c.op.format);
    Call head = c, tail = c;
    head.n = body;
    tail.n = c.n - body;
    tail.x = static_cast<const unsigned char*>(c.x) + body * w;
    tail.dy = c.dy ? static_cast<const unsigned char*>(c.dy) + body * w : nullptr;
    tail.out = static_cast<unsigned char*>(c.out) + body * w;
    if (Status s = lib_.call(head); !s.ok()) return s;
#if GELUCHECK_WITH_LIBRARY
    return naive_.call(tail);
  }
  LibrarySubject naive_{Path::naive};
#else
    const Status s = lib_.call(tail);
    if (!s.ok()) return s;
    std::vector<double> r = get(tail);
    for (double& v : r) v = away(c.op.format, v);
    put(tail, r);
    return s;
  }
#endif
};

// Non-deterministic: every second call moves its results in [-10, -1) one ulp away from zero
// (as a kernel whose reduction order depends on a thread schedule would).
struct SecondCallDiffers final : Broken {
  SecondCallDiffers()
      : Broken("second-call-differs", "every second call gives other bits for x in [-10, -1)") {}
  Status call(const Call& c) override {
    const Status s = lib_.call(c);
    if (!s.ok() || (calls_++ % 2) == 0) return s;
    const std::vector<double> x = decode(c.op.format, c.x, c.n);
    std::vector<double> r = get(c);
    for (std::size_t i = 0; i < c.n; ++i)
      if (x[i] >= -10 && x[i] < -1) r[i] = away(c.op.format, r[i]);
    put(c, r);
    return s;
  }
  unsigned long calls_ = 0;
};

// Says it provides every op, but fails every 16-bit call.
struct Lies final : Broken {
  Lies() : Broken("lies", "says it provides the 16-bit formats, then fails every such call") {}
  Status call(const Call& c) override {
    if (c.op.format == Format::binary16 || c.op.format == Format::bfloat16)
      return Status::make(Status::Kind::failed, "not implemented");
    return lib_.call(c);
  }
};

// A regression confined to one function, format and range of x: results moved `ulps` away from
// zero, or -0 results replaced by +0. Spec: broken:away:ULPS[:FUNCTION@DT[:LO,HI]] and
// broken:plus-zero[:FUNCTION@DT[:LO,HI]] (docs/subjects.md). Used by the gate's tests.
struct Confined final : Broken {
  Confined(std::string name, std::string what, int ulps, bool plus_zero,
           std::optional<Function> fn, std::optional<Format> fmt, double lo, double hi)
      : Broken(std::move(name), std::move(what)), ulps_(ulps), plus_zero_(plus_zero), fn_(fn),
        fmt_(fmt), lo_(lo), hi_(hi) {}
  Status call(const Call& c) override {
    const Status s = lib_.call(c);
    if (!s.ok()) return s;
    if (fmt_ && *fmt_ != c.op.format) return s;
    if (fn_ && fn_->form != c.op.form) return s;
    if (fn_ && (fn_->quantity == Quantity::value) != (c.op.direction == Direction::forward)) return s;
    const std::vector<double> x = decode(c.op.format, c.x, c.n);
    std::vector<double> r = get(c);
    for (std::size_t i = 0; i < c.n; ++i) {
      if (!(x[i] >= lo_ && x[i] < hi_)) continue;
      for (int k = 0; k < ulps_; ++k) r[i] = away(c.op.format, r[i]);
      if (plus_zero_ && r[i] == 0 && std::signbit(r[i])) r[i] = 0.0;
    }
    put(c, r);
    return s;
  }
  int ulps_;
  bool plus_zero_;
  std::optional<Function> fn_;
  std::optional<Format> fmt_;
  double lo_, hi_;
};

std::unique_ptr<Subject> make_confined(std::string_view rest, bool plus_zero) {
  // rest: [ULPS][:FUNCTION@DT[:LO,HI]]
  auto fields = [](std::string_view s) {
    std::vector<std::string> v;
    std::size_t b = 0;
    for (;;) {
      const std::size_t e = s.find(':', b);
      v.emplace_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
      if (e == std::string_view::npos) break;
      b = e + 1;
    }
    return v;
  };
  const std::vector<std::string> f = rest.empty() ? std::vector<std::string>{} : fields(rest);
  std::size_t k = 0;
  int ulps = 0;
  auto bad = [&](const std::string& why) {
    return SpecError(SpecError::Kind::usage, "broken:" + std::string(plus_zero ? "plus-zero" : "away") +
                                                 ":" + std::string(rest) + ": " + why);
  };
  if (!plus_zero) {
    if (f.empty()) throw bad("want away:ULPS[:FUNCTION@DT[:LO,HI]]");
    try {
      ulps = std::stoi(f[k++]);
    } catch (...) {
      throw bad("ULPS is not an integer");
    }
    if (ulps < 1 || ulps > 1000) throw bad("ULPS must be in [1, 1000]");
  }
  std::optional<Function> fn;
  std::optional<Format> fmt;
  double lo = -INFINITY, hi = INFINITY;
  std::string what = plus_zero ? "-0 results replaced by +0" : std::to_string(ulps) + " ulp(s) away from zero";
  if (k < f.size()) {
    const std::string& sel = f[k++];
    const std::size_t at = sel.find('@');
    fn = parse_function(sel.substr(0, at));
    if (!fn) throw bad("unknown function " + sel.substr(0, at));
    if (at != std::string::npos) {
      fmt = parse_dtype(sel.substr(at + 1));
      if (!fmt) throw bad("unknown format " + sel.substr(at + 1));
    }
    what += ", " + sel;
  }
  if (k < f.size()) {
    const std::string& range = f[k++];
    const std::size_t comma = range.find(',');
    const std::optional<double> a = parse_real(range.substr(0, comma));
    const std::optional<double> b =
        comma == std::string::npos ? std::nullopt : parse_real(range.substr(comma + 1));
    if (!a || !b) throw bad("range must be LO,HI");
    lo = *a;
    hi = *b;
    what += ", x in [" + range + ")";
  }
  if (k < f.size()) throw bad("too many fields");
  return std::make_unique<Confined>(std::string(plus_zero ? "plus-zero" : "away") +
                                        (rest.empty() ? "" : ":" + std::string(rest)),
                                    what, ulps, plus_zero, fn, fmt, lo, hi);
}

template <class T>
std::unique_ptr<Subject> mk() {
  return std::make_unique<T>();
}
struct BrokenEntry {
  const char* name;
  std::unique_ptr<Subject> (*make)();
};
constexpr BrokenEntry kBroken[] = {
    {"erf-for-tanh", mk<ErfForTanh>},
    {"constant-0.0447", mk<ChangedConstant>},
    {"missing-half", mk<MissingHalf>},
    {"nan-at-minus-inf", mk<NanAtMinusInf>},
    {"deriv-missing-term", mk<DerivMissingTerm>},
    {"backward-ignores-dy", mk<BackwardIgnoresDy>},
    {"backward-reads-output", mk<BackwardReadsOutput>},
    {"writes-input", mk<WritesInput>},
    {"vector-tail", mk<VectorTail>},
    {"second-call-differs", mk<SecondCallDiffers>},
    {"lies", mk<Lies>},
};

}  // namespace

bool library_built() { return GELUCHECK_WITH_LIBRARY != 0; }

const std::vector<std::string>& builtin_specs() {
  static const std::vector<std::string> specs =
      library_built() ? std::vector<std::string>{"accurate", "naive", "reference"}
                      : std::vector<std::string>{"reference"};
  return specs;
}

std::unique_ptr<Subject> open_builtin(std::string_view spec) {
#if GELUCHECK_WITH_LIBRARY
  if (spec == "accurate") return std::make_unique<LibrarySubject>(Path::accurate);
  if (spec == "naive") return std::make_unique<LibrarySubject>(Path::naive);
#else
  if (spec == "accurate" || spec == "naive")
    throw SpecError(SpecError::Kind::unavailable,
                    std::string(spec) + ": this gelucheck was built without the library under "
                    "test (GELUCHECK_WITH_LIBRARY=OFF, where long double is not x87's 80-bit "
                    "format)");
#endif
  if (spec == "reference") return std::make_unique<ReferenceSubject>();
  if (spec.rfind("broken:", 0) != 0) return nullptr;
  const std::string_view name = spec.substr(7);
  for (const BrokenEntry& e : kBroken)
    if (name == e.name) return e.make();
  if (name == "away" || name.rfind("away:", 0) == 0)
    return make_confined(name.size() > 5 ? name.substr(5) : std::string_view{}, false);
  if (name == "plus-zero" || name.rfind("plus-zero:", 0) == 0)
    return make_confined(name.size() > 10 ? name.substr(10) : std::string_view{}, true);
  std::string known;
  for (const std::string& n : broken_names()) known += (known.empty() ? "" : ", ") + n;
  throw SpecError(SpecError::Kind::usage,
                  "unknown broken variant \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> broken_names() {
  std::vector<std::string> v;
  for (const BrokenEntry& e : kBroken) v.emplace_back(e.name);
  v.emplace_back("away:ULPS[:FUNCTION@DT[:LO,HI]]");
  v.emplace_back("plus-zero[:FUNCTION@DT[:LO,HI]]");
  return v;
}

// The variants every check must catch (the fixed ones; the parameterised ones are the tests').
std::vector<std::string> must_fail_specs() {
  std::vector<std::string> v;
  for (const BrokenEntry& e : kBroken) v.push_back("broken:" + std::string(e.name));
  return v;
}

}  // namespace gelucheck::subject
