// certify/src/common.cpp — see common.hpp.
#include "common.hpp"

#include "gelucheck/common.hpp"

namespace gelucheck::certify {

nlohmann::json bounds_json(const arb_t x) {
  return {{"lo", decimal_down(x, kDigits)}, {"hi", decimal_up(x, kDigits)}};
}

bool bounds_ball(const nlohmann::json& b, Ball& out) {
  if (!b.is_object() || !b.contains("lo") || !b.contains("hi") || !b["lo"].is_string() ||
      !b["hi"].is_string())
    return false;
  Ball lo, hi;
  if (!parse(b["lo"].get<std::string>(), lo) || !parse(b["hi"].get<std::string>(), hi)) return false;
  if (arb_gt(lo.v, hi.v)) return false;
  arb_union(out.v, lo.v, hi.v, kPrec);
  return true;
}

bool bounds_contain(const nlohmann::json& outer, const arb_t inner) {
  Ball lo, hi;
  if (!parse(outer.value("lo", ""), lo) || !parse(outer.value("hi", ""), hi)) return false;
  return arb_le(lo.v, inner) && arb_le(inner, hi.v);
}

bool bounds_narrow(const nlohmann::json& b) {
  Ball lo, hi, w, lim;
  if (!parse(b.value("lo", ""), lo) || !parse(b.value("hi", ""), hi)) return false;
  arb_sub(w.v, hi.v, lo.v, kPrec);
  arb_set_str(lim.v, "1e-30", kPrec);
  return arb_le(w.v, lim.v) != 0;
}

nlohmann::json doubles_json(const arb_t x) {
  Arf lo, hi;
  arb_get_lbound_arf(lo.v, x, 2 * kPrec);
  arb_get_ubound_arf(hi.v, x, 2 * kPrec);
  const double nl = arf_get_d(lo.v, ARF_RND_NEAR), nh = arf_get_d(hi.v, ARF_RND_NEAR);
  return {{"down", hexfloat(double_down(x))},
          {"up", hexfloat(double_up(x))},
          {"nearest", nl == nh ? hexfloat(nl) : std::string("undecided")}};
}

}  // namespace gelucheck::certify
