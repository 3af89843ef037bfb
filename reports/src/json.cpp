// report.json: schema gelucheck.report/3 (docs/report.md documents every field).
// A non-finite number is written as the string "inf", "-inf" or "nan" (JSON has no such numbers);
// every floating-point input or result is also given as a C99 hex float.
#include <algorithm>
#include <cmath>

#include "internal.hpp"

namespace gelucheck::report {
namespace {

using json = nlohmann::ordered_json;

json num(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json fraction(std::size_t k, std::size_t n) {
  return n ? json(static_cast<double>(k) / static_cast<double>(n)) : json(nullptr);
}

json stats_json(const Stats& s, Format fmt) {
  json worst = nullptr;
  if (s.worst_x)
    worst = {{"x", hexfloat(*s.worst_x)},
             {"x_decimal", decimal_roundtrip(*s.worst_x, fmt)},
             {"expected", hexfloat(s.worst_expected.value_or(NAN))},
             {"got", hexfloat(s.worst_got.value_or(NAN))}};
  return {{"count", s.count},
          {"max_ulp", num(s.max_ulp)},
          {"worst", worst},
          {"mean_ulp", s.finite ? num(s.mean_ulp) : json(nullptr)},
          {"rms_ulp", s.finite ? num(s.rms_ulp) : json(nullptr)},
          {"finite", s.finite},
          {"fraction_correctly_rounded", fraction(s.correctly_rounded, s.count)},
          {"fraction_faithful", fraction(s.faithful, s.count)},
          {"max_abs", num(s.max_abs)},
          {"max_rel", num(s.max_rel)},
          {"max_abs_resolved", num(s.max_abs_resolved)},
          {"abs_below_resolution", s.abs_below_resolution},
          {"max_rel_normal", num(s.max_rel_normal)},
          {"rel_subnormal_faithful", s.rel_subnormal_faithful},
          {"nan_mismatches", s.nan_mismatches},
          {"zero_sign_mismatches", s.zero_sign_mismatches}};
}

json row_json(const Row& r, const Report& rep) {
  json regions = json::object();
  for (std::size_t i = 0; i < std::size(kRegions); ++i)
    regions[region_key(kRegions[i])] = stats_json(r.regions[i], r.format);
  json bins = json::array();
  for (std::size_t i = 0; i < r.histogram.bins.size(); ++i)
    if (r.histogram.bins[i]) bins.push_back({kHistLo + static_cast<int>(i), r.histogram.bins[i]});
  json claim = nullptr;
  if (r.claim && r.claim->claims_anything())
    claim = {{"text", r.claim->text},
             {"kind", r.claim->kind == Claim::Kind::ulp ? "ulp" : "allclose"},
             {"max_ulp", r.claim->kind == Claim::Kind::ulp ? json(r.claim->max_ulp) : json(nullptr)},
             {"strict", !r.claim->inclusive},
             {"atol", r.claim->kind == Claim::Kind::allclose ? json(r.claim->atol) : json(nullptr)},
             {"rtol", r.claim->kind == Claim::Kind::allclose ? json(r.claim->rtol) : json(nullptr)},
             {"zero_sign", r.claim->sign_of_zero},
             {"specials", true}};
  auto opt_hex = [](const std::optional<double>& v) { return v ? json(hexfloat(*v)) : json(nullptr); };
  return {{"implementation", rep.subjects[r.subject].spec},
          {"subject", r.subject},
          {"type", type_name(r.format)},
          {"format", name(r.format)},
          {"form", name(r.form)},
          {"quantity", name(r.quantity)},
          {"against", name(r.against)},
          {"error", r.against == r.form ? "rounding" : "model+rounding"},
          {"claim", claim},
          {"meets_claim", claim.is_null() ? json(nullptr) : json(r.meets_claim)},
          {"claim_breaks", claim.is_null() ? json(nullptr) : json(r.claim_breaks)},
          {"first_break", r.break_x ? json{{"x", hexfloat(*r.break_x)},
                                           {"expected", hexfloat(r.break_expected.value_or(NAN))},
                                           {"got", hexfloat(r.break_got.value_or(NAN))},
                                           {"ulp", num(r.break_ulp)},
                                           {"zero_sign_mismatch", r.break_zero_sign}}
                                    : json(nullptr)},
          {"exhaustive", r.exhaustive},
          {"no_result", r.no_result},
          {"framework_default",
           r.claim ? json{{"text", Claim::framework_default(r.format).text},
                          {"breaks", r.framework_breaks},
                          {"first_break", r.framework_break_x
                                              ? json{{"x", hexfloat(*r.framework_break_x)},
                                                     {"expected", opt_hex(r.framework_break_expected)},
                                                     {"got", opt_hex(r.framework_break_got)}}
                                              : json(nullptr)}}
                   : json(nullptr)},
          {"wrong_zeros", r.wrong_zeros},
          {"wrong_zero_max_x", opt_hex(r.wrong_zero_max_x)},
          {"nan", {{"min_abs_x", opt_hex(r.nan_min_abs_x)},
                   {"at_plus_inf", r.nan_at_plus_inf},
                   {"at_minus_inf", r.nan_at_minus_inf}}},
          {"finite_max_ulp", r.finite_worst_x ? num(r.finite_max_ulp) : json(nullptr)},
          {"finite_worst", r.finite_worst_x ? json{{"x", hexfloat(*r.finite_worst_x)},
                                                  {"expected", opt_hex(r.finite_worst_expected)},
                                                  {"got", opt_hex(r.finite_worst_got)}}
                                            : json(nullptr)},
          {"regions", regions},
          {"histogram", {{"zero", r.histogram.zero}, {"infinite", r.histogram.infinite},
                         {"bins_log2", bins}}}};
}

json gap_json(const GapSup& g) {
  return {{"sup", num(g.sup)},
          {"sup_decimal", g.sup_decimal},
          {"at_abs_x", num(g.at)},
          {"at_abs_x_hex", hexfloat(g.at)},
          {"gap_at", num(g.signed_gap)},
          {"certified", {{"lo", g.certified_lo}, {"hi", g.certified_hi},
                         {"at_abs_x_hex", hexfloat(g.certified_at)}}}};
}

json counts_json(const InputCounts& c) {
  return {{"random", c.random}, {"grid", c.grid}, {"hard", c.hard}, {"special", c.special},
          {"runs", c.runs}, {"total", c.total}};
}

json properties_json(const Properties& p) {
  json tests = json::array();
  std::size_t passed = 0, failed = 0, skipped = 0;
  for (const PropertyTest& t : p.tests) {
    tests.push_back({{"suite", t.suite}, {"name", t.name}, {"lean", t.lean},
                     {"cases", t.cases ? json(*t.cases) : json(nullptr)},
                     {"outcome", t.outcome}, {"message", t.message}});
    (t.outcome == "pass" ? passed : t.outcome == "fail" ? failed : skipped)++;
  }
  return {{"status", p.status},
          {"reason", p.reason},
          {"rc_params", p.rc_params},
          {"exit_code", p.status == "run" ? json(p.exit_code) : json(nullptr)},
          {"summary", {{"tests", p.tests.size()}, {"passed", passed},
                       {"failed", failed}, {"skipped", skipped}}},
          {"tests", tests}};
}

json defect_json(const Defect& d) {
  json ops = json::array(), per_op = json::array();
  for (const DefectOp& o : d.ops) {
    ops.push_back(o.op);
    per_op.push_back({{"op", o.op}, {"count", o.count}, {"x", hexfloat(o.x)},
                      {"expected", o.has_expected ? json(hexfloat(o.expected)) : json(nullptr)},
                      {"got", o.has_expected ? json(hexfloat(o.got)) : json(nullptr)},
                      {"range", d.is_range ? json{{"from", hexfloat(o.lo)}, {"to", hexfloat(o.hi)}} : json(nullptr)},
                      {"size", num(o.size)}});
  }
  auto opt_str = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
  const DefectOp& w = d.shown;
  const auto op = subject::parse_op(w.op);
  return {{"kind", defect_kind_name(d.kind)},
          {"rank", defect_rank(d.kind)},
          {"fact", d.fact},
          {"ops", ops},
          {"count", d.count},
          {"op", opt_str(w.op)},
          {"x", hexfloat(w.x)},
          {"x_decimal", decimal_roundtrip(w.x, op ? op->format : Format::binary64)},
          {"dy", d.dy ? json(hexfloat(*d.dy)) : json(nullptr)},
          {"expected", w.has_expected ? json(hexfloat(w.expected)) : json(nullptr)},
          {"got", w.has_expected ? json(hexfloat(w.got)) : json(nullptr)},
          {"size", num(w.size)},
          {"range", d.is_range ? json{{"from", hexfloat(w.lo)}, {"to", hexfloat(w.hi)}} : json(nullptr)},
          {"summary", d.summary},
          {"diagnosis", opt_str(d.diagnosis)},
          {"breaks", d.breaks_claim ? json(d.claim) : json(nullptr)},
          {"gated", d.gated},
          {"confirmation", opt_str(d.confirmation)},
          {"detail", opt_str(d.detail)},
          {"reproduce", d.reproduce},
          {"reproduce_native", opt_str(d.reproduce_native)},
          {"properties", d.properties},
          {"per_op", per_op}};
}

json subject_json(const SubjectResult& s) {
  json findings = json::array();
  for (const subject::Finding& f : s.findings)
    findings.push_back({{"op", subject::op_name(f.op)},
                        {"kind", subject::kind_name(f.status.kind)},
                        {"message", f.status.message},
                        {"x", hexfloat(f.x)},
                        {"dy", f.dy ? json(hexfloat(*f.dy)) : json(nullptr)},
                        {"text", subject::describe(f)}});
  json claims = json::object();
  for (const subject::Function& fn : subject::all_functions)
    for (Format fmt : all_formats) {
      const Claim c = s.claims.get(fn, fmt);
      claims[subject::function_name(fn) + "@" + std::string(subject::dtype_name(fmt))] =
          c.claims_anything() ? json(c.text) : json("none");
    }
  return {{"spec", s.spec},
          {"description", s.description},
          {"provides", s.provides},
          {"not_measured", s.not_measured},
          {"strided", s.strided},
          {"fresh_evaluations", s.fresh_evaluations},
          {"claims_source", s.claims_source},
          {"claims", claims},
          {"gated", s.gated},
          {"defects", [&] {
             json a = json::array();
             for (const Defect& d : s.defects) a.push_back(defect_json(d));
             return a;
           }()},
          {"findings", findings},
          {"failed_results", s.failed_results},
          {"properties", properties_json(s.properties)}};
}

}  // namespace

// Which gelucheck, built how, with which libraries, on which CPU (docs/report.md, "Provenance").
json to_json(const Report& r) {
  json j;
  j["schema"] = kSchema;
  j["generator"] = {{"program", "gelucheck report"}, {"version", r.provenance.version}};
  std::vector<std::string> specs;
  for (const SubjectResult& s : r.subjects) specs.push_back(s.spec);
  j["provenance"] = provenance_json(r.provenance, specs);
  j["config"] = {{"seed", r.options.seed},
                 {"points", r.options.points},
                 {"properties", r.options.properties},
                 {"property_cases", r.options.property_cases},
                 {"plots", r.options.plots},
                 {"command", r.options.command},
                 {"subjects", r.options.subjects},
                 {"claims", r.options.claims}};
  j["measures"] = {
      {"ulp", "|r - y| / 2^(max(floor(log2|y|), emin) - p + 1), y exact (docs/reference.md §5)"},
      {"reference", "binary64: MPFR enclosure of relative width 2^-128 (gelucheck::ref::enclose); "
                    "binary32, bfloat16, binary16: the fast reference (gelucheck::ref::round_batch, "
                    "MPFR where it cannot decide), f(x) to 2^-70 relative and its roundings "
                    "exactly; errors by gelucheck::measure"},
      {"correctly_rounded", "ulp <= 0.5"},
      {"faithful", "ulp < 1"},
      {"max_abs_resolved", "max |r - y| over the points where |r - y| as measured exceeds the "
                           "reference's resolution (binary64: the enclosure's half-width, <= "
                           "2^-129 |y|; the other formats: 2^-70 |y|); the others are counted in "
                           "abs_below_resolution"},
      {"max_rel_normal", "max |r - y| / |y| leaving out the faithful results of an exact y "
                         "below the format's least normal (gradual underflow: relative error up "
                         "to 1), counted in rel_subnormal_faithful"}};
  j["inputs"] = {{"binary64", counts_json(r.inputs64)}, {"binary32", counts_json(r.inputs32)},
                 {"bfloat16", counts_json(r.inputsbf16)}, {"binary16", counts_json(r.inputs16)}};
  j["subjects"] = json::array();
  for (const SubjectResult& s : r.subjects) j["subjects"].push_back(subject_json(s));
  j["regions"] = json::array();
  for (Region g : kRegions) j["regions"].push_back({{"key", region_key(g)}, {"name", region_name(g)}});
  j["accuracy"] = json::array();
  for (const Row& row : r.rows) j["accuracy"].push_back(row_json(row, r));
  if (!r.exhaustive.is_null()) j["exhaustive"] = r.exhaustive;
  j["gap"] = {{"value", gap_json(r.gap.value)},
              {"derivative", gap_json(r.gap.derivative)},
              {"curve", {{"lo", r.gap.curve_lo}, {"hi", r.gap.curve_hi},
                         {"points", r.gap.curve_x.size()}}}};

  const Properties& p = r.properties();
  j["properties"] = properties_json(p);

  // Lean traceability: every theorem, the checks that mirror it, and their joint outcome.
  json trace = json::array();
  auto entry = [&](const std::string& theorem) {
    json checks = json::array();
    std::string outcome = p.status == "run" ? "no check" : "not run";
    bool any = false, any_fail = false, all_skipped = true;
    for (const PropertyTest& t : p.tests)
      if (t.lean == theorem) {
        checks.push_back(t.suite + "." + t.name);
        any = true;
        any_fail |= t.outcome == "fail";
        all_skipped &= t.outcome == "skipped";
      }
    if (any) outcome = any_fail ? "fail" : all_skipped ? "skipped" : "pass";
    return json{{"theorem", theorem}, {"checks", checks}, {"outcome", outcome}};
  };
  for (const std::string& th : lean_theorems()) trace.push_back(entry(th));
  // Any other lean value the checks record ("none": no theorem; a theorem not in the list), in
  // order of first appearance, so nothing the suite ran is hidden.
  std::vector<std::string> extra;
  for (const PropertyTest& t : p.tests) {
    bool known = std::find(lean_theorems().begin(), lean_theorems().end(), t.lean) != lean_theorems().end();
    if (!known && std::find(extra.begin(), extra.end(), t.lean) == extra.end()) extra.push_back(t.lean);
  }
  for (const std::string& e : extra) trace.push_back(entry(e));
  j["lean_traceability"] = trace;

  if (!r.variants.is_null()) j["variants"] = r.variants;
  j["gate"] = {{"passed", r.gate_failures.empty()}, {"failures", r.gate_failures}};
  j["plots"] = json::array();
  if (r.options.plots)
    for (const std::string& f : plot_files(r)) j["plots"].push_back(f);
  // The only part that changes between two runs with the same config.
  j["run"] = {{"started_utc", r.started_utc},
              {"threads", r.options.threads},
              // The file name only: where this installation keeps it is no part of a report.
              {"proptests_executable", p.executable.substr(p.executable.rfind('/') + 1)},
              {"seconds", {{"campaign", r.seconds_campaign}, {"gap", r.seconds_gap},
                           {"properties", r.seconds_properties},
                           {"variants", r.seconds_variants}}}};
  return j;
}

}  // namespace gelucheck::report
