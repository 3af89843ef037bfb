// gelucheck/diff.hpp — `gelucheck diff A B` (docs/cli.md, "Differential testing"): two subjects
// over the same inputs, bit by bit, and at every input where they differ the reference says which
// side is right.
//
// The inputs are the campaign's (report::inputs: binary64 and binary32 sampled, bfloat16 and
// binary16 every value), or with `exhaustive` every binary32 bit pattern in `range` instead of
// binary32's sample. Each side is evaluated through the harness (subjects/), so a crash or a hang
// of one side is a finding of that side, and the inputs it left without a result are counted, not
// compared. Two results agree when they are the same encoding in the op's format, NaNs equal
// whatever their sign and payload (gelucheck::same_bits): a zero of the other sign is a
// disagreement. At each disagreement both results are measured against the reference
// (ref::round_batch) and each side is classified correctly rounded, faithful or neither.
//
// Nothing depends on the order of work: the inputs are evaluated in their order, the sweep's blocks
// in bit-pattern order, and every count, first input and run is a function of the inputs alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/exhaustive.hpp"
#include "gelucheck/harness.hpp"
#include "gelucheck/report.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::report::diff {

inline constexpr const char* kSchema = "gelucheck.diff/1";
inline constexpr std::size_t kFirstKept = 10;  // disagreements listed per op (the counts are all)
inline constexpr std::size_t kRunsKept = 5;    // runs listed per op, besides the longest

struct Options {
  // The comparisons, each (A, B): `diff A B` is one; `diff PEER --variants` one per variant.
  std::vector<std::pair<std::string, std::string>> pairs;
  std::uint64_t seed = kDefaultSeed;
  std::size_t points = kDefaultPoints;
  std::vector<Format> formats{Format::binary64, Format::binary32, Format::bfloat16,
                              Format::binary16};
  std::vector<subject::Function> functions{std::begin(subject::all_functions),
                                           std::end(subject::all_functions)};
  bool exhaustive = false;  // binary32: every bit pattern in `range`, not the sample
  exhaustive::BitRange range;
  // Comparisons of the sample run at a time; a sweep's, threads for the reference at the
  // disagreements. Results never depend on it.
  unsigned threads = kDefaultThreads;
  double call_timeout_seconds = kDefaultCallTimeoutSeconds;
  bool progress = false;
  std::string command = "gelucheck diff";
};

// How a result compares with the exact value.
enum class Verdict { correctly_rounded, faithful, neither };
const char* verdict_name(Verdict v);  // "correctly rounded", "faithful", "neither"

struct Side {
  double got = 0;
  double ulp = 0;  // its error against the exact value (measure(): +inf for a NaN mismatch)
  Verdict verdict = Verdict::neither;
};
struct Disagreement {
  double x = 0;
  double expected = 0;  // correctly rounded to nearest in the op's format
  Side a, b;
};
// A maximal run of consecutive inputs (by value for the sample; by bit pattern in the sweep) at
// every one of which the sides disagree.
struct Run {
  double first = 0, last = 0;  // its first and last input in that order
  std::uint64_t count = 0;
};

struct OpDiff {
  subject::Function function{};
  Format format = Format::binary64;
  bool compared = false;
  std::string why_not;  // when not compared: which side does not provide the op
  std::uint64_t inputs = 0;        // inputs sent to both
  std::uint64_t both = 0;          // inputs where both sides gave a result: the ones compared
  std::uint64_t disagreements = 0; // of those, the ones whose bits differ
  std::uint64_t only_a = 0, only_b = 0;  // a result from one side only (the other's call failed)
  // At the disagreements: how many of each verdict per side (indexed by Verdict), and which side
  // is better: the better verdict, then the smaller ulp error; `tie` when both are alike (both
  // NaN where a number is due, or the two faithful neighbours of a value halfway between them).
  std::uint64_t a_verdicts[3] = {0, 0, 0}, b_verdicts[3] = {0, 0, 0};
  std::uint64_t a_better = 0, b_better = 0, tie = 0;
  std::vector<std::uint64_t> regions = std::vector<std::uint64_t>(std::size(kRegions), 0);
  std::vector<Disagreement> first;  // the first kFirstKept, in input order
  std::uint64_t run_count = 0;
  std::optional<Run> longest;       // the first of the longest
  std::vector<Run> runs;            // the first kRunsKept
  std::vector<subject::Finding> findings_a, findings_b;  // the harness's, per side
};

struct Comparison {
  std::string a, b;  // specs
  std::string a_description, b_description;
  std::vector<OpDiff> ops;  // formats × functions, in Options order
  std::uint64_t disagreements() const;  // with the one-sided results
  bool identical() const { return disagreements() == 0; }
};

struct Result {
  Options options;
  Provenance provenance = Provenance::of_this_build();
  std::vector<Comparison> comparisons;
  std::string started_utc;
  double seconds = 0;
};

// Runs every comparison. Throws subject::SpecError when a spec cannot be opened.
Result run(const Options& opt);

nlohmann::ordered_json to_json(const Result& r);
// Its report.md, JUnit XML and output directory: gelucheck/render.hpp (reports/).

}  // namespace gelucheck::report::diff
