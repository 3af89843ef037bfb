// The report library (reports/): inputs, schema, agreement with the reference at the same
// inputs (recomputed here by a separate loop straight from gelu.hpp, reference.hpp and
// measure.hpp, not through the subjects), determinism, the tanh–erf gap against the 40-digit facts
// (facts.hpp), and the gate (fed by deliberately broken subjects).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <mpfr.h>
#include <set>
#include <span>
#include <string>

#include "gelucheck/claims.hpp"  // the library's own claims, for the Claims test
#include "gelucheck/facts.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/render.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {
namespace {

using json = nlohmann::ordered_json;

// One small campaign shared by the tests (the reference dominates its cost): no properties, no
// plots, a fixed seed; and the same in the 16-bit formats (exhaustive: 65536 inputs each).
Options small_options() {
  Options o;
  o.seed = 12345;
  o.points = 400;
  o.properties = false;
  o.plots = false;
  o.formats = {Format::binary64, Format::binary32};
  return o;
}
const Report& small_report() {
  static const Report r = run(small_options());
  return r;
}
const Report& small_report16() {
  static const Report r = [] {
    Options o = small_options();
    o.formats = {Format::bfloat16, Format::binary16};
    return run(o);
  }();
  return r;
}

const char* spec_of(Path p) { return p == Path::accurate ? "accurate" : "naive"; }

const Row& row_of(const Report& r, const std::string& spec, Format f, Form form, Quantity q,
                  Form against) {
  for (const Row& row : r.rows)
    if (r.subjects[row.subject].spec == spec && row.format == f && row.form == form &&
        row.quantity == q && row.against == against)
      return row;
  throw std::logic_error("no such row");
}
const Row& row_of(const Report& r, Path p, Format f, Form form, Quantity q, Form against) {
  return row_of(r, spec_of(p), f, form, q, against);
}

double library(Path p, Form f, Quantity q, Format fmt, double x) {
  if (fmt == Format::binary64) return q == Quantity::value ? scalar(f, x, p) : scalar_deriv(f, x, p);
  if (fmt == Format::bfloat16 || fmt == Format::binary16) {
    const auto xb = static_cast<std::uint16_t>(*to_bits(x, fmt));
    return from_bits(q == Quantity::value ? scalar16(f, fmt, xb, p) : scalar_deriv16(f, fmt, xb, p), fmt);
  }
  const auto xf = static_cast<float>(x);
  return static_cast<double>(q == Quantity::value ? scalar(f, xf, p) : scalar_deriv(f, xf, p));
}

TEST(ReportInputs, DeterministicCoverAllBinadesAndSpecials) {
  InputCounts c1, c2;
  const auto a = inputs(Format::binary64, 7, 1000, &c1);
  const auto b = inputs(Format::binary64, 7, 1000, &c2);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bits(a[i], b[i])) << i;
  EXPECT_EQ(c1.random, 500u);
  EXPECT_EQ(c1.grid, 500u);
  EXPECT_EQ(c1.total, c1.random + c1.grid + c1.hard + c1.special + c1.runs);
  EXPECT_EQ(c1.total, a.size());
  const auto other = inputs(Format::binary64, 8, 1000, nullptr);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < 500; ++i) differ += !same_bits(a[i], other[i]);
  EXPECT_GT(differ, 490u) << "another seed must give other random inputs";
  // Random bit patterns spread over the binades: exponents from tiny to huge, both signs.
  int tiny = 0, huge = 0, neg = 0;
  for (std::size_t i = 0; i < 500; ++i) {
    tiny += std::fabs(a[i]) < 1e-100;
    huge += std::fabs(a[i]) > 1e100;
    neg += std::signbit(a[i]);
  }
  EXPECT_GT(tiny, 100);
  EXPECT_GT(huge, 100);
  EXPECT_GT(neg, 200);
  EXPECT_LT(neg, 300);
  // Specials: ±0, ±inf, NaN, and float inputs are floats.
  bool pz = false, nz = false, pinf = false, ninf = false, nan = false;
  for (double x : a) {
    pz |= same_bits(x, 0.0);
    nz |= same_bits(x, -0.0);
    pinf |= std::isinf(x) && x > 0;
    ninf |= std::isinf(x) && x < 0;
    nan |= std::isnan(x);
  }
  EXPECT_TRUE(pz && nz && pinf && ninf && nan);
  for (double x : inputs(Format::binary32, 7, 1000, nullptr))
    ASSERT_TRUE(same_bits(x, round_to_format(x, Format::binary32))) << hexfloat(x);
}

