// The comparison of ref::round_batch's results with the MPFR path (enclose()), shared by the
// default and the long tier's tests of the fast reference.
#pragma once

#include <cmath>
#include <string>

#include "gelucheck/fast_reference.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {

// Every disagreement of round_batch's result with enclose() at x, as a message ("" when none).
inline std::string compare(Form form, Quantity q, Format fmt, double x, const ref::Rounded& r) {
  const ref::Enclosure e = ref::enclose(form, q, x, 128);
  std::string msg;
  auto check = [&](const char* what, double got, double want) {
    if (!same_bits(got, want))
      msg += std::string(" ") + what + " " + hexfloat(got) + " (MPFR " + hexfloat(want) + ")";
  };
  check("rn", r.rn, e.rounded(fmt));
  check("rd", r.rd, e.rounded_down(fmt));
  check("ru", r.ru, e.rounded_up(fmt));
  const long fl = e.floor_log2();
  if (std::isfinite(r.rn) && !(fl < -1200 && r.floor_log2 < -1200) && fl != r.floor_log2)
    msg += " floor_log2 " + std::to_string(r.floor_log2) + " (MPFR " + std::to_string(fl) + ")";
  if (!msg.empty())
    msg = std::string(name(form)) + " " + std::string(name(q)) + " " + std::string(name(fmt)) +
          " x = " + hexfloat(x) + ":" + msg;
  return msg;
}

}  // namespace gelucheck
