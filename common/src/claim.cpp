// The claim constructors that need more than a literal (gelucheck/claim.hpp).
#include "gelucheck/claim.hpp"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace gelucheck {
namespace {
// The shortest decimal that reads back as v (what the user typed, for values from the command line).
std::string g17(double v) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}
}  // namespace

Claim Claim::ulps(double n) {
  if (!(n >= 0) || std::isinf(n)) throw std::invalid_argument("ulp bound must be finite and >= 0");
  return {Kind::ulp, n, true, 0, 0, true, "within " + g17(n) + " ulp, sign of zero included"};
}

Claim Claim::allclose(double atol, double rtol) {
  if (!(atol >= 0) || !(rtol >= 0) || std::isinf(atol) || std::isinf(rtol))
    throw std::invalid_argument("allclose tolerances must be finite and >= 0");
  return {Kind::allclose, 0, true, atol, rtol, false,
          "allclose (|got - exact| <= " + g17(atol) + " + " + g17(rtol) + "·|exact|)"};
}

Claim Claim::framework_default(Format fmt) {
  // torch.testing.assert_close's defaults per dtype (its documentation's table): float64
  // rtol 1e-7 atol 1e-7; float32 1.3e-6, 1e-5; bfloat16 1.6e-2, 1e-5; float16 1e-3, 1e-5.
  double rtol = 0, atol = 0;
  switch (fmt) {
    case Format::binary64: rtol = 1e-7; atol = 1e-7; break;
    case Format::binary32: rtol = 1.3e-6; atol = 1e-5; break;
    case Format::bfloat16: rtol = 1.6e-2; atol = 1e-5; break;
    case Format::binary16: rtol = 1e-3; atol = 1e-5; break;
  }
  Claim c = allclose(atol, rtol);
  c.text = "framework default: " + c.text + " (torch.testing.assert_close's tolerances for the dtype)";
  return c;
}

}  // namespace gelucheck
