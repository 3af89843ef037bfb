// The seam's registry and the adapter for gelucheck::gelu (src/).
#include "gelucheck/proptests/subject.hpp"

#include "gelucheck/claims.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace gelucheck::prop {

void register_mutants();  // mutants.cpp: called here so that a static link keeps them

double Implementation::pdiv(Form f, std::span<const double> x, std::size_t i,
                            std::size_t j) const {
  return i == j ? deriv(f, x[i]) : 0.0;
}
float Implementation::pdiv(Form f, std::span<const float> x, std::size_t i, std::size_t j) const {
  return i == j ? deriv(f, x[i]) : 0.0f;
}
std::vector<double> Implementation::jacobian(Form f, std::span<const double> x) const {
  std::vector<double> J(x.size() * x.size(), 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) J[i * x.size() + i] = deriv(f, x[i]);
  return J;
}
std::vector<float> Implementation::jacobian(Form f, std::span<const float> x) const {
  std::vector<float> J(x.size() * x.size(), 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) J[i * x.size() + i] = deriv(f, x[i]);
  return J;
}

namespace {

class Library final : public Implementation {
 public:
  Library(Path path, std::string name, Claims claims)
      : path_(path), name_(std::move(name)), claims_(claims) {}
  std::string name() const override { return name_; }
  Claims claims() const override { return claims_; }
  double value(Form f, double x) const override { return gelucheck::scalar(f, x, path_); }
  float value(Form f, float x) const override { return gelucheck::scalar(f, x, path_); }
  double deriv(Form f, double x) const override { return gelucheck::scalar_deriv(f, x, path_); }
  float deriv(Form f, float x) const override { return gelucheck::scalar_deriv(f, x, path_); }
  void map(Form f, View<const double> x, View<double> out) const override {
    gelucheck::map(f, std::move(x), std::move(out), path_);
  }
  void map(Form f, View<const float> x, View<float> out) const override {
    gelucheck::map(f, std::move(x), std::move(out), path_);
  }
  void backward(Form f, View<const double> x, View<const double> dy,
                View<double> dx) const override {
    gelucheck::backward(f, std::move(x), std::move(dy), std::move(dx), path_);
  }
  void backward(Form f, View<const float> x, View<const float> dy,
                View<float> dx) const override {
    gelucheck::backward(f, std::move(x), std::move(dy), std::move(dx), path_);
  }
  double pdiv(Form f, std::span<const double> x, std::size_t i, std::size_t j) const override {
    return gelucheck::pdiv(f, x, i, j, path_);
  }
  float pdiv(Form f, std::span<const float> x, std::size_t i, std::size_t j) const override {
    return gelucheck::pdiv(f, x, i, j, path_);
  }
  std::vector<double> jacobian(Form f, std::span<const double> x) const override {
    return gelucheck::jacobian(f, x, path_);
  }
  std::vector<float> jacobian(Form f, std::span<const float> x) const override {
    return gelucheck::jacobian(f, x, path_);
  }

 private:
  Path path_;
  std::string name_;
  Claims claims_;
};

// What src/'s accurate path claims: gelucheck::claim() (claims.hpp, the one home of the claims),
// in the seam's terms. The suite's accuracy checks count a sign-of-zero mismatch as a failure in
// both formats, which is what claim() says for both.
Claims accurate_claims() {
  const Claim c64 = *claim(Path::accurate, Format::binary64);
  const Claim c32 = *claim(Path::accurate, Format::binary32);
  if (!c64.sign_of_zero || !c32.sign_of_zero)
    throw std::logic_error("check_accuracy requires the sign of zero");
  Claims c;
  c.ulp64 = c64.max_ulp;
  c.strict64 = !c64.inclusive;
  c.ulp32 = c32.max_ulp;
  c.strict32 = !c32.inclusive;
  c.specials = c64.claims_anything() && c32.claims_anything();  // every claim includes them
  return c;
}

struct Entry {
  Factory make;
  bool must_fail;
};
std::map<std::string, Entry>& table() {
  static std::map<std::string, Entry> t;
  return t;
}
std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

// The library's own subjects; the mutants register themselves in mutants.cpp.
const bool library_registered = [] {
  register_implementation("accurate", [] { return make_library(Path::accurate); });
  register_implementation("seed", [] { return make_library(Path::naive); });
  register_implementation(
      "naive",
      [] { return std::unique_ptr<Implementation>(
               new Library(Path::naive, "naive", accurate_claims())); },
      /*must_fail=*/true);
  register_mutants();
  return true;
}();

}  // namespace

std::unique_ptr<Implementation> make_library(Path path) {
  if (path == Path::accurate)
    return std::make_unique<Library>(Path::accurate, "accurate", accurate_claims());
  Claims seed;
  seed.seed_formula = true;
  return std::make_unique<Library>(Path::naive, "seed", seed);
}

void register_implementation(std::string name, Factory make, bool must_fail) {
  std::lock_guard<std::mutex> lock(table_mutex());
  table()[std::move(name)] = Entry{std::move(make), must_fail};
}

std::vector<Registered> registered() {
  std::lock_guard<std::mutex> lock(table_mutex());
  std::vector<Registered> out;
  for (const auto& [name, e] : table()) out.push_back({name, e.must_fail});
  return out;
}

const Implementation& subject() {
  static const std::unique_ptr<Implementation> chosen = [] {
    const char* env = std::getenv("GELUCHECK_IMPL");
    const std::string want = env && *env ? env : "accurate";
    std::lock_guard<std::mutex> lock(table_mutex());
    auto it = table().find(want);
    if (it == table().end()) {
      std::string known;
      for (const auto& [name, e] : table()) known += (known.empty() ? "" : ", ") + name;
      throw std::invalid_argument("GELUCHECK_IMPL=" + want +
                                  " is not a registered implementation (known: " + known + ")");
    }
    return it->second.make();
  }();
  return *chosen;
}

}  // namespace gelucheck::prop