TEST(ReportRegions, Edges) {
  auto has = [](double x, Format f, Region r) {
    for (Region g : regions_of(x, f))
      if (g == r) return true;
    return false;
  };
  EXPECT_TRUE(has(-38.7, Format::binary64, Region::below_m38_6));
  EXPECT_TRUE(has(-38.6, Format::binary64, Region::m38_6_m10));
  EXPECT_TRUE(has(-10, Format::binary64, Region::m10_m1));
  EXPECT_TRUE(has(-1, Format::binary64, Region::m1_1));
  EXPECT_TRUE(has(1, Format::binary64, Region::m1_1));
  EXPECT_TRUE(has(10, Format::binary64, Region::p1_10));
  EXPECT_TRUE(has(INFINITY, Format::binary64, Region::above_10));
  EXPECT_TRUE(has(-INFINITY, Format::binary64, Region::below_m38_6));
  EXPECT_TRUE(has(0x1p-1074, Format::binary64, Region::subnormal));
  EXPECT_FALSE(has(0x1p-1022, Format::binary64, Region::subnormal));
  EXPECT_TRUE(has(0x1p-127, Format::binary32, Region::subnormal));
  EXPECT_FALSE(has(0.0, Format::binary64, Region::subnormal));
  EXPECT_EQ(regions_of(NAN, Format::binary64).size(), 1u);  // overall only
}

TEST(ReportSchema, FieldsPresent) {
  const json j = to_json(small_report());
  EXPECT_EQ(j["schema"], "gelucheck.report/3");
  for (const char* k : {"generator", "config", "measures", "inputs", "regions", "accuracy", "gap",
                        "properties", "lean_traceability", "gate", "plots", "run"})
    EXPECT_TRUE(j.contains(k)) << k;
  // 2 formats × (tanh: 2 quantities × 2 paths × 2 references + erf: 2 × 2) = 24 rows.
  ASSERT_EQ(j["accuracy"].size(), 24u);
  for (const auto& row : j["accuracy"]) {
    for (const char* k : {"implementation", "type", "format", "form", "quantity", "against", "error",
                          "claim", "meets_claim", "regions", "histogram"})
      ASSERT_TRUE(row.contains(k)) << k;
    for (Region g : kRegions) {
      const auto& s = row["regions"][region_key(g)];
      for (const char* k : {"count", "max_ulp", "worst", "mean_ulp", "rms_ulp", "finite",
                            "fraction_correctly_rounded", "fraction_faithful", "max_abs", "max_rel",
                            "nan_mismatches", "zero_sign_mismatches"})
        ASSERT_TRUE(s.contains(k)) << region_key(g) << "." << k;
    }
  }
  EXPECT_EQ(j["properties"]["status"], "skipped");
  EXPECT_EQ(j["lean_traceability"].size(), lean_theorems().size());
  for (const auto& t : j["lean_traceability"]) EXPECT_EQ(t["outcome"], "not run");
  for (const char* k : {"value", "derivative"})
    for (const char* f : {"sup", "sup_decimal", "at_abs_x", "at_abs_x_hex", "gap_at"})
      EXPECT_TRUE(j["gap"][k].contains(f)) << k << "." << f;
  // Non-finite numbers are strings, never null (JSON has no inf).
  // Rows: per format, per subject, per function (the tanh form's against-erf row after its own).
  const auto& naive_row = j["accuracy"][6];  // naive binary64 tanh value vs tanh
  ASSERT_EQ(naive_row["implementation"], "naive");
  ASSERT_EQ(naive_row["form"], "tanh");
  ASSERT_EQ(naive_row["against"], "tanh");
  const auto& naive = naive_row["regions"]["overall"];
  EXPECT_EQ(naive["max_ulp"], "inf") << "the naive path gives NaN at -inf";
}

// One cause, one defect: the naive path's NaN at -inf in every op measured is one `limit` defect
// listing those ops, and no accuracy defect counts the same inputs again.
TEST(ReportDefects, NaNAtMinusInfInEveryOpIsOneDefect) {
  const Report& r = small_report();
  const json j = to_json(r);
  std::size_t naive = 0;
  while (j["subjects"][naive]["spec"] != "naive") ++naive;
  const json& ds = j["subjects"][naive]["defects"];
  std::size_t at_minus_inf = 0;
  for (const auto& d : ds) {
    for (const char* k : {"kind", "ops", "count", "x", "expected", "got", "reproduce", "summary"})
      ASSERT_TRUE(d.contains(k)) << k << " in " << d.dump();
    ASSERT_TRUE(parse_defect_kind(d["kind"].get<std::string>())) << d["kind"];
    if (d["kind"] == "limit" && d["x"] == "-inf") {
      ++at_minus_inf;
      EXPECT_EQ(d["got"], "nan");
      EXPECT_EQ(d["ops"].size(), 8u) << "2 formats x 4 functions: " << d["ops"].dump();
      EXPECT_EQ(d["count"], 8u);
      EXPECT_NE(d["reproduce"].get<std::string>().find("echo '-inf' | gelucheck eval --subject naive"),
                std::string::npos) << d["reproduce"];
    }
  }
  EXPECT_EQ(at_minus_inf, 1u) << ds.dump(1);
  // Every result is classified once: the rows' observations never count more results than the row has.
  for (const Row& row : r.rows) {
    std::size_t n = 0;
    for (const Observation& o : row.observations)
      if (o.kind != DefectKind::monotone && o.kind != DefectKind::bound) n += o.count;
    EXPECT_LE(n, row.regions[static_cast<std::size_t>(Region::overall)].count);
  }
  // The at-a-glance figure is over finite results of finite inputs: naive's NaN at -inf makes the
  // row's max inf, but not that figure; for accurate (no special-input breaks) the two agree.
  for (const Row& row : r.rows) {
    if (row.against != row.form) continue;
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    ASSERT_TRUE(row.finite_worst_x);
    EXPECT_TRUE(std::isfinite(row.finite_max_ulp));
    EXPECT_LE(row.finite_max_ulp, all.max_ulp);
    if (r.subjects[row.subject].spec == "accurate") {
      EXPECT_EQ(row.finite_max_ulp, all.max_ulp);
    }
    if (r.subjects[row.subject].spec == "naive" && row.quantity == Quantity::value) {
      EXPECT_TRUE(std::isinf(all.max_ulp)) << "precondition: NaN at -inf";
    }
  }
  // The accurate path, which meets its claims, has none.
  EXPECT_TRUE(j["subjects"][naive == 0 ? 1 : 0]["defects"].empty());
}

