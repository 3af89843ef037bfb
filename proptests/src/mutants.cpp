// The deliberately broken variants of issue 4, point 8: each one is the accurate library with
// one realistic mistake, claims what the library claims, and must make at least one property
// fail (proptests/bite.cpp runs the suite against each and checks it). They are registered
// under "mutant_*" names; `gelucheck_proptests --list-subjects` lists them.
#include <cmath>
#include <limits>

#include "gelucheck/constants.hpp"
#include "gelucheck/proptests/subject.hpp"
#include "gelucheck/proptests/views.hpp"

namespace gelucheck::prop {

namespace {

// √(2/π) and 0.044715 rounded to nearest binary64: the library's own (constants.hpp), so a
// mutant differs from what it mutates by its one mistake only.
using constants::kCubic;
using constants::kSqrt2OverPi;

// Forwards everything to the accurate library; a mutant overrides what it breaks. The default
// map/backward go element by element through the (possibly broken) scalar functions, so that a
// broken scalar shows up in the vector functions as it would in a real library.
class Mutant : public Implementation {
 public:
  explicit Mutant(std::string name) : name_(std::move(name)), lib_(make_library(Path::accurate)) {}
  std::string name() const override { return name_; }
  Claims claims() const override { return lib_->claims(); }
  double value(Form f, double x) const override { return lib_->value(f, x); }
  float value(Form f, float x) const override { return lib_->value(f, x); }
  double deriv(Form f, double x) const override { return lib_->deriv(f, x); }
  float deriv(Form f, float x) const override { return lib_->deriv(f, x); }
  void map(Form f, View<const double> x, View<double> out) const override { map_t(f, x, out); }
  void map(Form f, View<const float> x, View<float> out) const override { map_t(f, x, out); }
  void backward(Form f, View<const double> x, View<const double> dy,
                View<double> dx) const override {
    backward_t(f, x, dy, dx);
  }
  void backward(Form f, View<const float> x, View<const float> dy,
                View<float> dx) const override {
    backward_t(f, x, dy, dx);
  }

 protected:
  template <class T>
  void map_t(Form f, const View<const T>& x, const View<T>& out) const {
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
      out.data[offset_of(out, idx)] = value(f, x.data[offset_of(x, idx)]);
    });
  }
  template <class T>
  void backward_t(Form f, const View<const T>& x, const View<const T>& dy,
                  const View<T>& dx) const {
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
      dx.data[offset_of(dx, idx)] = dy.data[offset_of(dy, idx)] * deriv(f, x.data[offset_of(x, idx)]);
    });
  }
  const Implementation& lib() const { return *lib_; }

 private:
  std::string name_;
  std::unique_ptr<Implementation> lib_;
};

// The exact GELU where the tanh form is asked (the course's warning: ~1e-3 apart).
struct ErfForTanh final : Mutant {
  ErfForTanh() : Mutant("mutant_erf_for_tanh") {}
  double value(Form, double x) const override { return lib().value(Form::erf, x); }
  float value(Form, float x) const override { return lib().value(Form::erf, x); }
  double deriv(Form, double x) const override { return lib().deriv(Form::erf, x); }
  float deriv(Form, float x) const override { return lib().deriv(Form::erf, x); }
};

// 0.0447 typed for 0.044715 in the tanh form's value (stable form x / (1 + e^(-2u))).
struct ChangedConstant final : Mutant {
  ChangedConstant() : Mutant("mutant_constant_0_0447") {}
  static double v(double x) {
    const double u = kSqrt2OverPi * (x + 0.0447 * (x * x * x));
    return x / (1.0 + std::exp(-2.0 * u));
  }
  double value(Form f, double x) const override {
    return f == Form::tanh && std::isfinite(x) && std::fabs(x) < 1e100 ? v(x) : lib().value(f, x);
  }
  float value(Form f, float x) const override {
    return f == Form::tanh && std::isfinite(x) ? static_cast<float>(v(x)) : lib().value(f, x);
  }
};

