// gelucheck/fast_reference.hpp — the fast certified reference for results in binary32, bfloat16
// and binary16: f(x) rounded in the three directions, decided by a double-double evaluation with
// a derived error bound and a rounding test, falling back to the MPFR reference (enclose()) where
// the test cannot decide. It shares no code with the library under test (src/). Method, regions
// and every bound: docs/reference.md, "The fast reference".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gelucheck/common.hpp"

namespace gelucheck::ref {

// What a check needs to know about f(x) in one format.
struct Rounded {
  // f(x) rounded to nearest-even / toward -inf / toward +inf in fmt, as doubles holding them
  // (rd == ru == rn when f(x) is a value of fmt). Bit-identical to enclose(...).rounded*(fmt).
  double rn = 0, rd = 0, ru = 0;
  // f(x) ~= (hi + lo)·2^scale with relative error <= 2^-70, or exactly f(x) (scale 0) when it is
  // 0, ±inf or NaN. scale is 0 unless |f(x)| < 2^-960 (below which a double-double cannot carry
  // 70 bits); when |f(x)| < 2^-(2^20) only the sign is carried: hi = ±1, lo = 0 and scale =
  // kBelowScale, an upper bound of log2|f(x)|.
  double hi = 0, lo = 0;
  long scale = 0;
  // floor(log2|f(x)|) for finite nonzero f(x), as enclose(...).floor_log2(): exact when it is >=
  // -1200; below, only some number < -1200 (every format's ulp there is its least subnormal).
  long floor_log2 = 0;
};
inline constexpr long kBelowScale = -(1L << 20);

// The same results as columns, one array per field (the exhaustive sweep reads them a field at a
// time, a vector of inputs at once): entry i of each is that field of f(x[i]).
struct RoundedColumns {
  double *rn = nullptr, *rd = nullptr, *ru = nullptr, *hi = nullptr, *lo = nullptr;
  std::int64_t *scale = nullptr, *floor_log2 = nullptr;
};

// How many results were decided by each path.
struct FastStats {
  std::uint64_t fast = 0, fallback = 0;
};

// out[i] = f(x[i]) in fmt for every i (out.size() must equal x.size(), else
// std::invalid_argument); x[i] must be a value of fmt (binary32, bfloat16 or binary16, else
// std::invalid_argument); binary64 is accepted and goes to the MPFR path. Thread-safe. stats may be
// null; when given, its counts are increased (not reset).
void round_batch(Form form, Quantity q, Format fmt, std::span<const double> x,
                 std::span<Rounded> out, FastStats* stats = nullptr);

// round_batch's results written into columns of x.size() entries each.
void round_columns(Form form, Quantity q, Format fmt, std::span<const double> x,
                   const RoundedColumns& out, FastStats* stats = nullptr);

// One result by the MPFR path (enclose() at 128 bits) alone: the reference the fast path is
// compared with, and its fallback.
Rounded round_mpfr(Form form, Quantity q, Format fmt, double x);

namespace testing {
// The Highway targets (HWY_AVX3, HWY_AVX2, ...) the fast path was built for that this CPU runs,
// best (the one round_batch uses) first; and the fast path alone on one of them: ok[i] and the
// columns' entries as round_columns gives them where ok[i] (no MPFR fallback, no input check).
// False when that target is not one of these. For the test that every target computes the same
// results (tests/reference/test_fast_reference_long.cpp, EveryInput.TargetsAgree).
std::vector<std::int64_t> fast_path_targets();
bool fast_path_on(std::int64_t target, Form form, Quantity q, Format fmt, std::span<const double> x,
                  const RoundedColumns& out, unsigned char* ok);
// Test hook: while one is alive (on this thread), the fast path moves each approximation by `rel`
// of itself without widening its error bound: a deliberately wrong bound, which the comparison
// with the MPFR path must catch (tests/reference/test_fast_reference.cpp).
class ScopedFastPathPerturbation {
 public:
  explicit ScopedFastPathPerturbation(double rel);
  ~ScopedFastPathPerturbation();
  ScopedFastPathPerturbation(const ScopedFastPathPerturbation&) = delete;
  ScopedFastPathPerturbation& operator=(const ScopedFastPathPerturbation&) = delete;

 private:
  double saved_;
};
// Test hook: while one is alive (process-wide: every thread, and every Highway dispatch of the
// process), round_batch runs the fast path on a Highway target without fused multiply-add (x86-64:
// SSE4; elsewhere the portable EMU128 or SCALAR), so that the exact product without FMA
// (Dekker's) is tested on machines that have FMA. No effect where no such target was built.
class ScopedPortableFastPath {
 public:
  ScopedPortableFastPath();
  ~ScopedPortableFastPath();
  ScopedPortableFastPath(const ScopedPortableFastPath&) = delete;
  ScopedPortableFastPath& operator=(const ScopedPortableFastPath&) = delete;

 private:
  bool saved_;
};
}  // namespace testing

}  // namespace gelucheck::ref
