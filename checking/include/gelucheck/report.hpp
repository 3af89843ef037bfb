// gelucheck/report.hpp — what a check finds (docs/report.md): a seeded campaign of the subjects
// against the MPFR reference, the tanh–erf gap, the property suite's outcome, the defects found in
// them, the gate. The files a report is written as (report.json, report.md, report.html, plots)
// are reports/'s: gelucheck/render.hpp.
//
// Data flows one way: reference → campaign → Report → JSON → Markdown, HTML; the plots are drawn
// from the per-point data the Report keeps (not written to JSON).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/defects.hpp"
#include "gelucheck/harness.hpp"
#include "gelucheck/regions.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::report {

inline constexpr const char* kSchema = "gelucheck.report/3";
inline constexpr std::uint64_t kDefaultSeed = 1;
// Random + grid points per format (hard points and specials come on top). 2 formats × 2 forms ×
// 2 quantities reference enclosures per point; see docs/report.md for the measured run time.
inline constexpr std::size_t kDefaultPoints = 50000;
inline constexpr std::size_t kMinPoints = 16;
inline constexpr std::size_t kMaxPoints = 100000000;
// The other defaults every command shares (one home: the commands' options start from these).
inline constexpr unsigned kDefaultThreads = 2;
inline constexpr double kDefaultCallTimeoutSeconds = 60;  // per call of an out-of-process subject
inline constexpr unsigned kDefaultPropertyCases = 1000;   // the suite's default CTest tier too

// The regions of x in which the error is summarised: the one table of gelucheck/regions.hpp
// (names, JSON keys, regions_of), which the property suite's tags use too.
using gelucheck::kRegions;
using gelucheck::Region;
using gelucheck::region_key;
using gelucheck::region_name;
using gelucheck::regions_of;

struct Options {
  std::uint64_t seed = kDefaultSeed;
  std::size_t points = kDefaultPoints;  // binary64 and binary32; the 16-bit formats are exhaustive
  unsigned threads = kDefaultThreads;  // results never depend on it (each point is written to its own slot)
  bool progress = false;      // progress line on stderr (the CLI sets it when stderr is a tty)
  bool properties = true;     // run the property suite on every subject
  // RapidCheck cases per property (RC_PARAMS max_success; the suite's default CTest tier uses 1000).
  unsigned property_cases = kDefaultPropertyCases;
  std::string proptests;      // its executable; empty = the one built with gelucheck (if any)
  bool plots = true;          // draw the plots with gnuplot
  // The subjects measured (subject.hpp specs), in report order. Each is held to its own claims
  // (the built-ins') or, where `claims` is non-empty, to those items (ClaimSet::apply) — the
  // claims of `gelucheck check --claim`; a subject with neither is measured against nothing
  // (`claim: none`) but still gets the framework-default verdict column.
  // By default the library's two paths; the reference in a build without the library.
  std::vector<std::string> subjects = subject::library_built()
                                          ? std::vector<std::string>{"accurate", "naive"}
                                          : std::vector<std::string>{"reference"};
  std::vector<std::string> claims;
  // Every (function, format) a subject does not claim itself is held to Claim::framework_default
  // (before the `claims` items apply); false: to nothing.
  bool default_to_framework_claim = true;
  // Whether the gate counts every subject (check) or only those that claim something of
  // themselves or are given claims (report: the peers are measured, not gated).
  bool gate_every_subject = false;
  std::vector<Format> formats{Format::binary64, Format::binary32, Format::bfloat16,
                              Format::binary16};
  std::vector<subject::Function> functions{std::begin(subject::all_functions),
                                           std::end(subject::all_functions)};
  double call_timeout_seconds = kDefaultCallTimeoutSeconds;
  // Peers (by name) compared with each of their variants, as `gelucheck diff PEER --variants`
  // does, over the campaign's inputs (report.json's `variants`). `gelucheck report` fills it
  // with the peers it measures unless --no-variants.
  std::vector<std::string> variants_of;
  std::string command = "gelucheck report";  // the command line's name, for the header
  // TEST ONLY: points measured at a time by the campaign (0: its default, kCampaignChunk in
  // checking/src/internal.hpp), to show that the chunks change no number. Not reachable from the CLI.
  std::size_t campaign_chunk = 0;
};