// The report's numbers, recomputed here point by point at the same inputs.
TEST(ReportAgreement, OverallRowsMatchAnIndependentLoop) {
  struct Case { Path p; Format f; Form form; Quantity q; Form against; };
  const Case cases[] = {
      {Path::accurate, Format::binary64, Form::erf, Quantity::value, Form::erf},
      {Path::naive, Format::binary64, Form::erf, Quantity::value, Form::erf},
      {Path::accurate, Format::binary32, Form::tanh, Quantity::derivative, Form::tanh},
      {Path::naive, Format::binary32, Form::erf, Quantity::value, Form::erf},
      {Path::naive, Format::binary64, Form::tanh, Quantity::value, Form::erf},
      {Path::naive, Format::binary16, Form::tanh, Quantity::value, Form::erf},
      {Path::accurate, Format::bfloat16, Form::erf, Quantity::derivative, Form::erf},
  };
  for (const Case& c : cases) {
    const Report& r = c.f == Format::bfloat16 || c.f == Format::binary16 ? small_report16() : small_report();
    const Row& row = row_of(r, c.p, c.f, c.form, c.q, c.against);
    const auto xs = inputs(c.f, r.options.seed, r.options.points, nullptr);
    double max_ulp = -1, worst = NAN, sum = 0, max_rel = 0, max_abs = 0, raw_rel = 0, raw_abs = 0;
    std::size_t cr = 0, finite = 0, nanm = 0, zsm = 0, m1_1 = 0, underflows = 0, unresolved = 0;
    for (double x : xs) {
      const double got = library(c.p, c.form, c.q, c.f, x);
      // docs/report.md: the reference is a 128-bit enclosure in binary64 and the fast reference
      // (round_batch, one input at a time here) in the other formats; a faithful result (RD or
      // RU of y, from the reference) of a nonzero y below the least normal is left out of max
      // rel; an abs error within the reference's resolution (the enclosure's half-width; 2^-70
      // of |y| for the fast one), out of max abs.
      Error e;
      bool y_zero = false, y_number = false, y_below_normal = false, faithful = false;
      double hw = 0;
      if (c.f == Format::binary64) {
        const ref::Enclosure y = ref::enclose(c.against, c.q, x, 128);
        e = measure(got, y, c.f);
        y_zero = mpfr_zero_p(y.lo()) && mpfr_zero_p(y.hi());
        y_number = mpfr_number_p(y.lo()) && mpfr_number_p(y.hi());
        y_below_normal = std::fabs(y.approx()) < std::ldexp(1.0, info(c.f).emin);
        faithful = got == y.rounded_down(c.f) || got == y.rounded_up(c.f);  // ±0 compare equal
        if (y_number) {
          Mpfr w(400);
          mpfr_sub(w, y.hi(), y.lo(), MPFR_RNDU);
          hw = mpfr_get_d(w, MPFR_RNDU) / 2;
        }
      } else {
        ref::Rounded y;
        ref::round_batch(c.against, c.q, c.f, std::span(&x, 1), std::span(&y, 1));
        e = measure(got, y, c.f);
        y_zero = y.hi == 0;
        y_number = std::isfinite(y.hi);
        y_below_normal = y.floor_log2 < info(c.f).emin;
        faithful = got == y.rd || got == y.ru;
        if (y_number && !y_zero && y.scale >= -1000)
          hw = std::nextafter(std::ldexp(std::fabs(y.hi) + std::fabs(y.lo), static_cast<int>(y.scale) - 70),
                              HUGE_VAL);
      }
      const bool y_subnormal = !y_zero && y_number && y_below_normal;
      raw_rel = std::max(raw_rel, std::isnan(e.rel) ? HUGE_VAL : e.rel);
      raw_abs = std::max(raw_abs, std::isnan(e.abs) ? HUGE_VAL : e.abs);
      if (y_subnormal && faithful) ++underflows;
      else if (!std::isnan(e.rel)) max_rel = std::max(max_rel, e.rel);
      if (std::isfinite(e.abs) && y_number) {
        if (e.abs <= hw) ++unresolved;
        else max_abs = std::max(max_abs, e.abs);
      } else if (!std::isnan(e.abs)) {
        max_abs = std::max(max_abs, e.abs);
      }
      if (e.ulp > max_ulp) { max_ulp = e.ulp; worst = x; }
      if (std::isfinite(e.ulp)) { sum += e.ulp; ++finite; }
      cr += e.ulp <= 0.5;
      nanm += e.nan_mismatch;
      zsm += e.zero_sign_mismatch;
      m1_1 += !std::isnan(x) && x >= -1 && x <= 1;
    }
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    const std::string what = std::string(spec_of(c.p)) + " " + std::string(name(c.f)) + " " +
                             std::string(name(c.form)) + " " + std::string(name(c.q));
    EXPECT_EQ(all.count, xs.size()) << what;
    EXPECT_TRUE(same_bits(all.max_ulp, max_ulp)) << what << ": " << all.max_ulp << " vs " << max_ulp;
    ASSERT_TRUE(all.worst_x) << what;
    EXPECT_TRUE(same_bits(*all.worst_x, worst)) << what << ": " << hexfloat(*all.worst_x) << " vs "
                                                << hexfloat(worst);
    // expected = the reference's correctly rounded value; got = the library's result, there.
    EXPECT_TRUE(same_bits(*all.worst_expected, ref::correctly_rounded(c.against, c.q, worst, c.f))) << what;
    EXPECT_TRUE(same_bits(*all.worst_got, library(c.p, c.form, c.q, c.f, worst))) << what;
    EXPECT_EQ(all.correctly_rounded, cr) << what;
    EXPECT_EQ(all.finite, finite) << what;
    EXPECT_DOUBLE_EQ(all.mean_ulp, finite ? sum / static_cast<double>(finite) : 0) << what;
    EXPECT_EQ(all.nan_mismatches, nanm) << what;
    EXPECT_EQ(all.zero_sign_mismatches, zsm) << what;
    EXPECT_EQ(row.regions[static_cast<std::size_t>(Region::m1_1)].count, m1_1) << what;
    EXPECT_EQ(all.rel_subnormal_faithful, underflows) << what;
    EXPECT_TRUE(same_bits(all.max_rel_normal, max_rel)) << what << ": " << all.max_rel_normal << " vs " << max_rel;
    EXPECT_EQ(all.abs_below_resolution, unresolved) << what;
    EXPECT_TRUE(same_bits(all.max_abs_resolved, max_abs)) << what << ": " << all.max_abs_resolved << " vs " << max_abs;
    EXPECT_TRUE(same_bits(all.max_rel, raw_rel)) << what;
    EXPECT_TRUE(same_bits(all.max_abs, raw_abs)) << what;
  }
}