// The seed's own expression with pow(x, 3) for x*x*x: a subject that claims to be the seed.
struct PowCube final : Mutant {
  PowCube() : Mutant("mutant_pow_cube"), seed_(make_library(Path::naive)) {}
  Claims claims() const override { return seed_->claims(); }
  double value(Form f, double x) const override {
    if (f == Form::erf) return seed_->value(f, x);
    return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + kCubic * std::pow(x, 3.0))));
  }
  float value(Form f, float x) const override { return seed_->value(f, x); }
  double deriv(Form f, double x) const override { return seed_->deriv(f, x); }
  float deriv(Form f, float x) const override { return seed_->deriv(f, x); }
  std::unique_ptr<Implementation> seed_;
};

// The ½ forgotten: x·(1 + tanh u) and x·(1 + erf(x/√2)).
struct MissingHalf final : Mutant {
  MissingHalf() : Mutant("mutant_missing_half") {}
  double value(Form f, double x) const override { return 2.0 * lib().value(f, x); }
  float value(Form f, float x) const override { return 2.0f * lib().value(f, x); }
};

// NaN at -inf for the value, as 0.5·x·(1 + tanh(u)) gives (-inf · 0).
struct NanAtMinusInf final : Mutant {
  NanAtMinusInf() : Mutant("mutant_nan_at_minus_inf") {}
  double value(Form f, double x) const override {
    return x == -std::numeric_limits<double>::infinity() ? std::numeric_limits<double>::quiet_NaN()
                                                          : lib().value(f, x);
  }
  float value(Form f, float x) const override {
    return x == -std::numeric_limits<float>::infinity() ? std::numeric_limits<float>::quiet_NaN()
                                                         : lib().value(f, x);
  }
};

// The derivative without its product-rule term: Φ(x) alone (resp. ½(1 + tanh u)).
struct DerivMissingTerm final : Mutant {
  DerivMissingTerm() : Mutant("mutant_deriv_missing_term") {}
  static double d(Form f, double x) {
    if (f == Form::erf) return 0.5 * std::erfc(-x * 0x1.6a09e667f3bcdp-1);  // x·(1/√2)
    const double u = kSqrt2OverPi * (x + kCubic * (x * x * x));
    return 1.0 / (1.0 + std::exp(-2.0 * u));
  }
  double deriv(Form f, double x) const override { return d(f, x); }
  float deriv(Form f, float x) const override { return static_cast<float>(d(f, x)); }
};

// backward returning the Jacobian's diagonal: dy is ignored.
struct BackwardIgnoresDy final : Mutant {
  BackwardIgnoresDy() : Mutant("mutant_backward_ignores_dy") {}
  template <class T>
  void bw(Form f, const View<const T>& x, const View<T>& dx) const {
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
      dx.data[offset_of(dx, idx)] = deriv(f, x.data[offset_of(x, idx)]);
    });
  }
  void backward(Form f, View<const double> x, View<const double>, View<double> dx) const override {
    bw(f, x, dx);
  }
  void backward(Form f, View<const float> x, View<const float>, View<float> dx) const override {
    bw(f, x, dx);
  }
};

// backward evaluating the derivative at the forward output y = f(x) instead of at x.
struct BackwardReadsOutput final : Mutant {
  BackwardReadsOutput() : Mutant("mutant_backward_reads_output") {}
  template <class T>
  void bw(Form f, const View<const T>& x, const View<const T>& dy, const View<T>& dx) const {
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
      const T y = value(f, x.data[offset_of(x, idx)]);
      dx.data[offset_of(dx, idx)] = dy.data[offset_of(dy, idx)] * deriv(f, y);
    });
  }
  void backward(Form f, View<const double> x, View<const double> dy,
                View<double> dx) const override {
    bw(f, x, dy, dx);
  }
  void backward(Form f, View<const float> x, View<const float> dy, View<float> dx) const override {
    bw(f, x, dy, dx);
  }
};

