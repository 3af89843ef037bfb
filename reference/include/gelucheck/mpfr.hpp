// gelucheck/mpfr.hpp — the one RAII home of MPFR state in gelucheck: an MPFR number with its
// lifetime (Mpfr) and MPFR's exponent range set for the duration of a computation (MpfrRange).
// Every file that computes with MPFR (the reference, the property suite, the reports, the tests,
// the constants generator) uses these instead of mpfr_init2 / mpfr_clear pairs.
//
// Why not Boost.Multiprecision's mpfr_float: the reference and the checks compute in interval
// arithmetic, each operation rounded in a chosen direction (MPFR_RNDD for a lower bound,
// MPFR_RNDU for an upper one), and at a precision chosen per number. mpfr_float's operators
// round to nearest at a thread-wide default precision, so every such operation would have to
// reach through backend().data() to the mpfr_t anyway; a thin owner of the mpfr_t that passes
// straight to MPFR's own functions says the same with less. (The independent second path,
// reference/boost, uses no MPFR at all.)
#pragma once

#include <mpfr.h>

namespace gelucheck {

// One MPFR number. It converts to mpfr_ptr / mpfr_srcptr, so it is passed to MPFR's functions
// as an mpfr_t is: mpfr_add(r, a, b, MPFR_RNDD). A fresh number is NaN (as mpfr_init2 leaves
// it) unless given a double, which is set exactly when prec >= 53. Copies are exact (same
// precision, same value).
class Mpfr {
 public:
  explicit Mpfr(mpfr_prec_t prec) { mpfr_init2(v_, prec); }
  Mpfr(mpfr_prec_t prec, double x) : Mpfr(prec) { mpfr_set_d(v_, x, MPFR_RNDN); }
  Mpfr(const Mpfr& o) : Mpfr(mpfr_get_prec(o.v_)) { mpfr_set(v_, o.v_, MPFR_RNDN); }
  Mpfr& operator=(const Mpfr& o) {
    if (this != &o) {
      mpfr_set_prec(v_, mpfr_get_prec(o.v_));
      mpfr_set(v_, o.v_, MPFR_RNDN);
    }
    return *this;
  }
  ~Mpfr() { mpfr_clear(v_); }

  operator mpfr_ptr() { return v_; }
  operator mpfr_srcptr() const { return v_; }
  // Only for MPFR's function-like macros that dereference their argument (mpfr_sgn): with it,
  // mpfr_sgn(x) compiles for an Mpfr x as for an mpfr_t.
  mpfr_ptr operator->() { return v_; }
  mpfr_srcptr operator->() const { return v_; }

  mpfr_prec_t prec() const { return mpfr_get_prec(v_); }

 private:
  mpfr_t v_;
};

// MPFR's exponent range (kept per thread in thread-safe builds, as Debian's is) set for the
// lifetime of the guard and restored after. The default is the widest range: with it, x^3 for
// x = DBL_MAX, e^(±2u) up to 2^(2^62) and their reciprocals are plain numbers; only beyond does
// an exp underflow to [0, 2^(emin-1)] or overflow to [max, inf] — still valid bounds. The
// reference's enclosures may hold such exponents, so whoever operates on them takes a guard too.
// MpfrRange(emin, emax) sets another range (e.g. a format's, to emulate its subnormals).
class MpfrRange {
 public:
  MpfrRange() : MpfrRange(mpfr_get_emin_min(), mpfr_get_emax_max()) {}
  MpfrRange(mpfr_exp_t emin, mpfr_exp_t emax) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
  ~MpfrRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  MpfrRange(const MpfrRange&) = delete;
  MpfrRange& operator=(const MpfrRange&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

}  // namespace gelucheck