// The correct underflows of the accurate erf value in binary64 (x < -38.58, docs/functions.md) are
// not reported as relative error 1, while the naive path's wrong flushes to -0 in
// [-38.6, -10) are (there the exact value is a normal number, e.g. -5.5e-88 at x = -20). In every
// row of the accurate path the relative error over normal exact values is below 2^(1-p). In every
// row of the accurate path the relative error over normal exact values is a few 2^-53.
TEST(ReportAgreement, RelativeErrorLeavesOutOnlyCorrectUnderflows) {
  const Report& r = small_report();
  const Stats& acc = row_of(r, Path::accurate, Format::binary64, Form::erf, Quantity::value,
                            Form::erf).regions[static_cast<std::size_t>(Region::below_m38_6)];
  EXPECT_GT(acc.rel_subnormal_faithful, 10u);
  EXPECT_EQ(acc.max_rel, 1.0);  // the raw measure, kept as it was
  EXPECT_LT(acc.max_rel_normal, 1.0);
  const Stats& nai = row_of(r, Path::naive, Format::binary64, Form::erf, Quantity::value,
                            Form::erf).regions[static_cast<std::size_t>(Region::m38_6_m10)];
  EXPECT_EQ(nai.max_rel_normal, 1.0);
  for (const Row& row : r.rows)
    if (r.subjects[row.subject].spec == "accurate" && row.against == row.form) {
      // faithful: |r - y| < ulp(y) <= 2^(1-p) |y| for normal y
      const double bound = std::ldexp(1.0, 1 - info(row.format).precision);
      EXPECT_LT(row.regions[static_cast<std::size_t>(Region::overall)].max_rel_normal, bound)
          << name(row.format) << " " << name(row.form) << " " << name(row.quantity);
    }
}

