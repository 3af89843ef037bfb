// certify/src/common.hpp — pieces of the certificate format shared by the search and the check.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "arb_util.hpp"

namespace gelucheck::certify {

// Decimal digits of every bound in the file: 45 significant digits, so an enclosure of a point
// refined to ~1e-48 is ~1e-44 wide after outward rounding (the facts need <= 1e-30).
inline constexpr int kDigits = 45;

// {"lo": decimal <= every point of x, "hi": decimal >= every point}.
nlohmann::json bounds_json(const arb_t x);
// The ball of the interval [lo, hi] a bounds object writes (it contains the interval); false
// when malformed or lo > hi.
bool bounds_ball(const nlohmann::json& b, Ball& out);
// Every point of `inner` within the interval `outer` writes.
bool bounds_contain(const nlohmann::json& outer, const arb_t inner);
// hi − lo <= 1e-30 (the width the facts promise).
bool bounds_narrow(const nlohmann::json& b);
// {"down", "up", "nearest"} as hex floats: the doubles just below / above the interval and the
// double nearest every point of it ("undecided" if the interval straddles a rounding boundary).
nlohmann::json doubles_json(const arb_t x);

}  // namespace gelucheck::certify