// backward that stores the derivative into x (an "in-place" saving of memory) and then scales:
// every result is right, but the caller's x is gone.
struct BackwardWritesX final : Mutant {
  BackwardWritesX() : Mutant("mutant_backward_writes_x") {}
  template <class T>
  void bw(Form f, const View<const T>& x, const View<const T>& dy, const View<T>& dx) const {
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
      T* xp = const_cast<T*>(x.data + offset_of(x, idx));
      *xp = deriv(f, *xp);
      dx.data[offset_of(dx, idx)] = dy.data[offset_of(dy, idx)] * *xp;
    });
  }
  void backward(Form f, View<const double> x, View<const double> dy,
                View<double> dx) const override {
    bw(f, x, dy, dx);
  }
  void backward(Form f, View<const float> x, View<const float> dy, View<float> dx) const override {
    bw(f, x, dy, dx);
  }
};

// A "vectorised" map in blocks of 8 whose scalar tail loop (the last n mod 8 elements) was
// written separately and computes through float (double map) or the naive path (float map).
struct VectorTail final : Mutant {
  VectorTail() : Mutant("mutant_vector_tail") {}
  template <class T, class Tail>
  void mp(Form f, const View<const T>& x, const View<T>& out, Tail tail) const {
    const std::size_t n = element_count(x.shape);
    const std::size_t body = n - n % 8;
    for_each_index(x.shape, [&](const std::vector<std::size_t>& idx, std::size_t flat) {
      const T xi = x.data[offset_of(x, idx)];
      out.data[offset_of(out, idx)] = flat < body ? lib().value(f, xi) : tail(xi);
    });
  }
  void map(Form f, View<const double> x, View<double> out) const override {
    mp(f, x, out, [&](double v) {
      return static_cast<double>(lib().value(f, static_cast<float>(v)));
    });
  }
  void map(Form f, View<const float> x, View<float> out) const override {
    mp(f, x, out, [&](float v) { return gelucheck::scalar(f, v, Path::naive); });
  }
};

// A Jacobian with a band: entry (i, i+1) repeats the diagonal.
struct BandedJacobian final : Mutant {
  BandedJacobian() : Mutant("mutant_banded_jacobian") {}
  double pdiv(Form f, std::span<const double> x, std::size_t i, std::size_t j) const override {
    return i == j || j == i + 1 ? deriv(f, x[i]) : 0.0;
  }
  float pdiv(Form f, std::span<const float> x, std::size_t i, std::size_t j) const override {
    return i == j || j == i + 1 ? deriv(f, x[i]) : 0.0f;
  }
  template <class T>
  std::vector<T> jac(Form f, std::span<const T> x) const {
    std::vector<T> J(x.size() * x.size(), T(0));
    for (std::size_t i = 0; i < x.size(); ++i)
      for (std::size_t j = 0; j < x.size(); ++j) J[i * x.size() + j] = pdiv(f, x, i, j);
    return J;
  }
  std::vector<double> jacobian(Form f, std::span<const double> x) const override {
    return jac(f, x);
  }
  std::vector<float> jacobian(Form f, std::span<const float> x) const override {
    return jac(f, x);
  }
};

template <class M>
void reg() {
  const std::string name = M().name();
  register_implementation(name, [] { return std::unique_ptr<Implementation>(new M()); },
                          /*must_fail=*/true);
}

}  // namespace

void register_mutants() {
  reg<ErfForTanh>();
  reg<ChangedConstant>();
  reg<PowCube>();
  reg<MissingHalf>();
  reg<NanAtMinusInf>();
  reg<DerivMissingTerm>();
  reg<BackwardIgnoresDy>();
  reg<BackwardReadsOutput>();
  reg<BackwardWritesX>();
  reg<VectorTail>();
  reg<BandedJacobian>();
}

}  // namespace gelucheck::prop
