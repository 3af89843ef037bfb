// The defect model of gelucheck/defects.hpp: kinds, observations, and the fold of a subject's
// observations, findings and failed properties into its distinct defects.
#include "gelucheck/defects.hpp"

#include <algorithm>
#include <cmath>

#include "gelucheck/report.hpp"

namespace gelucheck::report {

std::string_view defect_kind_name(DefectKind k) {
  switch (k) {
    case DefectKind::crash: return "crash";
    case DefectKind::hang: return "hang";
    case DefectKind::wrote_input: return "wrote_input";
    case DefectKind::wrote_past_end: return "wrote_past_end";
    case DefectKind::protocol: return "protocol";
    case DefectKind::repeat: return "repeat";
    case DefectKind::position: return "position";
    case DefectKind::stride: return "stride";
    case DefectKind::nan: return "nan";
    case DefectKind::limit: return "limit";
    case DefectKind::overflow: return "overflow";
    case DefectKind::zero_sign: return "zero_sign";
    case DefectKind::flush: return "flush";
    case DefectKind::accuracy: return "accuracy";
    case DefectKind::identity: return "identity";
    case DefectKind::monotone: return "monotone";
    case DefectKind::bound: return "bound";
    case DefectKind::gap: return "gap";
    case DefectKind::vjp: return "vjp";
  }
  return "?";
}

std::optional<DefectKind> parse_defect_kind(std::string_view s) {
  for (DefectKind k : kDefectKinds)
    if (defect_kind_name(k) == s) return k;
  return std::nullopt;
}

void Observation::add(double x, double expected, double got, double size, bool breaks) {
  if (count == 0) {
    first_x = worst_x = lo = hi = x;
    first_expected = worst_expected = expected;
    first_got = worst_got = got;
    worst_size = size;
  } else {
    // NaN sizes never replace; +inf does, once.
    if (size > worst_size) {
      worst_size = size;
      worst_x = x;
      worst_expected = expected;
      worst_got = got;
    }
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  ++count;
  breaks_claim |= breaks;
  if (sample.size() < kSampleSize) sample.push_back({x, expected, got});
}

void Observation::merge(const Observation& b) {
  if (b.count == 0) return;
  if (count == 0) {
    *this = b;
    return;
  }
  if (b.worst_size > worst_size) {
    worst_size = b.worst_size;
    worst_x = b.worst_x;
    worst_expected = b.worst_expected;
    worst_got = b.worst_got;
  }
  lo = std::min(lo, b.lo);
  hi = std::max(hi, b.hi);
  count += b.count;
  breaks_claim |= b.breaks_claim;
  for (const Point& p : b.sample)
    if (sample.size() < kSampleSize) sample.push_back(p);
}

Observation& Row::observation(DefectKind k, std::string_view fact) {
  for (Observation& o : observations)
    if (o.kind == k && o.fact == fact) return o;
  Observation o;
  o.kind = k;
  o.fact = std::string(fact);
  observations.push_back(std::move(o));
  return observations.back();
}

const Observation* Row::find_observation(DefectKind k, std::string_view fact) const {
  for (const Observation& o : observations)
    if (o.kind == k && o.fact == fact) return &o;
  return nullptr;
}

}  // namespace gelucheck::report
