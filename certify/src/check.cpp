// certify/src/check.cpp — the check of a certificate file: every statement re-proved from the
// data the file records, by the rules of spec.cpp and boxes.cpp. Cheaper than the search: no
// bisection, no choice — one evaluation per recorded box, one sign test per recorded end.
//
// What it establishes, per scan (F on [−L, L] and the tail lemma for |x| >= L):
//   the boxes tile [−L, L]; on each '−'/'+' box F' has that sign; each 'K' box holds exactly one
//   zero of F', simple (Krawczyk; F'' of one sign); the 'Z' box is the centre box and holds the
//   zero at 0 of the spec's order and no other; so the recorded roots are ALL the zeros of F' on
//   [−L, L], and with the tail lemma, on the reals. Each root's location interval lies in its
//   box with F' of opposite strict signs at its two ends (so it holds the zero), each value
//   interval contains F over the location interval, each is at most 1e-30 wide.
// Per fact: F is monotone on each tail (the lemma), so its values there lie between F(±L) and
// F(±∞); on [−L, L] it attains its extrema at critical points or at ±L; so a max fact holds when
// its roots' values are inside its enclosure and every other root, F(±L) and F(±∞) are strictly
// below it (mirrored for min; with |F| for max_abs).
#include <cmath>
#include <string>

#include "boxes.hpp"
#include "common.hpp"
#include "gelucheck/certify.hpp"
#include "gelucheck/common.hpp"