// What a run of `opt` will take, estimated before it starts from the work asked (docs/report.md,
// "Resources"): the peak memory of gelucheck itself (the property suite and gnuplot are other
// processes) and the seconds of the campaign and the gap on opt.threads threads.
struct Estimate {
  std::uint64_t bytes = 0;
  double seconds = 0;
};
Estimate estimate(const Options& opt);
// "45 s", "12 min", "3.5 h", "2.1 days".
std::string describe_seconds(double s);
// The progress line: "[gelucheck report] WHAT: DONE/TOTAL ( P%), ETA T", the ETA from the rate
// so far (`elapsed` seconds into the phase), once a second has passed and some work is done.
std::string progress_line(const char* what, std::size_t done, std::size_t total, double elapsed);

const char* type_name(Format fmt);   // "double", "float", "bfloat16", "float16" (C/C++ names)

// The summary of the errors of one implementation over one region (docs/reference.md §5, via measure()).
struct Stats {
  std::size_t count = 0;
  double max_ulp = 0;           // +inf when some error is infinite (NaN mismatch, inf vs finite)
  // The first input (in campaign order) where max_ulp is reached; absent when count == 0.
  std::optional<double> worst_x, worst_expected, worst_got;
  double mean_ulp = 0, rms_ulp = 0;  // over the points with a finite ulp error
  std::size_t finite = 0;            // how many those are
  std::size_t correctly_rounded = 0, faithful = 0;
  double max_abs = 0, max_rel = 0;  // over every point (measure()'s abs and rel)
  // The same with the measure's noise left out (docs/report.md, "max abs and max rel"; these are
  // what report.md shows): max_abs_resolved is over the points whose |r - midpoint| exceeds the
  // enclosure's half-width (below it the true error cannot be told from 0 at the reference's
  // 2^-128 resolution: counted in abs_below_resolution); max_rel_normal leaves out the faithful
  // results of an exact value below the format's least normal (±0 or a subnormal, whose relative
  // error reaches 1 by the format's gradual underflow: counted in rel_subnormal_faithful).
  double max_abs_resolved = 0, max_rel_normal = 0;
  std::size_t abs_below_resolution = 0, rel_subnormal_faithful = 0;
  std::size_t nan_mismatches = 0, zero_sign_mismatches = 0;
};

// ulp-error histogram: zero errors, then bins (2^(k-1), 2^k] for k in [kHistLo, kHistHi]
// (errors below 2^(kHistLo-1) fall in the first bin, finite ones above 2^kHistHi in the last),
// then infinite errors.
inline constexpr int kHistLo = -20, kHistHi = 64;
struct Histogram {
  std::size_t zero = 0, infinite = 0;
  std::vector<std::size_t> bins = std::vector<std::size_t>(kHistHi - kHistLo + 1, 0);
};

using gelucheck::Claim;

inline constexpr double kPlotLo = -40, kPlotHi = 10, kPlotBin = 0.05;

