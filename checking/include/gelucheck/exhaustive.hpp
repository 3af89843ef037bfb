// gelucheck/exhaustive.hpp — `gelucheck check SPEC --exhaustive`: every binary32 input (the 2^32
// bit patterns but the NaNs: 4,278,190,082 inputs) of the chosen functions of one subject against
// the reference, summarised exactly like the campaign's rows (report.hpp), with every failing
// input up to a cap and the failing counts per region (docs/report.md, "Exhaustive").
//
// The range of bit patterns is cut into blocks of kBlock patterns counted from its low end. Each
// block is measured on its own (one thread, in bit-pattern order) and folded into the running
// result by a merge that is associative and commutative: sums are exact (ExactSum, below), maxima
// and first occurrences are decided by the input's bit pattern, not by the order blocks finish.
// So threads, checkpoints, shards (--shard K/N, whole blocks each) and MPI ranks all give the
// same numbers, bit for bit, as one uninterrupted process.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/report.hpp"

namespace gelucheck::report::exhaustive {

inline constexpr const char* kShardSchema = "gelucheck.shard/2";
inline constexpr const char* kCheckpointSchema = "gelucheck.checkpoint/1";
inline constexpr std::uint64_t kAllPatterns = std::uint64_t{1} << 32;
inline constexpr std::uint64_t kBlock = std::uint64_t{1} << 16;  // patterns per block
inline constexpr std::size_t kDefaultFailureCap = 1000;
inline constexpr double kDefaultCheckpointSeconds = 60;  // --checkpoint-every
inline constexpr std::size_t kMaxFindings = 64;  // harness findings kept (as the campaign does)

// Bit patterns [lo, hi) of binary32, 0 <= lo < hi <= 2^32 (unsigned order: +0 ... +inf, the
// positive NaNs, -0 ... -inf, the negative NaNs).
struct BitRange {
  std::uint64_t lo = 0, hi = kAllPatterns;
  friend bool operator==(const BitRange&, const BitRange&) = default;
};
// "LO:HI", each decimal or 0x-hex; throws std::invalid_argument with a message.
BitRange parse_range(const std::string& s);
std::string range_text(const BitRange& r);  // "0x3f800000:0x3f810000"
// The non-NaN patterns in r.
std::uint64_t count_inputs(const BitRange& r);

// Part k (0-based) of n: the blocks of `total` numbered [k·B/n, (k+1)·B/n), B its block count.
// Deterministic in (total, k, n); the parts of one n tile total. Empty when B < n for some k.
struct Shard {
  unsigned k = 0, n = 1;
};
Shard parse_shard(const std::string& s);  // "K/N", 1 <= K <= N (1-based on the command line)
BitRange shard_part(const BitRange& total, Shard s);

// An exact sum of nonnegative doubles: a fixed-point number of 64-bit limbs whose lowest bit is
// 2^-1074 (the least subnormal, so every double is a whole multiple of it) and whose top reaches
// 2^1166 (DBL_MAX < 2^1024 and 2^142 of headroom: more terms than any sweep adds). Adding is
// exact, hence associative: the sum does not depend on the order of the terms.
class ExactSum {
 public:
  void add(double v);  // v >= 0; +inf makes the sum +inf
  void add(const ExactSum& o);
  // The sum rounded to a double (its top 192 bits, rounded in a fixed order: a function of the
  // exact value alone).
  double value() const;
  nlohmann::ordered_json to_json() const;
  static ExactSum from_json(const nlohmann::ordered_json& j);
  friend bool operator==(const ExactSum&, const ExactSum&) = default;

