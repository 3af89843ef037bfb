// report.md, rendered from report.json's content only (so the two never disagree).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "gelucheck/diff.hpp"
#include "internal.hpp"  // fmt_num, fmt_ulp, kinds_for, op_name_of

namespace gelucheck::report {
namespace {

using json = nlohmann::ordered_json;

std::string percent(const json& v) {
  if (v.is_null()) return "–";
  const double f = v.get<double>();
  if (f == 1) return "100%";
  if (f == 0) return "0%";
  char buf[64];
  // Enough digits that 1 miss in 10^5 does not print as 100%.
  std::snprintf(buf, sizeof buf, "%.6g%%", 100 * f);
  return buf;
}

// A table cell: no pipes, no line breaks.
std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

std::string worst(const json& w) {
  if (w.is_null()) return "–";
  return "`" + w["x"].get<std::string>() + "`";
}

// max abs above the reference's resolution, or "–" when no result's error was above it.
std::string abs_cell(const json& s) {
  const json& a = s["max_abs_resolved"];
  const bool none_resolved = a.is_number() && a.get<double>() == 0 &&
                             s["abs_below_resolution"].get<std::size_t>() > 0;
  return none_resolved ? "–" : fmt_num(a);
}

std::string stats_cells(const json& s) {
  std::ostringstream o;
  const json& w = s["worst"];
  o << s["count"].get<std::size_t>() << " | " << fmt_ulp(s["max_ulp"]) << " | " << worst(w)
    << " | " << (w.is_null() ? "–" : "`" + w["expected"].get<std::string>() + "`") << " | "
    << (w.is_null() ? "–" : "`" + w["got"].get<std::string>() + "`") << " | "
    << fmt_num(s["mean_ulp"]) << " | " << fmt_num(s["rms_ulp"]) << " | "
    << percent(s["fraction_correctly_rounded"]) << " | " << percent(s["fraction_faithful"])
    << " | " << abs_cell(s) << " | " << fmt_num(s["max_rel_normal"]) << " | "
    << s["nan_mismatches"].get<std::size_t>() << " | "
    << s["zero_sign_mismatches"].get<std::size_t>();
  return o.str();
}

const char* kStatsHeader =
    "points | max ulp | at x | expected | got | mean ulp | RMS ulp | correctly rounded | "
    "faithful | max abs | max rel | NaN mism. | ±0 mism.";
const char* kStatsRule = "---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:";

std::string verdict(const json& row) {
  if (row["claim"].is_null()) return "no claim";
  return std::string(row["meets_claim"].get<bool>() ? "holds" : "**BROKEN**") + ": " +
         cell(row["claim"]["text"].get<std::string>());
}

}  // namespace

namespace {

// check --exhaustive's own section: per function the failing count per region and the failing
// inputs (up to the cap), each in hex with the correctly rounded value and the result.
std::string exhaustive_section(const json& ex, const json& regions) {
  std::ostringstream o;
  o << "\n## Exhaustive binary32\n\n"
    << "Every non-NaN binary32 bit pattern in [" << ex["range"]["lo"].get<std::string>() << ", "
    << ex["range"]["hi"].get<std::string>() << ")" << (ex["all_of_binary32"].get<bool>() ? " (all of binary32)" : "")
    << ": " << ex["inputs"].get<std::uint64_t>() << " inputs (" << ex["nan_patterns_skipped"].get<std::uint64_t>()
    << " NaN patterns skipped), against " << ex["reference"].get<std::string>() << " ("
    << ex["reference_fast"].get<std::uint64_t>() << " results by its fast path, "
    << ex["reference_fallback"].get<std::uint64_t>() << " by MPFR). An input fails when its result "
    << "breaks the claim.\n\n";
  o << "function | claim | inputs | failing";
  for (const auto& g : regions)
    if (g["key"] != "overall") o << " | " << cell(g["name"].get<std::string>());
  o << "\n---|---|---:|---:";
  for (const auto& g : regions)
    if (g["key"] != "overall") o << "|---:";
  o << "\n";
  for (const auto& f : ex["functions"]) {
    o << f["function"].get<std::string>() << " | " << cell(f["claim"].get<std::string>()) << " | "
      << f["inputs"].get<std::uint64_t>() << " | " << f["failing"].get<std::uint64_t>();
    for (const auto& g : regions)
      if (g["key"] != "overall")
        o << " | " << f["failing_by_region"][g["key"].get<std::string>()].get<std::uint64_t>();
    o << "\n";
  }
  for (const auto& f : ex["functions"]) {
    if (f["failures"].empty()) continue;
    o << "\n### Failing inputs of " << f["function"].get<std::string>()
      << (f["failures_truncated"].get<bool>()
              ? " (the first " + std::to_string(f["failures"].size()) + " of " +
                    std::to_string(f["failing"].get<std::uint64_t>()) + ", in bit-pattern order; --failures N lists more)"
              : "")
      << "\n\nx | bits | region | expected (correctly rounded) | got | ulp\n---|---|---|---|---|---:\n";
    for (const auto& x : f["failures"])
      o << "`" << x["x"].get<std::string>() << "` | `" << x["bits"].get<std::string>() << "` | "
        << x["region"].get<std::string>() << " | `" << x["expected"].get<std::string>() << "` | `"
        << x["got"].get<std::string>() << "` | " << fmt_ulp(x["ulp"]) << "\n";
  }
  return o.str();
}

}  // namespace

namespace {

// The lines every report file opens with: what made it, from what, on what.
void header(std::ostringstream& o, const json& j) {
  const json& cfg = j["config"];
  std::string subjects;
  for (const auto& sj : j["subjects"]) subjects += (subjects.empty() ? "`" : ", `") + sj["spec"].get<std::string>() + "`";
  const json* ex = j.contains("exhaustive") ? &j["exhaustive"] : nullptr;
  o << "Made by `" << cfg["command"].get<std::string>() << "` (";
  if (ex)
    o << "exhaustive: " << ((*ex)["all_of_binary32"].get<bool>()
                                ? "every binary32 input"
                                : "every binary32 input of the bit patterns [" +
                                      (*ex)["range"]["lo"].get<std::string>() + ", " +
                                      (*ex)["range"]["hi"].get<std::string>() + ")")
      << ", " << (*ex)["inputs"].get<std::uint64_t>() << " inputs; no sampled campaign, no "
      << "property suite, no plots";
  else
    o << "seed " << cfg["seed"].get<std::uint64_t>() << ", " << cfg["points"].get<std::size_t>()
      << " points per sampled format" << (cfg["properties"].get<bool>() ? "" : ", `--no-properties`")
      << (cfg["plots"].get<bool>() ? "" : ", `--no-plots`");
  o << ") on " << j["run"]["started_utc"].get<std::string>()
    << ", measuring " << subjects << ". Machine-readable twin: `report.json` (schema `" << j["schema"].get<std::string>()
    << "`, documented in the repository's `docs/report.md`, which also says how to read every "
       "column).\n\n";
  // Provenance (docs/report.md): two reports compare only when these say what differs.
  if (j.contains("provenance")) {
    const json& p = j["provenance"];
    std::string on, off;
    for (const auto& [feature, present] : p["cpu"]["features"].items())
      (present.get<bool>() ? on : off) += (present.get<bool>() ? on : off).empty() ? feature : " " + feature;
    o << "Provenance: gelucheck " << p["gelucheck"]["version"].get<std::string>() << " (commit `"
      << p["gelucheck"]["commit"].get<std::string>() << "`), built by "
      << p["compiler"]["id"].get<std::string>() << " " << p["compiler"]["version"].get<std::string>()
      << " (" << p["compiler"]["standard"].get<std::string>() << ", "
      << p["compiler"]["build_type"].get<std::string>() << ", `" << p["compiler"]["flags"].get<std::string>()
      << "`); " << p["libraries"]["libc"].get<std::string>() << ", MPFR "
      << p["libraries"]["mpfr"].get<std::string>() << ", GMP " << p["libraries"]["gmp"].get<std::string>()
      << ", Boost " << p["libraries"]["boost"].get<std::string>() << "; CPU "
      << cell(p["cpu"]["model"].get<std::string>()) << " (vector features: " << (on.empty() ? "none" : on)
      << (off.empty() ? "" : "; without " + off) << ").\n\n";
  }
  for (const auto& sj : j["subjects"])
    if (sj["spec"].get<std::string>().rfind("broken:", 0) == 0)
      o << "> **A DELIBERATELY BROKEN SUBJECT** is measured here (`" << sj["spec"].get<std::string>()
        << "`: " << sj["description"].get<std::string>() << "), on purpose.\n\n";

}

// One line per defect: the kind, what it is, where; the diagnosis and the reproducer beside it.
void defect_lines(std::ostringstream& o, const json& sj) {
  const json& ds = sj["defects"];
  if (ds.empty()) {
    o << "No defects.\n";
    return;
  }
  std::size_t k = 0;
  for (const auto& d : ds) {
    o << ++k << ". **" << d["kind"].get<std::string>() << "**"
      << (d["gated"].get<bool>() ? " (gate)" : "") << " " << cell(d["summary"].get<std::string>());
    if (!d["diagnosis"].is_null()) o << " — *" << cell(d["diagnosis"].get<std::string>()) << "*";
    if (!d["confirmation"].is_null()) o << " — " << cell(d["confirmation"].get<std::string>());
    if (!d["properties"].empty())
      o << " — explains " << d["properties"].size() << " failed propert"
        << (d["properties"].size() == 1 ? "y" : "ies");
    o << ". Reproduce: `" << cell(d["reproduce"].get<std::string>()) << "`";
    if (!d["reproduce_native"].is_null()) o << "; natively: `" << cell(d["reproduce_native"].get<std::string>()) << "`";
    o << "\n";
  }
}

}  // namespace

std::string to_markdown(const json& j) {
  std::ostringstream o;
  o << "# gelucheck accuracy report\n\n";
  header(o, j);
  const json* ex = j.contains("exhaustive") ? &j["exhaustive"] : nullptr;

  o << "## Verdict\n\n";
  if (j["gate"]["passed"].get<bool>())
    o << "`--gate` passes: every claim of a gated subject (one that claims something) holds and "
         "every property that ran on it passed. Measured-only subjects are held to nothing; their "
         "defects are listed with the claim they would break.\n\n";
  else
    o << "`--gate` FAILS on " << j["gate"]["failures"].size() << " line(s) (the defects marked "
      << "*(gate)* below; report.json `gate.failures`).\n\n";
  o << "subject | what it is | held to | defects | breaking its claims\n---|---|---|---:|---:\n";
  for (const auto& sj : j["subjects"]) {
    std::size_t breaking = 0;
    for (const auto& d : sj["defects"]) breaking += d["gated"].get<bool>() || !d["breaks"].is_null();
    o << "`" << sj["spec"].get<std::string>() << "` | " << cell(sj["description"].get<std::string>())
      << " | " << sj["claims_source"].get<std::string>()
      << (sj["gated"].get<bool>() ? " (gated)" : " (measured only)") << " | " << sj["defects"].size()
      << " | " << breaking << "\n";
  }

  o << "\n## Defects\n\n"
    << "One line per cause, however many inputs, ops and properties show it, ranked: crashes, "
       "hangs and writes first, then NaN and limits, wrong-sign zeros and flushes, then accuracy by "
       "size (docs/report.md, \"Defects\"). Each names its first or worst input and a command that "
       "shows it.\n";
  for (const auto& sj : j["subjects"]) {
    o << "\n### `" << sj["spec"].get<std::string>() << "`\n\n";
    defect_lines(o, sj);
  }

  // One line per subject and format, one column per function: what a reader compares across
  // libraries (docs/report.md, "At a glance"; the README shows this table).
  o << "\n## At a glance\n\n"
    << "Per subject and format, for each function: the max ulp error over the finite results of "
       "finite inputs (\"≤ 0.5\": correctly rounded; special inputs and non-finite results are "
       "defects of their own, above) and "
       "the kinds of defect in that op, if any (\"–\": not measured).\n\n"
    << "subject | format | tanh value | tanh derivative | erf value | erf derivative\n"
       "---|---|---|---|---|---\n";
  for (const auto& sj : j["subjects"]) {
    for (const char* fmt : {"binary64", "binary32", "bfloat16", "binary16"}) {
      std::string cells[4];
      bool any = false;
      for (const auto& row : j["accuracy"]) {
        if (row["error"] != "rounding" || row["implementation"] != sj["spec"] || row["format"] != fmt)
          continue;
        const int k = (row["form"] == "erf" ? 2 : 0) + (row["quantity"] == "derivative" ? 1 : 0);
        const std::string kinds = kinds_for(sj, op_name_of(row));
        // At most half an ulp is correctly rounded whatever the digits (report-details.md has
        // them): "≤ 0.5" keeps the table short; above it the digits show how far.
        const json& m = row["finite_max_ulp"];
        cells[k] = row["finite_worst"].is_null()            ? std::string("–")
                   : m.is_number() && m.get<double>() <= 0.5 ? std::string("≤ 0.5")
                                                             : fmt_ulp(m);
        if (kinds != "–") cells[k] += " · " + kinds;
        any = true;
      }
      if (!any) continue;
      o << "`" << sj["spec"].get<std::string>() << "` | " << fmt;
      for (const std::string& c : cells) o << " | " << (c.empty() ? "–" : c);
      o << "\n";
    }
  }
  if (j.contains("variants") && !j["variants"].empty()) {
    o << "\n## Variants\n\n"
      << "Each peer against its variants (layouts, threads, ISA builds) over the same inputs, as "
         "`gelucheck diff PEER --variants` does. "
      << diff::kComparedHow << " Each difference, op by op: [report-details.md](report-details.md#variants).\n\n"
      << "default | variant | verdict\n---|---|---\n";
    for (const json& c : j["variants"])
      o << "`" << c["a"]["spec"].get<std::string>() << "` | `" << c["b"]["spec"].get<std::string>()
        << "` | " << diff::verdict_cell(c) << "\n";
  }
  const json& gap = j["gap"];
  if (!ex) {
    o << "\n## The tanh–erf gap\n\n"
      << "g(x) = tanh form − erf form, exact (MPFR), sampled at " << gap["curve"]["points"].get<std::size_t>()
      << " points over [" << fmt_num(gap["curve"]["lo"]) << ", " << fmt_num(gap["curve"]["hi"])
      << "] and refined by golden-section search. The value gap is even in x, the derivative gap "
         "odd, so the sup is reached at ±|x|.\n\n"
      << "quantity | sup \\|g\\| | at \\|x\\| | g there | certified sup over all reals "
         "(docs/lean.md), at \\|x\\|\n---|---:|---:|---:|---\n";
    for (const char* q : {"value", "derivative"}) {
      const json c = gap[q].value("certified", json::object());
      o << q << " | " << gap[q]["sup_decimal"].get<std::string>() << " | "
        << fmt_num(gap[q]["at_abs_x"], 17) << " (`" << gap[q]["at_abs_x_hex"].get<std::string>()
        << "`) | " << fmt_num(gap[q]["gap_at"], 17) << " | "
        << (c.contains("lo") ? "[" + c["lo"].get<std::string>() + ", " + c["hi"].get<std::string>() +
                                   "] at `" + c["at_abs_x_hex"].get<std::string>() + "`"
                             : std::string("–"))
        << "\n";
    }
  }

  if (ex) o << exhaustive_section(*ex, j["regions"]);

  o << "\n## Plots\n\n";
  if (j["plots"].empty()) o << "Not drawn (`--no-plots`).\n";
  for (const auto& f : j["plots"]) {
    const std::string n = f.get<std::string>();
    o << "![" << n << "](" << n << ")\n\n";
  }

  const json& sec = j["run"]["seconds"];
  o << "\nRun time: campaign " << fmt_num(sec["campaign"], 1, true) << " s, gap "
    << fmt_num(sec["gap"], 1, true) << " s, properties " << fmt_num(sec["properties"], 1, true)
    << " s" << (sec.contains("variants") && j.contains("variants")
                    ? ", variants " + fmt_num(sec["variants"], 1, true) + " s"
                    : std::string())
    << ", on " << j["run"]["threads"].get<unsigned>() << " thread(s).\n";
  o << "\nDetails — every subject's description and findings, the statistics of every row over all "
       "inputs and per region, every property with its counterexample, the Lean traceability and the "
       "inputs: [report-details.md](report-details.md).\n";
  return o.str();
}

std::string to_markdown_details(const json& j) {
  std::ostringstream o;
  o << "# gelucheck accuracy report: details\n\n"
    << "The details behind [report.md](report.md) (the verdict and the defects are there).\n\n";
  header(o, j);
  const json* ex = j.contains("exhaustive") ? &j["exhaustive"] : nullptr;
  o << "## Subjects\n\n"
    << "subject | what it says it is | held to | provides | not measured | findings | properties\n"
    << "---|---|---|---|---|---|---\n";
  for (const auto& sj : j["subjects"]) {
    // "OP: the subject does not provide OP" lines folded into one list; other reasons kept.
    std::string nm, absent;
    for (const auto& x : sj["not_measured"]) {
      const std::string t = x.get<std::string>();
      const std::string op = t.substr(0, t.find(':'));
      if (t == op + ": the subject does not provide " + op) absent += (absent.empty() ? "" : ", ") + op;
      else nm += (nm.empty() ? "" : "<br>") + t;
    }
    if (!absent.empty()) nm = "not provided: " + absent + (nm.empty() ? "" : "<br>" + nm);
    std::string fd;
    for (const auto& f : sj["findings"]) fd += (fd.empty() ? "" : "<br>") + f["text"].get<std::string>();
    const json& ps = sj["properties"];
    std::string pr = ps["status"] != "run"
                         ? "not run (" + ps["status"].get<std::string>() + ")"
                         : std::to_string(ps["summary"]["passed"].get<std::size_t>()) + " passed, " +
                               std::to_string(ps["summary"]["failed"].get<std::size_t>()) + " failed, " +
                               std::to_string(ps["summary"]["skipped"].get<std::size_t>()) + " skipped";
    o << "`" << sj["spec"].get<std::string>() << "` | " << cell(sj["description"].get<std::string>())
      << " | " << sj["claims_source"].get<std::string>() << (sj["gated"].get<bool>() ? " (gated)" : " (measured only)")
      << " | " << sj["provides"].size() << " ops | " << (nm.empty() ? "–" : cell(nm)) << " | "
      << (fd.empty() ? "none" : cell(fd)) << " | " << pr << "\n";
  }

  o << "## Summary (all inputs)\n\n"
    << "Errors in ulps of the format (docs/report.md) against the exact function (MPFR), over every "
       "input of the campaign. `against erf` rows measure the tanh form against the exact GELU "
       "x·Φ(x): model error plus rounding error; the other rows are rounding error only.\n\n"
    << "subject | type | function | against | " << kStatsHeader << " | claim\n"
    << "---|---|---|---|" << kStatsRule << "|---\n";
  for (const auto& row : j["accuracy"]) {
    o << "`" << row["implementation"].get<std::string>() << "` | " << row["type"].get<std::string>()
      << " | " << row["form"].get<std::string>() << " " << row["quantity"].get<std::string>()
      << " | " << row["against"].get<std::string>() << " | "
      << stats_cells(row["regions"]["overall"]) << " | " << verdict(row) << "\n";
  }
  o << "\nHow to read `max abs` and `max rel` (docs/report.md): both leave out what is the "
       "measure's own noise, not an error. `max abs` is over the results whose distance to the "
       "reference enclosure's midpoint exceeds its half-width (2^-129·|y|): below that the true "
       "error cannot be told from 0, and huge |y| (x near DBL_MAX) would otherwise show "
       "astronomically large \"errors\" of correctly rounded results; `–` means no result was "
       "above the resolution. `max rel` leaves out the faithful results of an exact value "
       "below the format's least normal: there the spacing is absolute, so even a correctly "
       "rounded ±0 or subnormal has a relative error up to 1 (exactly 1 for a result ±0 where "
       "the exact value is a tiny nonzero number that rounds to zero). A flush to zero where the "
       "exact value is normal (the naive path's negative tail) still counts, with relative error 1.\n";

  o << "\n## Per region\n\n"
    << "Regions of x: " ;
  bool first = true;
  for (const auto& g : j["regions"]) {
    o << (first ? "" : ", ") << "`" << g["name"].get<std::string>() << "`";
    first = false;
  }
  o << ". They partition the inputs except `subnormal |x|` (inside [-1, 1]) and NaN (only in "
       "`overall`).\n";
  for (const auto& row : j["accuracy"]) {
    o << "\n### `" << row["implementation"].get<std::string>() << "` "
      << row["type"].get<std::string>() << " (" << row["format"].get<std::string>() << ") "
      << row["form"].get<std::string>() << " " << row["quantity"].get<std::string>()
      << (row["error"] == "rounding" ? " — rounding error"
                                     : " — against the exact GELU (erf form): model + rounding")
      << "\n\nregion | " << kStatsHeader << "\n---|" << kStatsRule << "\n";
    for (const auto& g : j["regions"]) {
      const json& s = row["regions"][g["key"].get<std::string>()];
      o << "`" << g["name"].get<std::string>() << "` | " << stats_cells(s) << "\n";
    }
  }

  o << "\n## Properties\n";
  for (const auto& sj : j["subjects"]) {
    const json& p = sj["properties"];
    o << "\n### `" << sj["spec"].get<std::string>() << "`\n\n";
    if (p["status"] != "run") {
      o << "**The property suite was not run** (" << p["status"].get<std::string>() << "): "
        << p["reason"].get<std::string>() << "\n";
      continue;
    }
    const json& s = p["summary"];
    o << s["tests"].get<std::size_t>() << " checks: " << s["passed"].get<std::size_t>()
      << " passed, " << s["failed"].get<std::size_t>() << " failed, "
      << s["skipped"].get<std::size_t>() << " skipped (exit status "
      << p["exit_code"].get<int>() << ", RC_PARAMS `" << p["rc_params"].get<std::string>()
      << "`). Cases are RapidCheck's count where the suite reports it.\n\n"
      << "check | Lean theorem | cases | outcome | counterexample or reason\n---|---|---:|---|---\n";
    for (const auto& t : p["tests"]) {
      o << "`" << t["suite"].get<std::string>() << "." << t["name"].get<std::string>() << "` | "
        << cell(t["lean"].get<std::string>().empty() ? "(not recorded)" : t["lean"].get<std::string>())
        << " | " << (t["cases"].is_null() ? "–" : std::to_string(t["cases"].get<std::uint64_t>()))
        << " | " << (t["outcome"] == "fail" ? "**fail**" : t["outcome"].get<std::string>()) << " | "
        << cell(t["message"].get<std::string>()) << "\n";
    }
  }

  o << "\n## Lean traceability\n\n"
    << "Every theorem of `LeanMlir.Proofs.Architectures.GeluForm`, the checks that mirror it and "
       "their joint outcome on the first subject (`none`: the checks that mirror no theorem).\n\n"
    << "theorem | checks | outcome\n---|---|---\n";
  for (const auto& t : j["lean_traceability"]) {
    std::string checks;
    for (const auto& c : t["checks"]) checks += (checks.empty() ? "`" : ", `") + c.get<std::string>() + "`";
    o << "`" << cell(t["theorem"].get<std::string>().empty() ? "(not recorded)" : t["theorem"].get<std::string>())
      << "` | " << (checks.empty() ? "–" : checks) << " | " << t["outcome"].get<std::string>() << "\n";
  }

  o << "\n## Inputs\n\n";
  if (ex)
    o << "binary32: every non-NaN bit pattern of [" << (*ex)["range"]["lo"].get<std::string>() << ", "
      << (*ex)["range"]["hi"].get<std::string>() << ") (exhaustive), "
      << (*ex)["inputs"].get<std::uint64_t>() << " inputs per function.\n\n";
  else
    o << "binary16 and bfloat16: every value (exhaustive).\n\n";
  if (!ex) {
    o << "format | random bit patterns | grid over [-40, 10] | hard points | specials | total\n"
      << "---|---:|---:|---:|---:|---:\n";
    for (const char* f : {"binary64", "binary32", "bfloat16", "binary16"}) {
      const json& c = j["inputs"][f];
      if (c["total"].get<std::size_t>() == 0) continue;
      o << f << " | " << c["random"].get<std::size_t>() << " | " << c["grid"].get<std::size_t>()
        << " | " << c["hard"].get<std::size_t>() << " | " << c["special"].get<std::size_t>() << " | "
        << c["total"].get<std::size_t>() << "\n";
  }
  }
  if (j.contains("variants") && !j["variants"].empty()) {
    o << "\n## Variants\n\n" << diff::kComparedHow << "\n\n";
    for (const json& c : j["variants"]) o << diff::comparison_markdown(c, "###");
  }
  return o.str();
}

}  // namespace gelucheck::report