struct Row {
  std::size_t subject = 0; // index into Report::subjects
  Format format;
  bool exhaustive = false; // every value of the format was an input (the 16-bit formats)
  Form form;               // the function implemented
  Quantity quantity;
  Form against;            // the exact function measured against: `form` (rounding error), or
                           // erf for the tanh form (total error against the exact GELU)
  std::vector<Stats> regions;  // indexed like kRegions
  Histogram histogram;         // over all inputs
  std::optional<Claim> claim;  // only when against == form; may be Claim::none()
  bool meets_claim = true;
  // The points where one result breaks the claim (gelucheck::meets false), and the first of them
  // in campaign order: input, correctly rounded value, result.
  std::size_t claim_breaks = 0;
  std::optional<double> break_x, break_expected, break_got;
  double break_ulp = 0;
  bool break_zero_sign = false;
  // What every framework's tests demand (Claim::framework_default), judged for every row with
  // against == form whatever the claim: measured, never gated unless it is the claim.
  std::size_t framework_breaks = 0;
  std::optional<double> framework_break_x, framework_break_expected, framework_break_got;
  // Where the negative tail collapses to zero: the greatest input x <= -1 whose result is ±0
  // although zero is not even a faithful rounding of the exact value; and how many inputs (any x)
  // get such a wrong zero.
  std::optional<double> wrong_zero_max_x;
  std::size_t wrong_zeros = 0;
  // NaN where the value is a number: the smallest |x| (finite inputs) and whether ±inf do it.
  std::optional<double> nan_min_abs_x;
  bool nan_at_plus_inf = false, nan_at_minus_inf = false;
  // Inputs without a result (the subject's call failed there: see the subject's findings).
  std::size_t no_result = 0;
  // For the plots: the largest ulp error (+inf for a NaN mismatch) of the inputs in each bin of
  // width kPlotBin over [kPlotLo, kPlotHi] (grid and hard points), -1 where a bin has none.
  // Binned as the points are measured, so it takes the same memory for any number of points.
  std::vector<double> plot_envelope;
  // The max ulp error over the finite results of finite inputs (the at-a-glance column: special
  // inputs and non-finite results are defects of their own), and where it is first reached.
  double finite_max_ulp = 0;
  std::optional<double> finite_worst_x, finite_worst_expected, finite_worst_got;
  // The row's observations (gelucheck/defects.hpp): every result of a row with against == form
  // classified into at most one of nan, limit, overflow, flush, zero_sign, accuracy; and the facts
  // checked over every result (bound, monotone). At most one per (kind, fact).
  std::vector<Observation> observations;
  // For the diagnosis "computes in a narrower format": of the finite results r with
  // 2^-14 <= |r| <= 65504 (where binary16, bfloat16 and binary32 all have normal numbers), how
  // many there are and how many are values of each narrower format.
  std::size_t narrow_checked = 0, narrow_in_binary16 = 0, narrow_in_bfloat16 = 0, narrow_in_binary32 = 0;
  // For the diagnosis "inputs quantized first" (the campaign only): pairs of inputs adjacent in
  // campaign order (the grid's neighbours) that round to one binary16 (bfloat16) value while
  // their correctly rounded results differ, and how many of them got equal results.
  std::size_t quant_pairs_binary16 = 0, quant_equal_binary16 = 0;
  std::size_t quant_pairs_bfloat16 = 0, quant_equal_bfloat16 = 0;
  // For the diagnosis "a clean cut-off": the least x <= -1 with a finite nonzero result (a flush
  // of the negative tail that ends below it is a cut: every x up to the flush's greatest gives 0).
  std::optional<double> tail_min_nonzero_x;
  bool quant_have_prev = false;
  double quant_prev_x = 0, quant_prev_got = 0, quant_prev_want = 0;
  Observation& observation(DefectKind k, std::string_view fact = {});  // finds or adds
  const Observation* find_observation(DefectKind k, std::string_view fact = {}) const;
};

struct InputCounts {
  std::size_t random = 0, grid = 0, hard = 0, special = 0, total = 0;
  // Runs of consecutive values of the format (binary64, binary32; inputs()), in `total` too.
  std::size_t runs = 0;
};

struct GapSup {
  double sup = 0;        // sup over x of |tanh form - erf form| (of the quantity)
  double at = 0;         // |x| where it is reached (the value gap is even, the derivative gap odd)
  double signed_gap = 0; // (tanh - erf)(at)
  std::string sup_decimal;  // 17 significant digits
  // The certified sup over ALL reals (certify/certificates/gelu.json, docs/lean.md): an enclosure
  // [lo, hi] (decimal) and the double nearest |x| where it is attained.
  std::string certified_lo, certified_hi;
  double certified_at = 0;
};
struct Gap {
  GapSup value, derivative;
  double curve_lo = -10, curve_hi = 10;
  std::vector<double> curve_x, curve_value, curve_derivative;  // tanh - erf, from the reference
};

struct PropertyTest {
  std::string suite, name;       // GoogleTest names; the suite is the Lean theorem's name
  std::string lean;              // "Proofs.GeluForm.<theorem>", "none" or "" if unrecorded
  std::optional<std::uint64_t> cases;  // cases run, when known
  std::string outcome;           // "pass", "fail", "skipped"
  std::string message;           // the failure message (RapidCheck's counterexample)
};
struct Properties {
  // "run", "skipped" (--no-properties), "unavailable" (no executable), "error" (it could not be
  // run or its output not read; `reason` says why).
  std::string status = "skipped";
  std::string reason, executable;
  std::string rc_params;         // the RC_PARAMS the suite ran with
  int exit_code = 0;
  std::vector<PropertyTest> tests;
};

