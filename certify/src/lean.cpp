// certify/src/lean.cpp — the certified statements as a Lean user would state them (Mathlib's ℝ,
// the GeluForm names geluScalar, geluErfScalar, geluScalarDeriv, geluErfScalarDeriv), with
// rational bounds: the file's enclosures rounded OUTWARD to 32 significant digits, so each
// statement is implied by its certificate. docs/lean.md holds this text between markers; the
// test LeanDocIsTheCertificates checks it is the current file's.
#include <string>

#include "common.hpp"
#include "gelucheck/certify.hpp"
#include "spec.hpp"

namespace gelucheck::certify {

namespace {

using nlohmann::json;
constexpr int kLeanDigits = 32;

// "d.ddde±N" -> "p / 10^k" (or "p * 10^k"), the same rational.
std::string rational(const std::string& dec) {
  if (dec == "0") return "0";
  const std::size_t e = dec.find('e');
  std::string mant = dec.substr(0, e);
  long exp = std::stol(dec.substr(e + 1));
  std::string sign;
  if (mant[0] == '-') {
    sign = "-";
    mant.erase(0, 1);
  }
  const std::size_t dot = mant.find('.');
  long frac = 0;
  if (dot != std::string::npos) {
    frac = static_cast<long>(mant.size() - dot - 1);
    mant.erase(dot, 1);
  }
  const long k = exp - frac;
  if (k == 0) return sign + mant;
  return k < 0 ? sign + mant + " / 10^" + std::to_string(-k) : sign + mant + " * 10^" + std::to_string(k);
}
// The bounds of an interval, rounded outward to kLeanDigits, as rationals.
std::string lo_of(const json& b) {
  Ball x;
  parse(b["lo"].get<std::string>(), x);
  return rational(decimal_down(x.v, kLeanDigits));
}
std::string hi_of(const json& b) {
  Ball x;
  parse(b["hi"].get<std::string>(), x);
  return rational(decimal_up(x.v, kLeanDigits));
}

// F, F' and F as a function in Lean; '@' stands for the variable.
struct LeanNames {
  const char* scan;
  const char* f;
  const char* fprime;
  const char* fun;
};
const LeanNames kNames[] = {
    {"gap.value", "(geluScalar @ - geluErfScalar @)", "(geluScalarDeriv @ - geluErfScalarDeriv @)",
     "(fun x => geluScalar x - geluErfScalar x)"},
    {"gap.derivative", "(geluScalarDeriv @ - geluErfScalarDeriv @)",
     "deriv (fun y => geluScalarDeriv y - geluErfScalarDeriv y) @",
     "(fun x => geluScalarDeriv x - geluErfScalarDeriv x)"},
    {"tanh.value", "geluScalar @", "geluScalarDeriv @", "geluScalar"},
    {"erf.value", "geluErfScalar @", "geluErfScalarDeriv @", "geluErfScalar"},
    {"tanh.derivative", "geluScalarDeriv @", "deriv geluScalarDeriv @", "geluScalarDeriv"},
    {"erf.derivative", "geluErfScalarDeriv @", "deriv geluErfScalarDeriv @", "geluErfScalarDeriv"},
    {"tanh.second", "deriv geluScalarDeriv @", "deriv (deriv geluScalarDeriv) @",
     "(deriv geluScalarDeriv)"},
    {"erf.second", "deriv geluErfScalarDeriv @", "deriv (deriv geluErfScalarDeriv) @",
     "(deriv geluErfScalarDeriv)"},
};
std::string at(const char* fmt, const std::string& x) {
  std::string s;
  for (const char* p = fmt; *p; ++p) s += *p == '@' ? x : std::string(1, *p);
  return s;
}
const LeanNames& names(const std::string& scan) {
  for (const LeanNames& n : kNames)
    if (scan == n.scan) return n;
  return kNames[0];
}

// Where each fact sits among the GeluForm theorems, and the checks that shadow it numerically.
struct Context {
  const char* fact;
  const char* theorems;
  const char* checks;
};
const Context kContext[] = {
    {"gap_value_sup", "`GeluForm.scalar_tanh`, `GeluForm.scalar_erf` (the two forms' `scalar`)",
     "proptests/scalar.cpp `tanh_erf_gap.reference_value_gap_bounded`, "
     "`tanh_erf_gap.impl_gap_bounded_*`, `tanh_erf_gap.reference_bounds_are_attained`; "
     "tests/reference/test_reference.cpp `Reference.GapSuprema`"},
    {"gap_deriv_sup", "`GeluForm.scalarDeriv_tanh`, `GeluForm.scalarDeriv_erf`",
     "proptests/scalar.cpp `tanh_erf_gap.reference_deriv_gap_bounded`, "
     "`tanh_erf_gap.impl_gap_bounded_*`, `tanh_erf_gap.reference_bounds_are_attained`; "
     "tests/reference/test_reference.cpp `Reference.GapSuprema`"},
    {"min_tanh", "`GeluForm.scalar_tanh`",
     "proptests/scalar.cpp `bound_minimum.reference`, `bound_minimum.impl_*`; "
     "tests/reference/test_reference.cpp `Reference.MinimaAtTheArgmins`"},
    {"min_erf", "`GeluForm.scalar_erf`",
     "proptests/scalar.cpp `bound_minimum.reference`, `bound_minimum.impl_*`; "
     "tests/reference/test_reference.cpp `Reference.MinimaAtTheArgmins`"},
    {"deriv_zero_tanh", "`GeluForm.scalarDeriv_tanh`",
     "proptests/scalar.cpp `bound_monotone.reference`, `bound_monotone.impl_*`"},
    {"deriv_zero_erf", "`GeluForm.scalarDeriv_erf`",
     "proptests/scalar.cpp `bound_monotone.reference`, `bound_monotone.impl_*`"},
    {"deriv_max_tanh", "`GeluForm.scalarDeriv_tanh`",
     "proptests/scalar.cpp `bound_derivative_range.reference`, `bound_derivative_range.impl_*`"},
    {"deriv_min_tanh", "`GeluForm.scalarDeriv_tanh`",
     "proptests/scalar.cpp `bound_derivative_range.reference`, `bound_derivative_range.impl_*`"},
    {"deriv_max_erf", "`GeluForm.scalarDeriv_erf`",
     "proptests/scalar.cpp `bound_derivative_range.reference`, `bound_derivative_range.impl_*`"},
    {"deriv_min_erf", "`GeluForm.scalarDeriv_erf`",
     "proptests/scalar.cpp `bound_derivative_range.reference`, `bound_derivative_range.impl_*`"},
    {"deriv_sup_abs_tanh", "`GeluForm.scalarDeriv_tanh`",
     "proptests/scalar.cpp `special_finite_in_finite_out.impl_*` (through `lipschitz`)"},
    {"deriv_sup_abs_erf", "`GeluForm.scalarDeriv_erf`",
     "proptests/scalar.cpp `special_finite_in_finite_out.impl_*` (through `lipschitz`)"},
    {"second_sup_abs_tanh", "`GeluForm.scalarDeriv_tanh`",
     "proptests/theorems.cpp `scalar_differentiable.impl_no_jumps_*` (the derivative's jumps)"},
    {"second_sup_abs_erf", "`GeluForm.scalarDeriv_erf`",
     "proptests/theorems.cpp `scalar_differentiable.impl_no_jumps_*` (the derivative's jumps)"},
    {"lipschitz", "`GeluForm.scalar_differentiable`, `GeluForm.scalarDeriv_tanh`, `GeluForm.scalarDeriv_erf`",
     "proptests/theorems.cpp `scalar_differentiable.impl_no_jumps_*`; proptests/scalar.cpp "
     "`special_finite_in_finite_out.impl_*`"},
};

// "x₁ x₂ …" names, and "a ≤ x₁ ∧ x₁ ≤ b ∧ …" for the locations (x = 0 exactly for the zero at 0).
std::string var(std::size_t i) { return "x" + std::to_string(i + 1); }
std::string locs(const json& roots, const std::vector<std::size_t>& which) {
  std::string s;
  for (std::size_t k = 0; k < which.size(); ++k) {
    const json& at = roots[which[k]]["at"];
    if (k) s += " ∧\n    ";
    if (at["lo"] == "0" && at["hi"] == "0")
      s += var(k) + " = 0";
    else
      s += lo_of(at) + " ≤ " + var(k) + " ∧ " + var(k) + " ≤ " + hi_of(at);
  }
  return s;
}
std::string vars(std::size_t n) {
  std::string s;
  for (std::size_t k = 0; k < n; ++k) s += (k ? " " : "") + var(k);
  return s;
}
std::string alternatives(std::size_t n) {
  std::string s;
  for (std::size_t k = 0; k < n; ++k) s += (k ? " ∨ x = " : "x = ") + var(k);
  return s;
}

std::string fact_block(const json& f, const json& scan) {
  const LeanNames& n = names(scan["name"]);
  const std::string kind = f["kind"];
  const json& roots = scan["roots"];
  std::vector<std::size_t> which;
  for (const json& i : f["at"]) which.push_back(i.get<std::size_t>());
  const std::string lo = lo_of(f["value"]), hi = hi_of(f["value"]);
  std::string F = at(n.f, "x");
  if (kind == "max_abs") F = "|" + F + "|";
  const std::string ex = "∃ s " + vars(which.size()) + " : ℝ, " + lo + " ≤ s ∧ s ≤ " + hi + " ∧\n    " +
                         locs(roots, which) + " ∧\n    ";
  if (kind == "zero")
    return "∃ x1 : ℝ, " + locs(roots, which) + " ∧\n    ∀ x : ℝ, " + at(n.fprime, "x") + " = 0 ↔ x = x1";
  const std::string cmp = kind == "min" ? "s ≤ " + F : F + " ≤ s";
  return ex + "(∀ x : ℝ, " + cmp + ") ∧ (∀ x : ℝ, " + F + " = s ↔ " + alternatives(which.size()) + ")";
}

// Every critical point of F (all the zeros of F' on ℝ), each a strict local extremum or not.
std::string scan_block(const json& scan) {
  const LeanNames& n = names(scan["name"]);
  const json& roots = scan["roots"];
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < roots.size(); ++i) all.push_back(i);
  std::string s = "∃ " + vars(all.size()) + " : ℝ, " + locs(roots, all) + " ∧\n    (∀ x : ℝ, " +
                  at(n.fprime, "x") + " = 0 ↔ " + alternatives(all.size()) + ")";
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const std::string e = roots[i]["extremum"];
    const std::string x = var(i);
    const std::string fx = at(n.f, x);
    s += " ∧\n    " + lo_of(roots[i]["value"]) + " ≤ " + fx + " ∧ " + fx + " ≤ " + hi_of(roots[i]["value"]);
    if (e != "none") s += std::string(" ∧ IsLocal") + (e == "max" ? "Max " : "Min ") + n.fun + " " + x;
  }
  return s;
}

}  // namespace