// Shown on purpose: the naive erf form flushes to -0 at x = -20 where the value is ~-5.5e-88
// (docs/functions.md), so the report must see a huge error in [-38.6, -10) for it.
TEST(ReportAgreement, NaiveNegativeTailIsCaught) {
  const Row& row = row_of(small_report(), Path::naive, Format::binary64, Form::erf,
                          Quantity::value, Form::erf);
  const Stats& s = row.regions[static_cast<std::size_t>(Region::m38_6_m10)];
  EXPECT_GT(s.count, 50u);
  EXPECT_GT(s.max_ulp, 1e10);
  EXPECT_LT(s.correctly_rounded, s.count);
}

TEST(ReportDeterminism, SameSeedSameJsonWhateverTheThreads) {
  Options o = small_report().options;
  o.threads = 1;
  json a = to_json(run(o));
  json b = to_json(small_report());
  a.erase("run");
  b.erase("run");
  EXPECT_EQ(a.dump(), b.dump());
  o.seed = 54321;
  json c = to_json(run(o));
  c.erase("run");
  EXPECT_NE(a.dump(), c.dump());
}

TEST(ReportDeterminism, TheCampaignsChunksChangeNothing) {
  // The default chunk is larger than the small report's inputs; 7 points at a time cuts them into
  // many chunks (and a last, short one), the plots' envelope included.
  Options o = small_report().options;
  o.campaign_chunk = 7;
  const Report chunked = run(o);
  json a = to_json(chunked), b = to_json(small_report());
  a.erase("run");
  b.erase("run");
  EXPECT_EQ(a.dump(), b.dump());
  ASSERT_EQ(chunked.rows.size(), small_report().rows.size());
  for (std::size_t k = 0; k < chunked.rows.size(); ++k)
    EXPECT_EQ(chunked.rows[k].plot_envelope, small_report().rows[k].plot_envelope) << k;
}

TEST(ReportProgress, LineAndEta) {
  EXPECT_EQ(progress_line("campaign binary64", 0, 100, 0), "[gelucheck report] campaign binary64: 0/100 (  0%)");
  // No ETA before a second has passed; then the rate so far: 25 in 10 s, 75 to go, 30 s.
  EXPECT_EQ(progress_line("x", 25, 100, 0.5), "[gelucheck report] x: 25/100 ( 25%)");
  EXPECT_EQ(progress_line("x", 25, 100, 10), "[gelucheck report] x: 25/100 ( 25%), ETA 30 s");
  EXPECT_EQ(progress_line("x", 1, 1000, 60), "[gelucheck report] x: 1/1000 (  0%), ETA 16.6 h");  // 59940 s
  EXPECT_EQ(progress_line("x", 100, 100, 10), "[gelucheck report] x: 100/100 (100%)");
  EXPECT_EQ(describe_seconds(89), "89 s");
  EXPECT_EQ(describe_seconds(600), "10 min");
  EXPECT_EQ(describe_seconds(9000), "2.5 h");
  EXPECT_EQ(describe_seconds(3 * 86400), "3.0 days");
}

// docs/functions.md (40-digit values): sup |tanh form - erf form| = 4.7323552068728488e-4 at
// |x| = 2.6989413863772703, derivative 8.6845183498591387e-4 at |x| = 2.0186557597718367.
// The sup is second-order flat in x, so it must agree to the last printed digit; the location to
// 1e-12 relative (gap.cpp: MPFR comparisons resolve it to a few ulps of x).
TEST(ReportGap, MatchesDesignFacts) {
  const Gap& g = small_report().gap;
  EXPECT_EQ(g.value.sup_decimal, "4.7323552068728488e-04");
  EXPECT_EQ(g.derivative.sup_decimal, "8.6845183498591387e-04");
  EXPECT_NEAR(g.value.at, facts::gap_value_x, 2.7e-12);
  EXPECT_NEAR(g.derivative.at, facts::gap_deriv_x, 2.0e-12);
  EXPECT_EQ(g.value.sup, facts::gap_value_sup);  // both RN of the same 17-digit-exact real
  EXPECT_EQ(g.derivative.sup, facts::gap_deriv_sup);
  EXPECT_GT(g.value.signed_gap, 0);      // tanh form above erf form there
  EXPECT_LT(g.derivative.signed_gap, 0); // at +2.0187 the tanh form's slope is below
  ASSERT_EQ(g.curve_x.size(), g.curve_value.size());
  for (double v : g.curve_value) EXPECT_LE(std::fabs(v), g.value.sup);
}

Report run_with(const std::string& spec) {
  Options o = small_report().options;
  o.subjects = {spec};
  return run(o);
}