namespace gelucheck::certify {

namespace {

using nlohmann::json;

struct Checker {
  CheckResult& res;
  void fail(const std::string& where, const std::string& what) { res.errors.push_back(where + ": " + what); }
};

bool exact_double(const json& v, double& out) {
  if (!v.is_string()) return false;
  const std::optional<double> d = parse_real(v.get<std::string>());
  if (!d || !std::isfinite(*d) || hexfloat(*d) != v.get<std::string>()) return false;
  out = *d;
  return true;
}

// |x| for a ball on one side of 0 or containing only 0.
void abs_ball(const arb_t x, Ball& out) { arb_abs(out.v, x); }

void check_scan(const ScanSpec& s, const json& j, Checker& c) {
  const std::string w = std::string("scan ") + s.name;
  if (!j.contains("ends") || !j["ends"].is_array() || !j.contains("kinds") || !j["kinds"].is_string() ||
      !j.contains("roots") || !j["roots"].is_array()) {
    c.fail(w, "malformed");
    return;
  }
  const std::string kinds = j["kinds"];
  const json& ends_j = j["ends"];
  if (ends_j.size() != kinds.size() + 1 || j.value("boxes", std::size_t{0}) != kinds.size()) {
    c.fail(w, "the number of ends is not the number of boxes + 1");
    return;
  }
  std::vector<double> ends;
  for (const json& e : ends_j) {
    double d = 0;
    if (!exact_double(e, d)) {
      c.fail(w, "a box end is not an exact hex float: " + e.dump());
      return;
    }
    ends.push_back(d);
  }
  if (ends.front() != -kL || ends.back() != kL) c.fail(w, "the boxes do not start at -L and end at L");
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    if (!(ends[i] < ends[i + 1])) {
      c.fail(w, "box ends not increasing at " + std::to_string(i));
      return;
    }
  if (j.value("zero_order_at_0", -1) != s.zero_order_at_0) c.fail(w, "zero_order_at_0 differs from the code's");
  const json& roots = j["roots"];
  std::size_t next_root = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const double lo = ends[i], hi = ends[i + 1];
    const std::string box = w + " box " + std::to_string(i) + " [" + hexfloat(lo) + ", " + hexfloat(hi) + "]";
    ++c.res.boxes;
    const char k = kinds[i];
    if (k == '-' || k == '+') {
      if (sign_of_fprime(s, lo, hi) != (k == '+' ? 1 : -1)) c.fail(box, std::string("F' is not of sign ") + k);
      continue;
    }
    if (k != 'K' && k != 'Z') {
      c.fail(box, std::string("unknown kind ") + k);
      continue;
    }
    if (next_root >= roots.size() || roots[next_root].value("box", std::size_t{0}) != i) {
      c.fail(box, "no root recorded for this box");
      continue;
    }
    const json& r = roots[next_root++];
    ++c.res.roots;
    const std::string rw = w + " root in box " + std::to_string(i);
    std::string extremum;
    if (k == 'K') {
      if (!krawczyk(s, lo, hi)) {
        c.fail(box, "Krawczyk's test fails");
        continue;
      }
      if (r.value("order", 0) != 1) c.fail(rw, "a Krawczyk zero is simple (order 1)");
      extremum = sign_of_fsecond(s, lo, hi) > 0 ? "min" : "max";
      // The location: inside the box, F' of opposite strict signs at its ends.
      Ball l, h, fl, fh, bl(lo), bh(hi);
      if (!r.contains("at") || !parse(r["at"].value("lo", ""), l) || !parse(r["at"].value("hi", ""), h)) {
        c.fail(rw, "malformed location");
        continue;
      }
      if (!arb_le(bl.v, l.v) || !arb_le(h.v, bh.v) || !arb_lt(l.v, h.v)) c.fail(rw, "location not inside its box");
      derivative(s.base, s.order + 1, l.v, fl.v);
      derivative(s.base, s.order + 1, h.v, fh.v);
      const bool change = (arb_is_negative(fl.v) && arb_is_positive(fh.v)) ||
                          (arb_is_positive(fl.v) && arb_is_negative(fh.v));
      if (!change) c.fail(rw, "F' does not change sign over the location interval");
    } else {
      if (!(lo == -kW && hi == kW) || s.zero_order_at_0 <= 0) {
        c.fail(box, "a zero of known order is only certified on the centre box of a scan that has one");
        continue;
      }
      const int sg = sign_at_zero_order(s, lo, hi);
      if (sg == 0) c.fail(box, "F^(k+1) is not of one sign on the centre box");
      if (r.value("order", 0) != s.zero_order_at_0) c.fail(rw, "order differs from the code's");
      if (!r.contains("at") || r["at"].value("lo", "") != "0" || r["at"].value("hi", "") != "0")
        c.fail(rw, "the location of the zero at 0 is not [0, 0]");
      extremum = zero_extremum(s.zero_order_at_0, sg);
      // Consistency with the analytic reason (not a proof of it): F'..F^(k) at 0 contain 0.
      const Ball zero(0.0);
      for (int q = 1; q <= s.zero_order_at_0; ++q) {
        Ball f;
        derivative(s.base, s.order + q, zero.v, f.v);
        if (!arb_contains_zero(f.v)) c.fail(rw, "F^(" + std::to_string(q) + ")(0) is not 0");
      }
    }
    if (r.value("extremum", "") != extremum) c.fail(rw, "recorded extremum is not " + extremum);
    Ball where, value;
    if (!bounds_ball(r["at"], where) || !r.contains("value")) {
      c.fail(rw, "malformed");
      continue;
    }
    derivative(s.base, s.order, where.v, value.v);
    if (!bounds_contain(r["value"], value.v)) c.fail(rw, "the value interval does not contain F there");
    if (!bounds_narrow(r["at"]) || !bounds_narrow(r["value"])) c.fail(rw, "an interval wider than 1e-30");
  }
  if (next_root != roots.size()) c.fail(w, "more roots recorded than isolating boxes");
  // F(±L).
  const Ball Lm(-kL), Lp(kL);
  Ball fl, fr;
  derivative(s.base, s.order, Lm.v, fl.v);
  derivative(s.base, s.order, Lp.v, fr.v);
  if (!j.contains("at_minus_L") || !bounds_contain(j["at_minus_L"], fl.v)) c.fail(w, "F(-L) not enclosed");
  if (!j.contains("at_L") || !bounds_contain(j["at_L"], fr.v)) c.fail(w, "F(L) not enclosed");
  if (j.value("limit_minus_inf", "") != hexfloat(s.limit_minus) || j.value("limit_plus_inf", "") != hexfloat(s.limit_plus))
    c.fail(w, "the limits at infinity differ from the code's");
  // The tail lemma, recomputed.
  const Tail t = tail_of(s, kL);
  if (!t.ok()) c.fail(w, "the tail lemma " + t.lemma + " does not hold at L");
  const json& tj = j.value("tail", json::object());
  if (tj.value("lemma", "") != t.lemma || tj.value("sign_of_fprime_right", 0) != t.sign_right ||
      tj.value("sign_of_fprime_left", 0) != t.sign_left)
    c.fail(w, "the tail lemma recorded is not the code's");
}

const json* find_named(const json& arr, const std::string& name) {
  for (const json& x : arr)
    if (x.value("name", "") == name) return &x;
  return nullptr;
}

// The doubles recorded for an interval are those just outside it and its nearest.
void check_doubles(const json& d, const json& bounds, const std::string& w, Checker& c) {
  Ball x;
  if (!bounds_ball(bounds, x) || d != doubles_json(x.v)) c.fail(w, "the recorded doubles are not those of the interval");
}

void check_fact(const FactSpec& f, const json& fj, const json& scan, Checker& c) {
  const std::string w = std::string("fact ") + f.name;
  ++c.res.facts;
  if (fj.value("scan", "") != f.scan || fj.value("kind", "") != kind_name(f.kind)) {
    c.fail(w, "scan or kind differs from the code's");
    return;
  }
  const ScanSpec& s = *find_scan(f.scan);
  const json& roots = scan["roots"];
  const json& at = fj.value("at", json::array());
  if (at.empty()) {
    c.fail(w, "attained nowhere");
    return;
  }
  std::vector<bool> attaining(roots.size(), false);
  for (const json& i : at) {
    if (!i.is_number_unsigned() || i.get<std::size_t>() >= roots.size()) {
      c.fail(w, "bad root index");
      return;
    }
    attaining[i.get<std::size_t>()] = true;
  }
  Ball v;
  if (!bounds_ball(fj.value("value", json::object()), v)) {
    c.fail(w, "malformed value");
    return;
  }
  if (!bounds_narrow(fj["value"])) c.fail(w, "wider than 1e-30");
  check_doubles(fj.value("double", json()), fj["value"], w, c);
  const json& locs = fj.value("locations", json::array());
  const json& locd = fj.value("location_doubles", json::array());
  if (locs.size() != at.size() || locd.size() != at.size()) c.fail(w, "locations do not match the roots");
  for (std::size_t i = 0; i < at.size() && i < locs.size() && i < locd.size(); ++i) {
    if (locs[i] != roots[at[i].get<std::size_t>()]["at"]) c.fail(w, "a location is not its root's");
    check_doubles(locd[i], locs[i], w, c);
  }
  // Attained at two points: only as a mirror pair of a gap scan, where |F| is even (d is even,
  // d' odd), so both points attain the same value and the fact's "= s ⇔ x = x1 ∨ x = x2" holds.
  // The zeros of F' are symmetric too (F' odd or even), so the mirror of the first root is a zero;
  // inside the second root's box, it is that box's only zero.
  if (at.size() > 1) {
    const std::size_t r0 = at[0].get<std::size_t>(), r1 = at[1].get<std::size_t>();
    const std::size_t b1 = roots[r1].value("box", std::size_t{0});
    Ball l, h, lo1, hi1;
    const std::vector<json>& ends = scan["ends"].get_ref<const json::array_t&>();
    double e0 = 0, e1 = 0;
    const bool ok = s.base == Base::gap && at.size() == 2 && b1 + 1 < ends.size() &&
                    exact_double(ends[b1], e0) && exact_double(ends[b1 + 1], e1) &&
                    parse(roots[r0]["at"].value("lo", ""), l) && parse(roots[r0]["at"].value("hi", ""), h);
    if (!ok) {
      c.fail(w, "attained at several points that are not a mirror pair of a gap scan");
    } else {
      arb_neg(l.v, l.v);
      arb_neg(h.v, h.v);  // the mirror of root 0 is [−hi, −lo]
      const Ball a(e0), b(e1);
      if (!arb_le(a.v, h.v) || !arb_le(l.v, b.v)) c.fail(w, "the two points attaining it are not mirror images");
    }
  }
  if (f.kind == FactKind::zero) {
    if (roots.size() != 1) c.fail(w, "F' has " + std::to_string(roots.size()) + " zeros, not one");
    else if (fj["value"] != roots[0]["at"]) c.fail(w, "the value is not the zero's location");
    return;
  }
  // Values compared: F (min, max) or |F| (max_abs), as balls.
  auto val = [&](const json& b, Ball& out) {
    Ball x;
    if (!bounds_ball(b, x)) return false;
    if (f.kind == FactKind::max_abs) abs_ball(x.v, out);
    else arb_set(out.v, x.v);
    return true;
  };
  // `a` strictly beyond `b` in the fact's direction.
  auto beyond = [&](const arb_t a, const arb_t b) { return f.kind == FactKind::min ? below(a, b) : below(b, a); };
  for (std::size_t i = 0; i < roots.size(); ++i) {
    Ball r;
    if (!val(roots[i]["value"], r)) {
      c.fail(w, "malformed root value");
      return;
    }
    if (attaining[i]) {
      if (!bounds_contain(fj["value"], r.v)) c.fail(w, "root " + std::to_string(i) + "'s value is outside the fact");
    } else if (!beyond(v.v, r.v)) {
      c.fail(w, "root " + std::to_string(i) + " is not strictly beyond the fact's value");
    }
  }
  for (const char* e : {"at_minus_L", "at_L"}) {
    Ball r;
    if (!val(scan[e], r) || !beyond(v.v, r.v)) c.fail(w, std::string("F at ") + e + " is not strictly beyond the fact");
  }
  for (const double lim : {s.limit_minus, s.limit_plus}) {
    const double l = f.kind == FactKind::max_abs ? std::fabs(lim) : lim;
    if (std::isinf(l)) {
      if ((l > 0) == (f.kind != FactKind::min)) c.fail(w, "F is unbounded in the fact's direction");
      continue;
    }
    const Ball lb(l);
    if (!beyond(v.v, lb.v)) c.fail(w, "a limit at infinity is not strictly beyond the fact");
  }
}

}  // namespace

