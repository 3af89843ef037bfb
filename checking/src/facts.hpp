// The facts of the exact functions checked over every result the campaign (campaign.cpp) and the
// exhaustive sweep (exhaustive.cpp) compute (facts.cpp): the sign of f, f(x) <= x for x >= 0,
// f(x) >= x/2, f >= the certified minimum, the certified range of f', and monotonicity of f on
// each side of its certified argmin over pairs of inputs. A violated fact becomes an Observation
// of kind `bound` or `monotone` in the row (gelucheck/defects.hpp). Internal to checking/src.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gelucheck/claim.hpp"
#include "gelucheck/exhaustive.hpp"
#include "gelucheck/report.hpp"
#include "fold.hpp"

namespace gelucheck::report {

// The fact texts (Observation::fact), one home.
inline constexpr std::string_view kFactSignNeg = "x<=0 => f(x)<=0";
inline constexpr std::string_view kFactSignPos = "x>=0 => f(x)>=0";
inline constexpr std::string_view kFactBelowX = "x>=0 => f(x)<=x";
inline constexpr std::string_view kFactAboveHalfX = "f(x)>=x/2";
inline constexpr std::string_view kFactMinimum = "f(x)>=min f";
inline constexpr std::string_view kFactDerivRange = "min f'<=f'(x)<=max f'";
inline constexpr std::string_view kFactDecreasing = "f decreasing on (-inf, argmin]";
inline constexpr std::string_view kFactIncreasing = "f increasing on [argmin, inf)";

using exhaustive::FactEnds;
using exhaustive::FactPoint;

// The checker of one row (its function, format and claim). Rows measured against another form
// (the tanh form against the exact GELU) are not checked: the facts are of the row's own form.
class Facts {
 public:
  explicit Facts(const Row& row);
  bool active() const { return active_; }
  // One result, in input order: every bound, and monotonicity within runs of consecutive
  // values. Inputs that follow one another as adjacent values of the format (x the next or the
  // previous value after the last input), on one side of the argmin, in one direction, form a
  // run; each result of a run is checked against the run's record so far — the largest result
  // while the run moves away from the argmin, the smallest while it moves toward it — so a flat
  // stretch that drifts the wrong way by one ulp a step is seen once the drift exceeds the
  // tolerance, and its size is the whole drift. A non-finite x or result is skipped (nan,
  // overflow and limit are other defects' business) and ends the run. `want` is f(x) correctly
  // rounded to the format: a result equal to it meets every bound under the nearest and step
  // rules (rounding is monotone, and each bound's L' <= L, U' >= U), so they are not evaluated
  // (most results of most subjects); monotonicity still is (an earlier result may be wrong).
  void point(Row& row, double x, double r, double want);
  // point() on each result of a chunk of the exhaustive sweep in turn (fold.hpp's SweepChunk,
  // want = c.y.rn[i]; failed inputs skipped): the same observations and state, with the bounds
  // evaluated only where a result lies beyond one of them (under the nearest and step rules, in
  // a vector pass: fact_breaks; an observation whose sample is full takes a chunk's points at
  // once) and a run's pair only where its two results are in the wrong order, and adjacency read
  // from the bit patterns. So a wrong subject's chunk costs about what a right one's does.
  void points(Row& row, const SweepChunk& c);
  // Monotonicity of one pair (either order of x; any pair on one side must be ordered); nothing
  // when x is equal or they straddle the argmin.
  void pair(Row& row, FactPoint a, FactPoint b) const;
  // The first and the last finite result point() took (for the pairs across the exhaustive
  // sweep's blocks).
  const std::optional<FactPoint>& first() const { return first_; }
  const std::optional<FactPoint>& last() const { return last_; }

 private:
  enum class Rule { nearest, step, slack };
  bool breaks_lower(double r, double lower_down, double lower_src) const;
  bool breaks_upper(double r, double upper_up, double upper_src) const;
  void bound(Row& row, std::string_view fact, double x, double r, double bound) const;
  void bounds(Row& row, double x, double r) const;
  bool beyond(double x, double r) const;
  // bounds_of's runs: one per bound observation (the value's five facts; the derivative's one).
  struct BoundRuns {
    static constexpr std::size_t kUnseen = static_cast<std::size_t>(-1);
    struct Run {
      std::size_t at = kUnseen;  // the observation's index in row.observations
      bool full = false;         // its sample is full: add()'s steps accumulate here
      std::size_t n = 0;
      double lo = 0, hi = 0, size = 0;
      Observation::Point worst{};
    } run[5];
  };
  void bounds_of(Row& row, double x, double r, unsigned bits, BoundRuns& runs) const;
  void bounds_end(Row& row, BoundRuns& runs) const;
  unsigned full_runs(Row& row, const SweepChunk& c, const unsigned char* breaks) const;
  static double bound_size(double x, double r, double b);
  Observation& observation(Row& row, DefectKind k, std::string_view fact) const;
  FactBounds fact_bounds(bool with_bounds) const;
  bool clean(const SweepChunk& c, bool with_bounds);

  bool active_ = false;
  Format fmt_;
  Form form_;
  Quantity quantity_;
  Claim claim_;
  Rule rule_ = Rule::slack;
  double argmin_down_ = 0, argmin_up_ = 0;
  std::optional<FactPoint> first_, last_;
  // The run: the previous input (when it continues one), its direction (+1: x increasing) and
  // its record.
  std::optional<FactPoint> prev_, record_;
  int direction_ = 0;
  // The observations found so far (observation()): a row's vector only grows while a Facts checks
  // it, so an index stays valid. Rows are known by their address: every row a Facts adds to must
  // outlive it (another row at a dead one's address would be taken for it).
  struct Found {
    const Row* row;
    const char* fact;
    std::size_t index;
  };
  mutable std::vector<Found> found_;
  std::vector<unsigned char> breaks_;  // points(): fact_breaks' bits of the chunk
};

// The exhaustive sweep: its blocks' observations (every kind) merge in any order (threads,
// shards, checkpoints) into what one pass in sweep order (binary32 bit-pattern order) would give:
// counts add, the first and the worst are those earliest in sweep order, the sample the earliest
// points.
void merge_sweep_observations(Row& a, const Row& b);

// Adds `e` to the sorted, disjoint list `ends`, joining it with a neighbour it meets and
// checking the pair across each join into `row`.
void add_fact_ends(std::vector<FactEnds>& ends, FactEnds e, Row& row);

// A row's observations (every kind) and the ends as exact JSON (hex floats), for checkpoints
// and shard files; read back into a row of the right shape.
nlohmann::ordered_json observation_state(const Row& row, const std::vector<FactEnds>& ends);
void observation_state_from(const nlohmann::ordered_json& j, Row& row, std::vector<FactEnds>& ends);

}  // namespace gelucheck::report