TEST(ReportGate, BrokenSubjectTwoUlpsAwayBreaksEveryClaim) {
  const Report bad = run_with("broken:away:2");  // 2 ulps: no result stays faithful, let alone CR
  ASSERT_FALSE(bad.gate_failures.empty());
  std::set<std::string> broken;
  for (const Row& row : bad.rows)
    if (row.claim && !row.meets_claim)
      broken.insert(std::string(name(row.format)) + " " + std::string(name(row.form)) + " " +
                    std::string(name(row.quantity)));
  // Every function in both formats (x = 0 etc. are exact, but other inputs are not).
  EXPECT_EQ(broken.size(), 8u);
  const json j = to_json(bad);
  EXPECT_FALSE(j["gate"]["passed"].get<bool>());
  EXPECT_EQ(j["config"]["subjects"][0], "broken:away:2");
  EXPECT_NE(to_markdown(j).find("DELIBERATELY BROKEN SUBJECT"), std::string::npos);
  // The naive path claims nothing, so it is never a gate failure.
  for (const std::string& f : small_report().gate_failures) EXPECT_EQ(f.find("naive"), std::string::npos) << f;
  EXPECT_TRUE(small_report().gate_failures.empty());
}

// Subtle regressions: the gate must not need a 2-ulp everywhere regression to fire. Each broken
// subject is confined to one function, format and range of x; the accurate row meets its claim
// (so the failure is the variant's), and the gate names that row, its claim and the region.
const Row& overall_row(const Report& r, const std::string& spec, Format f, Form form, Quantity q) {
  return row_of(r, spec, f, form, q, form);
}

TEST(ReportGate, OneUlpInOneRegionOfOneFunctionFails) {
  ASSERT_TRUE(overall_row(small_report(), "accurate", Format::binary64, Form::tanh, Quantity::value).meets_claim)
      << "precondition: the accurate row meets its claim";
  const std::string spec = "broken:away:1:tanh.value@f64:-10,-1";
  const Report bad = run_with(spec);
  ASSERT_EQ(bad.gate_failures.size(), 1u) << ::testing::PrintToString(bad.gate_failures);
  const std::string& f = bad.gate_failures[0];
  // One line for the one defect: its kind, the op, the claim it breaks.
  EXPECT_EQ(f.rfind(spec + ": accuracy: ", 0), 0u) << f;
  EXPECT_NE(f.find("beyond faithful (< 1 ulp)"), std::string::npos) << f;
  EXPECT_NE(f.find("; tanh.forward.f64)"), std::string::npos) << f;
  const Row& row = overall_row(bad, spec, Format::binary64, Form::tanh, Quantity::value);
  EXPECT_FALSE(row.meets_claim);
  // Subtle: below 2 ulps, only in [-10, -1); every other region of the row still meets the claim.
  const Stats& planted = row.regions[static_cast<std::size_t>(Region::m10_m1)];
  EXPECT_GE(planted.max_ulp, 1.0);
  EXPECT_LT(planted.max_ulp, 2.0);
  for (Region g : {Region::below_m38_6, Region::m38_6_m10, Region::m1_1, Region::p1_10, Region::above_10})
    EXPECT_LT(row.regions[static_cast<std::size_t>(g)].max_ulp, 1.0) << region_name(g);
  ASSERT_TRUE(row.break_x);
  EXPECT_TRUE(*row.break_x >= -10 && *row.break_x < -1) << hexfloat(*row.break_x);
  const json j = to_json(bad);
  EXPECT_FALSE(j["gate"]["passed"].get<bool>());
  EXPECT_NE(to_markdown(j).find("DELIBERATELY BROKEN SUBJECT"), std::string::npos);
}

// The reviewer's case: +0 for -0 in the binary64 tail. Its ulp error is below 1/2 (the exact
// value is below half the least subnormal), so only the sign-of-zero part of the claim catches it.
TEST(ReportGate, PlusZeroForMinusZeroInTheBinary64TailFails) {
  ASSERT_TRUE(overall_row(small_report(), "accurate", Format::binary64, Form::erf, Quantity::value).meets_claim)
      << "precondition: the accurate row meets its claim";
  const std::string spec = "broken:plus-zero:erf.value@f64:-inf,-38.6";
  const Report bad = run_with(spec);
  ASSERT_EQ(bad.gate_failures.size(), 1u) << ::testing::PrintToString(bad.gate_failures);
  const std::string& f = bad.gate_failures[0];
  // One cause, one line: +0 for -0 on [-inf, -38.6], the infinite input included (its limit is
  // right but for the sign).
  EXPECT_EQ(f.rfind(spec + ": zero_sign: returns +0 where the value rounds to -0", 0), 0u) << f;
  EXPECT_NE(f.find("(erf.forward.f64)"), std::string::npos) << f;
  EXPECT_NE(f.find("in [-inf, -38.6]"), std::string::npos) << f;
  const Row& row = overall_row(bad, spec, Format::binary64, Form::erf, Quantity::value);
  const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
  EXPECT_LT(all.max_ulp, 1.0) << "the bound alone would have passed it";
  EXPECT_GT(all.zero_sign_mismatches, 0u);
  EXPECT_EQ(row.claim_breaks, all.zero_sign_mismatches);
}

