// certify/src/search.cpp — the search that writes the certificates: for each scan, a bisection
// of [−L, L] into boxes each of which either has F' of one sign, or holds exactly one simple
// zero of F' (Krawczyk), or is the centre box around a zero of known order at 0; then each
// zero refined by interval Newton to ~1e-48, F evaluated there, and the facts read off.
#include <cmath>
#include <stdexcept>

#include <flint/flint.h>
#include <mpfr.h>

#include "boxes.hpp"
#include "common.hpp"
#include "gelucheck/certify.hpp"
#include "gelucheck/common.hpp"

namespace gelucheck::certify {

std::string arb_version_string() { return ::arb_version; }
std::string flint_version_string() { return FLINT_VERSION; }
std::string mpfr_version_string() { return mpfr_get_version(); }

namespace {

using nlohmann::json;

// Boxes narrower than this are not bisected further: the search gives up (a zero of F' too
// close to a box end, or of higher order than known). Never reached by the scans of spec.cpp.
constexpr double kMinWidth = 0x1p-30;

struct Subdivision {
  std::vector<double> ends;  // ends[0] = −L, ..., ends.back() = L
  std::string kinds;         // one per box: '-', '+', 'K', 'Z'
};

void bisect(const ScanSpec& s, double lo, double hi, Subdivision& out) {
  char kind = 0;
  if (const int sg = sign_of_fprime(s, lo, hi); sg != 0)
    kind = sg > 0 ? '+' : '-';
  else if (krawczyk(s, lo, hi))
    kind = 'K';
  if (kind) {
    out.ends.push_back(hi);
    out.kinds.push_back(kind);
    return;
  }
  if (hi - lo < kMinWidth)
    throw std::runtime_error(std::string(s.name) + ": no verdict on the box [" + hexfloat(lo) +
                             ", " + hexfloat(hi) + "]");
  const double mid = lo + (hi - lo) / 2;  // exact: dyadic ends, far from underflow
  bisect(s, lo, mid, out);
  bisect(s, mid, hi, out);
}

// The zero of F' in the Krawczyk box [lo, hi], by interval Newton N(X) = m − F'(m)/F''(X)
// intersected with X (each step keeps the zero, which is unique in the box), to a radius
// below 2^-160.
Ball refine(const ScanSpec& s, double lo, double hi) {
  Ball X = interval(lo, hi);
  for (int it = 0; it < 200; ++it) {
    Ball m, fm, dX, N;
    arb_get_mid_arb(m.v, X.v);
    derivative(s.base, s.order + 1, m.v, fm.v);
    on_ball(s, 2, X.v, dX);
    arb_div(N.v, fm.v, dX.v, kPrec);
    arb_sub(N.v, m.v, N.v, kPrec);
    if (!arb_intersection(X.v, X.v, N.v, kPrec))
      throw std::runtime_error(std::string(s.name) + ": Newton lost the zero");
    if (mag_cmp_2exp_si(arb_radref(X.v), -160) < 0) return X;
  }
  throw std::runtime_error(std::string(s.name) + ": Newton did not converge");
}

json root_json(const ScanSpec& s, std::size_t box, int order, const Ball& at, const char* extremum) {
  json r = {{"box", box}, {"order", order}, {"at", bounds_json(at.v)}, {"extremum", extremum}};
  Ball where, value;
  bounds_ball(r["at"], where);  // F over the written location, as the check will evaluate it
  derivative(s.base, s.order, where.v, value.v);
  r["value"] = bounds_json(value.v);
  return r;
}

json tail_json(const Tail& t) {
  json q = json::array();
  for (const TailQuantity& x : t.quantities)
    q.push_back({{"name", x.name},
                 {"condition", x.condition},
                 {"value", bounds_json(x.value.v)},
                 {"holds", x.holds}});
  return {{"lemma", t.lemma},
          {"statement", t.statement},
          {"sign_of_fprime_right", t.sign_right},
          {"sign_of_fprime_left", t.sign_left},
          {"quantities", q}};
}

json scan_json(const ScanSpec& s, std::string* log) {
  Subdivision sub;
  sub.ends.push_back(-kL);
  if (s.zero_order_at_0 > 0) {
    bisect(s, -kL, -kW, sub);
    if (sign_at_zero_order(s, -kW, kW) == 0)
      throw std::runtime_error(std::string(s.name) + ": the order of the zero at 0 is not shown");
    sub.ends.push_back(kW);
    sub.kinds.push_back('Z');
    bisect(s, kW, kL, sub);
  } else {
    bisect(s, -kL, kL, sub);
  }
  json roots = json::array();
  for (std::size_t i = 0; i < sub.kinds.size(); ++i) {
    const double lo = sub.ends[i], hi = sub.ends[i + 1];
    if (sub.kinds[i] == 'K') {
      const int sg = sign_of_fsecond(s, lo, hi);
      roots.push_back(root_json(s, i, 1, refine(s, lo, hi), sg > 0 ? "min" : "max"));
    } else if (sub.kinds[i] == 'Z') {
      const Ball zero(0.0);
      roots.push_back(root_json(s, i, s.zero_order_at_0, zero,
                                zero_extremum(s.zero_order_at_0, sign_at_zero_order(s, lo, hi))));
    }
  }
  json ends = json::array();
  for (const double e : sub.ends) ends.push_back(hexfloat(e));
  Ball fl, fr;
  const Ball Lm(-kL), Lp(kL);
  derivative(s.base, s.order, Lm.v, fl.v);
  derivative(s.base, s.order, Lp.v, fr.v);
  const Tail tail = tail_of(s, kL);
  if (!tail.ok()) throw std::runtime_error(std::string(s.name) + ": the tail lemma fails at L");
  if (log)
    *log += std::string(s.name) + ": " + std::to_string(sub.kinds.size()) + " boxes, " +
            std::to_string(roots.size()) + " critical points\n";
  return {{"name", s.name},
          {"function", s.function},
          {"searched", "every zero of F' on [-L, L], F = " + std::string(s.function)},
          {"zero_order_at_0", s.zero_order_at_0},
          {"why_zero_at_0", s.why_zero},
          {"boxes", sub.kinds.size()},
          {"ends", ends},
          {"kinds", sub.kinds},
          {"roots", roots},
          {"at_minus_L", bounds_json(fl.v)},
          {"at_L", bounds_json(fr.v)},
          {"limit_minus_inf", hexfloat(s.limit_minus)},
          {"limit_plus_inf", hexfloat(s.limit_plus)},
          {"tail", tail_json(tail)}};
}

// |[lo, hi]| as a bounds object, for intervals on one side of 0 (or [0, 0]).
json abs_bounds(const json& b) {
  Ball x;
  bounds_ball(b, x);
  if (!arb_is_negative(x.v)) return b;
  auto neg = [](std::string v) { return v[0] == '-' ? v.substr(1) : "-" + v; };
  return {{"lo", neg(b["hi"])}, {"hi", neg(b["lo"])}};
}

json fact_json(const FactSpec& f, const json& scan) {
  const json& roots = scan["roots"];
  json fact = {{"name", f.name}, {"statement", f.statement}, {"scan", f.scan},
               {"kind", kind_name(f.kind)}};
  std::vector<std::size_t> at;
  json value;
  if (f.kind == FactKind::zero) {
    if (roots.size() != 1) throw std::runtime_error(std::string(f.name) + ": not one zero");
    at.push_back(0);
    value = roots[0]["at"];
  } else {
    // The value of F (|F| for max_abs) at each root; the best one; the roots whose values are
    // not strictly beyond it (the symmetric partners) attain the fact too.
    std::vector<json> vals;
    for (const json& r : roots) {
      json v = r["value"];
      if (f.kind == FactKind::max_abs) v = abs_bounds(v);
      if (f.kind == FactKind::min) v = {{"lo", v["lo"]}, {"hi", v["hi"]}};
      vals.push_back(v);
    }
    auto better = [&](const Ball& a, const Ball& b) {  // a strictly beyond b
      return f.kind == FactKind::min ? below(a.v, b.v) : below(b.v, a.v);
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < vals.size(); ++i) {
      Ball a, b;
      bounds_ball(vals[i], a);
      bounds_ball(vals[best], b);
      if (better(a, b)) best = i;
    }
    Ball bb, hull;
    bounds_ball(vals[best], bb);
    arb_set(hull.v, bb.v);
    for (std::size_t i = 0; i < vals.size(); ++i) {
      Ball a;
      bounds_ball(vals[i], a);
      if (!better(bb, a)) {
        at.push_back(i);
        arb_union(hull.v, hull.v, a.v, kPrec);
      }
    }
    value = bounds_json(hull.v);
  }
  fact["value"] = value;
  fact["at"] = at;
  json locs = json::array(), locd = json::array();
  for (const std::size_t i : at) {
    locs.push_back(roots[i]["at"]);
    Ball x;
    bounds_ball(roots[i]["at"], x);
    locd.push_back(doubles_json(x.v));
  }
  fact["locations"] = locs;
  Ball v;
  bounds_ball(value, v);
  fact["double"] = doubles_json(v.v);
  fact["location_doubles"] = locd;
  return fact;
}

}  // namespace

json generate(const std::string& command, std::string* log) {
  json j = {{"schema", kSchema},
            {"generated_by", command},
            {"arb_version", arb_version_string()},
            {"flint_version", flint_version_string()},
            {"mpfr_version", mpfr_version_string()},
            {"precision_bits", kPrec},
            {"interval", {{"lo", hexfloat(-kL)}, {"hi", hexfloat(kL)}}},
            {"centre_box", {{"lo", hexfloat(-kW)}, {"hi", hexfloat(kW)}}},
            {"method",
             "bisection of [-L, L] with Arb ball evaluation of Taylor series (arb_poly: F' of "
             "one sign on a box excludes it; Krawczyk's operator inside the box's interior "
             "isolates one simple zero of F'; the centre box holds the zero of F' at 0 of the "
             "order given, shown by the sign of F^(k+1)); each zero refined by interval Newton; "
             "an analytic tail lemma gives the sign of F' for |x| >= L"},
            {"definitions",
             {{"gelu_tanh", "x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), 0.044715 = 44715/10^6"},
              {"gelu_erf", "x Phi(x) = x/2 erfc(-x/sqrt 2)"}}}};
  json scans_j = json::array();
  for (const ScanSpec& s : scans()) scans_j.push_back(scan_json(s, log));
  j["scans"] = scans_j;
  json facts_j = json::array();
  auto scan_of = [&](const std::string& name) -> const json& {
    for (const json& s : scans_j)
      if (s["name"] == name) return s;
    throw std::runtime_error("no scan " + name);
  };
  for (const FactSpec& f : facts()) facts_j.push_back(fact_json(f, scan_of(f.scan)));
  // sup |f'| over both forms: the larger of the two forms' facts.
  const MaxOfSpec& m = lipschitz_spec();
  const json *a = nullptr, *b = nullptr;
  for (const json& f : facts_j) {
    if (f["name"] == m.a) a = &f;
    if (f["name"] == m.b) b = &f;
  }
  Ball va, vb;
  bounds_ball((*a)["value"], va);
  bounds_ball((*b)["value"], vb);
  const json& big = below(vb.v, va.v) ? *a : *b;
  facts_j.push_back({{"name", m.name},
                     {"statement", m.statement},
                     {"kind", "max_of"},
                     {"of", {m.a, m.b}},
                     {"attained_by", big["name"]},
                     {"value", big["value"]},
                     {"double", big["double"]}});
  j["facts"] = facts_j;
  return j;
}

}  // namespace gelucheck::certify