 private:
  static constexpr std::size_t kLimbs = 35;
  std::array<std::uint64_t, kLimbs> limb_{};
  bool inf_ = false;
};

// One failing input: its result breaks the row's claim.
struct Failure {
  std::uint32_t bits = 0;
  double got = 0, expected = 0, ulp = 0;
  bool zero_sign = false;
};

// The first and the last result the facts over every result (checking/src/facts.hpp) took in a
// done range of bit patterns [lo, hi): two ranges that meet are joined, checking the pair across
// the boundary then, so each boundary is checked once whatever order the blocks merge in.
struct FactPoint {
  double x, r;
};
struct FactEnds {
  std::uint64_t lo = 0, hi = 0;
  std::optional<FactPoint> first, last;
};

// One function's sweep so far over a set of blocks.
struct FunctionSweep {
  subject::Function fn{};
  bool provided = true;  // the subject says it provides the op
  bool answered = false;  // some call gave results
  std::string why;        // the first "unavailable" reason
  Row row;                // the campaign's row; its Stats' mean_ulp and rms_ulp are unused
  std::vector<ExactSum> ulp_sum, ulp_sq_sum;  // per region (kRegions)
  std::vector<std::uint64_t> failing;         // per region: results breaking the claim
  std::vector<Failure> failures;              // the first `cap` of them in bit-pattern order
  std::vector<FactEnds> fact_ends;            // sorted, disjoint, joined where they meet
};

// The sweep's identity: a shard, a checkpoint or a rank may be merged only with results of the
// same sweep (same subject, functions, claims, range, reference).
struct Identity {
  std::string spec, description, reference;
  std::vector<std::string> functions, claims;  // function names; ClaimSet::items()
  BitRange total;
  std::size_t cap = kDefaultFailureCap;
  friend bool operator==(const Identity&, const Identity&) = default;
};

struct Sweep {
  Identity id;
  SubjectResult subject;                 // as describe_subject gives it (findings filled here)
  BitRange part;                         // the part of id.total this sweep is of (a shard's)
  std::vector<BitRange> done;            // sorted, disjoint, merged where adjacent
  std::uint64_t inputs = 0;              // non-NaN patterns measured
  std::uint64_t reference_fast = 0, reference_fallback = 0;
  std::vector<FunctionSweep> fns;
  double seconds = 0;                    // summed over the parts (work, not wall time)
  // The command and --claim items of the run, for the merged report's header (not identity:
  // they say nothing the identity does not).
  std::string command;
  std::vector<std::string> claim_args;
};

struct SweepOptions {
  Options report;              // subjects (exactly one), claims, functions, threads, progress,
                               // call timeout, command
  BitRange range;
  Shard shard;
  std::size_t cap = kDefaultFailureCap;
  // A checkpoint file: resumed from when it exists (its identity and part must match, else
  // std::invalid_argument), rewritten every checkpoint_seconds while the sweep runs; "" = none.
  std::string checkpoint;
  double checkpoint_seconds = kDefaultCheckpointSeconds;
};

// Runs the sweep of o.shard's part of o.range (throws subject::SpecError for a spec that cannot
// be opened or swept, std::invalid_argument for a bad checkpoint). `resumed` (if given) is set to
// the inputs a checkpoint already held.
Sweep run(const SweepOptions& o, std::uint64_t* resumed = nullptr);

// Shard files (gelucheck.shard/2; /2 adds the observations of defects.hpp): the exact state of a sweep, to be merged.
nlohmann::ordered_json to_json(const Sweep& s);
Sweep from_json(const nlohmann::ordered_json& j);  // throws std::invalid_argument
// Combines the sweeps of disjoint parts of one sweep; throws std::invalid_argument when their
// identities differ or their parts overlap.
Sweep merge(std::vector<Sweep> parts);
// Whether s covers its whole range (else the message names the first missing patterns).
std::string missing(const Sweep& s);

// The report of a complete sweep (rows exhaustive when the range is all of binary32), gate
// failures included; written with report::write like any other.
Report to_report(const Sweep& s, const Options& opt);

namespace testing {
// Test hook: while one is alive (process-wide), each block is folded by the per-result calls
// (measure, fold, Facts::point) that the block fold must equal bit for bit, so that a test can
// compare the two sweeps' states.
class ScopedScalarFold {
 public:
  ScopedScalarFold();
  ~ScopedScalarFold();
  ScopedScalarFold(const ScopedScalarFold&) = delete;
  ScopedScalarFold& operator=(const ScopedScalarFold&) = delete;

 private:
  bool saved_;
};
}  // namespace testing

}  // namespace gelucheck::report::exhaustive