// claims.hpp's meets(): the bound's side (strict for faithful, inclusive for correct rounding),
// the sign of zero and NaN, on hand-made errors.
TEST(Claims, MeetsReadsBoundSignOfZeroAndNaN) {
  const Claim c64 = *claim(Path::accurate, Format::binary64);
  const Claim c32 = *claim(Path::accurate, Format::binary32);
  EXPECT_FALSE(claim(Path::naive, Format::binary64));
  EXPECT_FALSE(claim(Path::naive, Format::binary32));
  for (Format f16 : {Format::binary16, Format::bfloat16}) {  // the library's 16-bit tables
    ASSERT_TRUE(claim(Path::accurate, f16));
    EXPECT_EQ(claim(Path::accurate, f16)->text, Claim::correctly_rounded().text);
  }
  Error e;
  e.ulp = std::nextafter(1.0, 0.0);
  EXPECT_TRUE(meets(c64, e));
  EXPECT_FALSE(meets(c32, e));
  e.ulp = 1.0;
  EXPECT_FALSE(meets(c64, e));
  e.ulp = 0.5;
  EXPECT_TRUE(meets(c32, e));
  e.ulp = std::nextafter(0.5, 1.0);
  EXPECT_FALSE(meets(c32, e));
  e.ulp = 0;
  e.zero_sign_mismatch = true;
  EXPECT_FALSE(meets(c64, e)) << "binary64 claims the sign of zero too";
  EXPECT_FALSE(meets(c32, e));
  e.zero_sign_mismatch = false;
  e.nan_mismatch = true;
  EXPECT_FALSE(meets(c64, e));
}

TEST(ReportGate, Properties) {
  Report r;  // no rows: only the properties of the one gated subject count
  r.subjects.resize(1);
  r.subjects[0].spec = "accurate";
  r.subjects[0].gated = true;
  Properties& p = r.subjects[0].properties;
  p.status = "skipped";
  EXPECT_TRUE(gate_failures(r).empty()) << "skipping on request is not a failure";
  p.status = "unavailable";
  p.reason = "no executable";
  EXPECT_EQ(gate_failures(r).size(), 1u) << "asked for and not run must not pass a gate";
  p.status = "run";
  p.tests = {{"Proofs.GeluForm.pdiv_map", "Diagonal", "Proofs.GeluForm.pdiv_map", 100, "pass", ""},
             {"Proofs.GeluForm.hasVJP_correct", "Sum", "Proofs.GeluForm.hasVJP_correct", 3, "fail", "x = 0x1p+0"}};
  p.exit_code = 1;
  finish(r);  // the failed property becomes a defect, the gate reads it
  const auto f = r.gate_failures;
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("hasVJP_correct"), std::string::npos);
  r.subjects[0].gated = false;
  finish(r);
  EXPECT_TRUE(r.gate_failures.empty()) << "a subject measured only is not gated";
  r.subjects[0].gated = true;
  r.gate_failures = f;
  const json j = to_json(r);
  for (const auto& t : j["lean_traceability"]) {
    if (t["theorem"] == "Proofs.GeluForm.hasVJP_correct") EXPECT_EQ(t["outcome"], "fail");
    else if (t["theorem"] == "Proofs.GeluForm.pdiv_map") EXPECT_EQ(t["outcome"], "pass");
    else EXPECT_EQ(t["outcome"], "no check");
  }
}

// The 16-bit formats are exhaustive: every non-NaN pattern and one NaN, each result measured.
TEST(ReportExhaustive, SixteenBitFormatsTakeEveryValue) {
  Options o = small_report().options;
  o.formats = {Format::bfloat16};
  o.functions = {{Form::erf, Quantity::value}};
  const Report r = run(o);
  EXPECT_EQ(r.inputsbf16.total, 65536u - 254u + 1u);  // 254 NaN patterns, one NaN kept
  for (const Row& row : r.rows) {
    EXPECT_TRUE(row.exhaustive);
    EXPECT_EQ(row.regions[static_cast<std::size_t>(Region::overall)].count, r.inputsbf16.total);
    EXPECT_EQ(row.no_result, 0u);
  }
  // accurate's bfloat16 results come from the library's 65,536-entry tables, which claim correct
  // rounding: the report holds the row to that claim, and over every bfloat16 input the error is
  // at most half an ulp (the MPFR reference decides it, not the library).
  const Row& acc = row_of(r, "accurate", Format::bfloat16, Form::erf, Quantity::value, Form::erf);
  EXPECT_EQ(acc.claim->kind, Claim::Kind::ulp);
  EXPECT_EQ(acc.claim->max_ulp, 0.5);
  EXPECT_TRUE(acc.claim->inclusive);
  EXPECT_TRUE(acc.meets_claim);
  EXPECT_LE(acc.regions[static_cast<std::size_t>(Region::overall)].max_ulp, 0.5);
}