std::string lean_statements(const json& cert) {
  std::string out;
  auto scan_of = [&](const std::string& name) -> const json& {
    for (const json& s : cert["scans"])
      if (s["name"] == name) return s;
    return cert["scans"][0];
  };
  for (const json& f : cert["facts"]) {
    const std::string name = f["name"];
    const Context* c = nullptr;
    for (const Context& k : kContext)
      if (name == k.fact) c = &k;
    out += "### `" + name + "`: " + f["statement"].get<std::string>() + "\n\n```lean\n";
    if (f["kind"] == "max_of") {
      const std::string hi = hi_of(f["value"]);
      out += "∀ x : ℝ, |geluScalarDeriv x| ≤ " + hi + " ∧ |geluErfScalarDeriv x| ≤ " + hi + "\n";
      out += "-- hence (mean value theorem), for each form f: ∀ x y : ℝ, |f x - f y| ≤ " + hi +
             " * |x - y|\n";
    } else {
      out += fact_block(f, scan_of(f["scan"])) + "\n";
      if (f["kind"] == "max_abs" || f["kind"] == "max")
        out += "-- with the rational bound alone: ∀ x : ℝ, " +
               std::string(f["kind"] == "max_abs" ? "|" : "") + at(names(f["scan"]).f, "x") +
               (f["kind"] == "max_abs" ? "|" : "") + " ≤ " + hi_of(f["value"]) + "\n";
      if (f["kind"] == "min")
        out += "-- with the rational bound alone: ∀ x : ℝ, " + lo_of(f["value"]) + " ≤ " +
               at(names(f["scan"]).f, "x") + "\n";
    }
    out += "```\n\n";
    if (c) out += "Relates to " + std::string(c->theorems) + ". Shadowed by " + c->checks + ".\n\n";
  }
  out += "### Every critical point of each function\n\n"
         "All the zeros of F' over ℝ, the value of F at each, and which are strict local extrema "
         "(the scans of the certificate file; `deriv` is Mathlib's).\n\n";
  for (const json& s : cert["scans"]) {
    out += "`" + s["name"].get<std::string>() + "`, F = " + s["function"].get<std::string>() +
           ":\n\n```lean\n" + scan_block(s) + "\n```\n\n";
  }
  return out;
}

}  // namespace gelucheck::certify
