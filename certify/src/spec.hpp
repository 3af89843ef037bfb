// certify/src/spec.hpp — what is certified: the eight scans (a function F on [−L, L] whose critical
// points are all found), the tail lemma of each (the sign of F' for |x| >= L, written out in
// tails.cpp), and the facts read off the scans. Shared by the search and the check, so the
// file can only supply the data of a proof (boxes, enclosures), never its rules.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "functions.hpp"

namespace gelucheck::certify {

// The finite interval of the scans is [−kL, kL]; the centre box (scans with a zero of known
// order at 0) is [−kW, kW]. Both dyadic.
inline constexpr double kL = 8.0;
inline constexpr double kW = 0x1p-7;

struct ScanSpec {
  const char* name;      // "gap.value", ...: the key in the file
  const char* function;  // F, in words
  Base base;
  int order;             // F = base^(order); the critical points of F are the zeros of F'
  // k > 0: F' has a zero of order exactly >= k at x = 0 for an analytic reason (`why_zero`), and
  // the certificate shows F^(k+1) != 0 on the centre box, so it is of order k and the only zero
  // there. 0: none.
  int zero_order_at_0;
  const char* why_zero;
  double limit_minus, limit_plus;  // F(−∞), F(+∞) (±inf allowed)
};

const std::vector<ScanSpec>& scans();
const ScanSpec* find_scan(const std::string& name);

// A tail lemma evaluated at L: the sign of F' on [L, ∞) and on (−∞, −L] (+1 / −1), the name
// and statement of the lemma, the quantities it needs (each a ball, with the bound it must
// satisfy), and whether every condition holds.
struct TailQuantity {
  std::string name, condition;  // e.g. "rho1", "< 1"
  Ball value;
  bool holds = false;
};
struct Tail {
  std::string lemma, statement;
  int sign_right = 0, sign_left = 0;
  std::vector<TailQuantity> quantities;
  bool ok() const;
};
Tail tail_of(const ScanSpec& s, double L);

enum class FactKind { max, min, max_abs, zero };
struct FactSpec {
  const char* name;  // the key in the file and the prefix of the generated constants
  const char* scan;
  FactKind kind;
  const char* statement;
};
const std::vector<FactSpec>& facts();
// The derived fact: sup |f'| over both forms, the larger of two max_abs facts.
struct MaxOfSpec {
  const char* name;
  const char* a;
  const char* b;
  const char* statement;
};
const MaxOfSpec& lipschitz_spec();

const char* kind_name(FactKind k);

}  // namespace gelucheck::certify