// What a report says about where it came from (docs/report.md, "Provenance"). The version is the
// CMake project()'s, passed to this test on its own compile line; the commit is asked of git here,
// now, so that a binary older than the checkout's HEAD (a stale commit header) fails.
std::string without_dirty(std::string s) {
  const std::string suffix = "-dirty";
  if (s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.erase(s.size() - suffix.size());
  return s;
}
std::string git_describe_now() {
  // As cmake/GelucheckGitCommit.cmake: only when the source directory is the top of a work tree.
  const std::string cmd = "cd '" GELUCHECK_SOURCE_DIR "' && test -z \"$(git rev-parse --show-prefix "
                          "2>/dev/null)\" && git describe --always --dirty 2>/dev/null";
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    if (pclose(f) != 0) out.clear();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

TEST(ReportProvenance, RecordsVersionCommitCompilerLibrariesCpuAndSubjects) {
  const json j = to_json(small_report());
  ASSERT_TRUE(j.contains("provenance"));
  const json& p = j["provenance"];
  EXPECT_EQ(p["gelucheck"]["version"], GELUCHECK_EXPECTED_VERSION);
  EXPECT_EQ(j["generator"]["version"], GELUCHECK_EXPECTED_VERSION);
  EXPECT_EQ(without_dirty(p["gelucheck"]["commit"]), without_dirty(git_describe_now()))
      << "the build's commit is not the checkout's: rebuild (the header is refreshed at every build)";
  for (const char* k : {"id", "version", "standard", "build_type", "flags"})
    EXPECT_FALSE(p["compiler"][k].get<std::string>().empty()) << "compiler." << k;
  EXPECT_NE(p["compiler"]["flags"].get<std::string>().find("-ffp-contract=off"), std::string::npos)
      << "the project's pinned floating point is part of the flags";
  EXPECT_EQ(p["compiler"]["flags"].get<std::string>().find(GELUCHECK_SOURCE_DIR), std::string::npos)
      << "no machine path (the -ffile-prefix-map flag names one)";
  // The versions of the libraries loaded, against their own run-time answers.
  EXPECT_EQ(p["libraries"]["mpfr"], mpfr_get_version());
  for (const char* k : {"libc", "gmp", "boost"}) {
    const std::string v = p["libraries"][k];
    EXPECT_TRUE(!v.empty() && v.find_first_of("0123456789") != std::string::npos) << k << ": " << v;
  }
  EXPECT_FALSE(p["cpu"]["model"].get<std::string>().empty());
#if defined(__x86_64__)
  // x86-64 guarantees SSE2 but not these; the five are listed, present or not.
  std::vector<std::string> names;
  for (const auto& [name, present] : p["cpu"]["features"].items()) {
    EXPECT_TRUE(present.is_boolean()) << name;
    names.push_back(name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sse4.2", "avx", "avx2", "fma", "avx512f"}));
#endif
  EXPECT_EQ(p["subjects"], j["config"]["subjects"]);
  // The Markdown header says the same.
  const std::string md = to_markdown(j);
  const std::string head = md.substr(0, md.find("## Verdict"));
  for (const std::string& s : {std::string("Provenance: gelucheck ") + GELUCHECK_EXPECTED_VERSION,
                              "commit `" + p["gelucheck"]["commit"].get<std::string>() + "`",
                              "MPFR " + std::string(mpfr_get_version())})
    EXPECT_NE(head.find(s), std::string::npos) << s << "\n" << head;
}

TEST(ReportMarkdown, ShowsWorstCasesAsHex) {
  const json j = to_json(small_report());
  // report.md: the verdict, the defects, the at-a-glance table, the gap; the rest one link away.
  const std::string md = to_markdown(j);
  for (const char* s : {"# gelucheck accuracy report", "## Verdict", "## Defects", "## At a glance",
                        "## The tanh–erf gap", "4.7323552068728488e-04", "(report-details.md)"})
    EXPECT_NE(md.find(s), std::string::npos) << s;
  for (const char* s : {"## Summary", "## Per region", "## Properties\n"})
    EXPECT_EQ(md.find(s), std::string::npos) << s << " belongs to report-details.md";
  const std::string details = to_markdown_details(j);
  for (const char* s : {"# gelucheck accuracy report: details", "## Summary", "## Per region",
                        "## Properties", "## Lean traceability", "**The property suite was not run**"})
    EXPECT_NE(details.find(s), std::string::npos) << s;
  const std::string worst = j["accuracy"][0]["regions"]["overall"]["worst"]["x"];
  EXPECT_NE(details.find("`" + worst + "`"), std::string::npos) << worst;
}

}  // namespace
}  // namespace gelucheck::report