CheckResult check(const json& cert) {
  CheckResult res;
  Checker c{res};
  if (!cert.is_object() || cert.value("schema", "") != kSchema) {
    c.fail("file", std::string("not a ") + kSchema + " certificate");
    return res;
  }
  for (const char* key : {"arb_version", "flint_version", "generated_by", "method"})
    if (!cert.contains(key) || !cert[key].is_string()) c.fail("file", std::string("missing ") + key);
  if (cert.value("precision_bits", 0) != kPrec) c.fail("file", "precision differs from the code's");
  double lo = 0, hi = 0;
  if (!cert.contains("interval") || !exact_double(cert["interval"].value("lo", json()), lo) ||
      !exact_double(cert["interval"].value("hi", json()), hi) || lo != -kL || hi != kL)
    c.fail("file", "the interval is not the code's [-L, L]");
  const json& scans_j = cert.value("scans", json::array());
  if (scans_j.size() != scans().size()) c.fail("file", "not every scan (or more) recorded");
  for (const ScanSpec& s : scans()) {
    const json* j = find_named(scans_j, s.name);
    if (!j) c.fail("file", std::string("scan ") + s.name + " missing");
    else check_scan(s, *j, c);
  }
  const json& facts_j = cert.value("facts", json::array());
  if (facts_j.size() != facts().size() + 1) c.fail("file", "not every fact (or more) recorded");
  for (const FactSpec& f : facts()) {
    const json* fj = find_named(facts_j, f.name);
    const json* sj = find_named(scans_j, f.scan);
    if (!fj || !sj) c.fail("file", std::string("fact ") + f.name + " or its scan missing");
    else check_fact(f, *fj, *sj, c);
  }
  // sup |f'| over both forms: the fact attaining it is beyond the other.
  const MaxOfSpec& m = lipschitz_spec();
  const json *fl = find_named(facts_j, m.name), *fa = find_named(facts_j, m.a), *fb = find_named(facts_j, m.b);
  if (!fl || !fa || !fb) {
    c.fail("file", "lipschitz or its parts missing");
  } else {
    ++res.facts;
    const std::string big = fl->value("attained_by", "");
    const json* pb = big == m.a ? fa : big == m.b ? fb : nullptr;
    const json* po = big == m.a ? fb : fa;
    Ball vb, vo;
    if (!pb || (*fl)["value"] != (*pb)["value"] || (*fl).value("double", json()) != (*pb)["double"] ||
        !bounds_ball((*pb)["value"], vb) || !bounds_ball((*po)["value"], vo) || !below(vo.v, vb.v))
      c.fail("fact lipschitz", "not the larger of its two parts");
  }
  return res;
}

}  // namespace gelucheck::certify