// One subject as measured: what it is, what it provides, what it was held to, what went wrong.
struct SubjectResult {
  std::string spec, description;
  std::vector<std::string> provides;     // op names
  std::vector<std::string> not_measured; // "erf.forward.f16: not provided", ...
  bool strided = false, fresh_evaluations = true;
  std::string claims_source;             // "its own", "--claim", "framework default", "none"
  subject::ClaimSet claims;
  bool gated = false;                    // its claims and properties count for --gate
  std::vector<subject::Finding> findings;  // crashes, hangs, writes into inputs, ... (harness)
  std::size_t failed_results = 0;
  Properties properties;                 // the property suite run on this subject
  std::vector<Defect> defects;           // find_defects(), once everything above is in
};

// Where a report came from (report.json's `provenance`, docs/report.md, "Provenance"): which
// gelucheck, built how, linked against which libraries, run on which CPU. Two reports can be
// compared only when these say what differs: the library's accuracy rests on the C library's
// expl/erfcl, the reference's on MPFR. Filled for this build and machine when a Report is made.
struct Provenance {
  std::string version;         // the CMake project() version (gelucheck/version.hpp)
  std::string commit;          // `git describe --always --dirty` at build time, or "unknown"
  std::string compiler_id, compiler_version, cxx_standard, build_type;
  std::string flags;           // CMAKE_CXX_FLAGS, the build type's flags and the project's own
  std::string libc;            // "glibc 2.36" (gnu_get_libc_version() at run time) or "unknown"
  std::string mpfr, gmp;       // mpfr_get_version(), gmp_version at run time
  std::string boost;           // BOOST_LIB_VERSION at build time (header-only parts)
  std::string cpu_model;       // /proc/cpuinfo's first "model name", or "unknown"
  // x86 vector features in this order, as __builtin_cpu_supports sees them at run time (empty on
  // other architectures): sse4.2, avx, avx2, fma, avx512f.
  std::vector<std::pair<std::string, bool>> cpu_features;
  static Provenance of_this_build();  // computed once per process
};
// report.json's (and diff.json's) `provenance`: this build and machine, and the subjects' specs.
nlohmann::ordered_json provenance_json(const Provenance& p,
                                       const std::vector<std::string>& subject_specs);

struct Report {
  Options options;
  Provenance provenance = Provenance::of_this_build();
  InputCounts inputs64, inputs32, inputs16, inputsbf16;
  std::vector<SubjectResult> subjects;
  std::vector<Row> rows;
  Gap gap;
  // The top-level "properties" of report.json (schema /1): those of the first subject.
  const Properties& properties() const;
  std::vector<std::string> gate_failures;  // claims broken, properties failed or not run
  double seconds_campaign = 0, seconds_gap = 0, seconds_properties = 0, seconds_variants = 0;
  // The variant comparisons (Options::variants_of): diff.json's `comparisons` (schema
  // gelucheck.diff/1, gelucheck/diff.hpp); null when none were asked for.
  nlohmann::ordered_json variants;
  std::string started_utc;
  // `check --exhaustive` only (gelucheck/exhaustive.hpp): the sweep's own section of report.json
  // ("exhaustive": range, failing inputs, failing counts per region); null otherwise.
  nlohmann::ordered_json exhaustive;
};

// The Lean GeluForm theorems (docs/properties.md, "The Lean theorems"), full names.
const std::vector<std::string>& lean_theorems();

// The input set of one format: binary16 and bfloat16 exhaustively (every non-NaN value and one
// NaN); binary64 and binary32 as follows: `points`/2 random finite bit patterns
// (uniform over the encodings, so over every binade and both signs), the rest a uniform grid over
// [-40, 10], then the hard points with neighbours, then the specials, then runs of consecutive
// values (where monotonicity is checked pair by pair: checking/src/facts.hpp). Deterministic in
// `seed`.
std::vector<double> inputs(Format fmt, std::uint64_t seed, std::size_t points, InputCounts* counts);

// Runs everything Options ask for. Throws std::runtime_error on a failure that leaves no report.
Report run(const Options& opt);
// The gate: empty when every claim holds and every property passed (or properties were skipped on
// request); otherwise one line per failure. Reads the subjects' defects: call after finish() has
// found them (finish() calls it).
std::vector<std::string> gate_failures(const Report& r);
// Once everything is measured: every subject's defects (find_defects), then the gate.
void finish(Report& r);

// Where the report's writer (render.hpp) saves the batch of subject s's batch-dependent finding f (subject::save_batch),
// relative to the report's directory; the defect's reproducer names it.
std::string batch_dir(std::size_t s, const subject::Finding& f);

// Its files (report.json, report.md, report.html, JUnit, plots): gelucheck/render.hpp (reports/).

}  // namespace gelucheck::report
