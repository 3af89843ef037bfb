// The fast path of ref::round_batch: f(x) for x a value of binary32 (bfloat16 and binary16 are
// subsets of it) evaluated in double-double arithmetic with a running error bound, and the
// roundings decided by a rounding test on the resulting enclosure. It shares no code with src/
// and calls no libm transcendental function: its exp and its erfc (as Φ and the Mills ratio by
// Taylor tables) are its own; MPFR only computes its constants and table coefficients, once,
// correctly rounded (fast_scalar.cpp). Method and bounds: docs/reference.md §8, "The fast
// reference"; the derivations are also here, next to the code.
//
// VECTORS. Highway (hwy/foreach_target.h) compiles this file once per x86-64 target (SSE4, AVX2,
// AVX-512, ...) and HWY_DYNAMIC_DISPATCH runs the best the CPU has: a vector of doubles holds
// Lanes(D) inputs (8 with AVX-512), and each lane gets exactly the operations, with the same IEEE
// rounding, that one input gets alone — no operation mixes lanes, signs and regions are chosen by
// selects (both sides evaluated), and the one fused operation (the exact product two_prod, where
// the target has FMA) is exact like Dekker's product it replaces elsewhere. So every bound below
// holds lane by lane, and a result does not depend on its neighbours or on the target. Inputs are
// sorted by what they need (the exact cases, the closed forms, the evaluations); a vector whose
// lanes all need the same (a sweep's consecutive inputs almost always do) runs in place, the
// others wait in a queue per kind until it holds a vector. Lanes whose rounding test is not one of
// the usual cases (decide_lanes) go to the general test one at a time (fast_scalar.cpp's
// decide()), and what that cannot decide to the MPFR path (fast_reference.cpp).
//
// ERROR ACCOUNTING. Every quantity is a VB = {h, l, e}: the double-double h + l and a bound e on
// |true value - (h + l)|. Each double-double operation below is one of Joldes, Muller & Popescu,
// "Tight and rigorous error bounds for basic building blocks of double-word arithmetic" (ACM TOMS
// 44, 2017): AccurateDWPlusDW (relative error <= 3u^2 + 13u^3), DWPlusFP (<= 2u^2), DWTimesFP1
// (<= 1.5u^2 + 4u^3), DWTimesDW1 (<= 7u^2), DWDivDW2 (<= 15u^2 + 56u^3), u = 2^-53. We charge
// every one kOp = 2^-99 = 128u^2 of its result (|result| <= |z.h|(1 + 2^-52)), more than any of
// them. Propagation: for z = a op b with |a - â| <= ea, |b - b̂| <= eb:
//   a + b: ea + eb;   a·b: |â|eb + |b̂|ea + ea·eb;   a/b: (ea + |â/b̂|eb) / (|b̂| - eb)
// (|â| is taken as |a.h|(1 + 2^-50) >= |a.h + a.l|). The bounds themselves are computed in
// double with rounding to nearest: a chain of at most ~300 operations of at most 8 roundings
// each understates a bound by a factor at most (1 + u)^2400 < 1 + 2^-41, so the final bound is
// multiplied by 1 + 2^-40 (kInflate) before use (the one subtraction among them, |b̂| - eb in a
// quotient, has eb < 2^-60|b̂| wherever a result is accepted, so its rounding is as harmless).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_path.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "fast_path.hpp"
#include "fast_scalar.hpp"

#include "gelucheck/lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::ref::fast::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using namespace gelucheck::HWY_NAMESPACE::lanes;  // D, Vec, Mask, DI, VecI, MaskI, S, SI, M, MI
HWY_INLINE VecI bits_of(Vec v) { return hn::BitCast(DI(), v); }
HWY_INLINE Vec from_bits(VecI v) { return hn::BitCast(D(), v); }
// 2^k for -1022 <= k <= 1023, from its bits.
HWY_INLINE Vec pow2_of(VecI k) { return from_bits(hn::ShiftLeft<52>(k + SI(1023))); }
// floor(log2|a|) for a normal double a (lanes that are not are refused by their callers).
HWY_INLINE VecI exponent_of(Vec a) {
  return hn::And(hn::ShiftRight<52>(bits_of(a)), SI(0x7ff)) - SI(1023);
}

// ---- exact double-double building blocks ------------------------------------------------------
struct VD {
  Vec h, l;
};
HWY_INLINE VD two_sum(Vec a, Vec b) {
  const Vec s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
HWY_INLINE VD fast_two_sum(Vec a, Vec b) {  // |a| >= |b| or a == 0
  const Vec s = a + b;
  return {s, b - (s - a)};
}
// The exact product p + e == a·b when no intermediate overflows and a·b is 0 or >= 2^-969 in
// magnitude; every product below is of numbers in [2^-600, 2^600]. With FMA, e = a·b - p in one
// rounding (exact); without, Veltkamp's split and Dekker's product.
HWY_INLINE VD two_prod(Vec a, Vec b) {
  const Vec p = a * b;
#if HWY_NATIVE_FMA
  return {p, hn::MulSub(a, b, p)};
#else
  const Vec ca = S(134217729.0) * a, cb = S(134217729.0) * b;  // 2^27 + 1
  const Vec ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
#endif
}
HWY_INLINE VD dd_add(VD x, VD y) {  // AccurateDWPlusDW
  const VD s = two_sum(x.h, y.h), t = two_sum(x.l, y.l);
  const VD v = fast_two_sum(s.h, s.l + t.h);
  return fast_two_sum(v.h, t.l + v.l);
}
HWY_INLINE VD dd_add_d(VD x, Vec y) {  // DWPlusFP
  const VD s = two_sum(x.h, y);
  return fast_two_sum(s.h, x.l + s.l);
}
HWY_INLINE VD dd_mul_d(VD x, Vec y) {  // DWTimesFP1
  const VD c = two_prod(x.h, y);
  const VD t = fast_two_sum(c.h, x.l * y);
  return fast_two_sum(t.h, t.l + c.l);
}
HWY_INLINE VD dd_mul(VD x, VD y) {  // DWTimesDW1
  const VD c = two_prod(x.h, y.h);
  const Vec cl = c.l + (x.h * y.l + x.l * y.h);
  return fast_two_sum(c.h, cl);
}
HWY_INLINE VD dd_div(VD x, VD y) {  // DWDivDW2
  const Vec th = x.h / y.h;
  const VD r = dd_mul_d(y, th);
  const Vec ph = x.h - r.h, dl = x.l - r.l;
  const Vec tl = (ph + dl) / y.h;
  return fast_two_sum(th, tl);
}

// ---- values with an error bound ---------------------------------------------------------------
struct VB {
  Vec h, l, e;
};
HWY_INLINE Vec mag(const VB& a) { return hn::Abs(a.h) * S(kMag); }
HWY_INLINE VB exact(Vec x) { return {x, hn::Zero(D()), hn::Zero(D())}; }
HWY_INLINE VB splat(const V& c) { return {S(c.h), S(c.l), S(c.e)}; }
HWY_INLINE VB select(Mask m, const VB& a, const VB& b) {
  return {hn::IfThenElse(m, a.h, b.h), hn::IfThenElse(m, a.l, b.l), hn::IfThenElse(m, a.e, b.e)};
}
HWY_INLINE VB add(const VB& a, const VB& b) {
  const VD z = dd_add(VD{a.h, a.l}, VD{b.h, b.l});
  return {z.h, z.l, a.e + b.e + S(kOp) * hn::Abs(z.h)};
}
HWY_INLINE VB add_d(const VB& a, double b) {  // b exact
  const VD z = dd_add_d(VD{a.h, a.l}, S(b));
  return {z.h, z.l, a.e + S(kOp) * hn::Abs(z.h)};
}
HWY_INLINE VB add_d(const VB& a, Vec b) {  // b exact
  const VD z = dd_add_d(VD{a.h, a.l}, b);
  return {z.h, z.l, a.e + S(kOp) * hn::Abs(z.h)};
}
HWY_INLINE VB mul(const VB& a, const VB& b) {
  const VD z = dd_mul(VD{a.h, a.l}, VD{b.h, b.l});
  return {z.h, z.l, mag(a) * b.e + mag(b) * a.e + a.e * b.e + S(kOp) * hn::Abs(z.h)};
}
HWY_INLINE VB mul_d(const VB& a, Vec y) {  // y exact
  const VD z = dd_mul_d(VD{a.h, a.l}, y);
  return {z.h, z.l, hn::Abs(y) * a.e + S(kOp) * hn::Abs(z.h)};
}
// Requires eb < |b̂| (else the bound is +inf, and the rounding test refuses the lane).
HWY_INLINE VB div(const VB& a, const VB& b) {
  const VD z = dd_div(VD{a.h, a.l}, VD{b.h, b.l});
  const Vec den = hn::Abs(b.h) / S(kMag) - b.e;
  const Vec e = hn::IfThenElse(den > hn::Zero(D()), (a.e + hn::Abs(z.h) * S(kMag) * b.e) / den, S(kInf));
  return {z.h, z.l, e + S(kOp) * hn::Abs(z.h)};
}
HWY_INLINE VB neg(const VB& a) { return {hn::Neg(a.h), hn::Neg(a.l), a.e}; }
// a·2^k, -1022 <= k <= 1: exact for h; l and e may fall below 2^-1022, where their rounding
// moves them by at most 2^-1075, charged as 2^-1074 more in e.
HWY_INLINE VB scale2(const VB& a, VecI k) {
  const Vec p = pow2_of(k);
  return {a.h * p, a.l * p, a.e * p + hn::IfThenElseZero(M(k < SI(0)), S(0x1p-1074))};
}
// A value times 2^k, k an integer: what the exponential returns.
struct SB {
  VB m;
  VecI k;
};
// m·2^k as an unscaled VB when 2^k is above 2^-1000; else 0 with the bound |m·2^k| < 2^-998
// (|m| < 4 in every use).
HWY_INLINE VB unscaled(const SB& s) {
  const Mask keep = M(s.k > SI(-1001));
  const VB v = scale2(s.m, hn::IfThenElseZero(MI(keep), s.k));
  return {hn::IfThenElseZero(keep, v.h), hn::IfThenElseZero(keep, v.l),
          hn::IfThenElse(keep, v.e, S(0x1p-998))};
}

// ---- exp ----------------------------------------------------------------------------------------
// e^t for t <= 0, |t| < 2^22, as m·2^k. Reduction: N = nearest(256t/ln2), r = t - N·ln2/256
// with N·l1, N·l2 exact (22-bit pieces, |N| < 2^31), N·l3 exact by two_prod, N·l4 rounded
// (u|N l4|), the rest of ln2/256 (< 2^-150 of it) charged |N|·l_rest; |r| <= ln2/512 + 2^-40 <
// 0.001355. e^t = 2^(N div 256)·2^((N mod 256)/256)·e^r. e^r = Σ_{n<=9} r^n/n! + R, |R| <=
// |r|^10/10!·1.01 < 2^-116: 1 + r(1 + r(1/2 + r·Q)) in double-double, Q = Σ_{n=3..9} r^(n-3)/n!
// by Horner in double on r.h: |Q̂ - Q| <= 16u·Σ|c_n||r|^(n-3) <= 16u/5.99 (coefficients rounded,
// Higham's γ_14), and replacing r by r.h moves Q by at most (|r.l| + r.e)·|Q'| <= (|r.l| +
// r.e)/23.
HWY_INLINE SB exp_neg(const Tables& Tb, const VB& t) {
  // N = nearest(t.h·inv_l) (ties to even), by adding and subtracting 1.5·2^52: the sum lies in
  // [2^52, 2^53), where doubles are the integers, for |t.h·inv_l| < 2^31; the subtraction is
  // exact, and the sum's bits less 1.5·2^52's are N as an integer.
  const Vec shifted = t.h * S(Tb.inv_l) + S(0x1.8p52);
  const Vec nd = shifted - S(0x1.8p52);
  const VecI n = bits_of(shifted) - bits_of(S(0x1.8p52));
  // t.h - N·l1 is exact: N·l1 is exact, and |t - N·ln2/256| <= ln2/512 puts t.h within a
  // factor 2 of N·l1 (Sterbenz) unless N == 0. Then the smaller pieces, in double-double.
  const VD r1 = two_sum(t.h - nd * S(Tb.l1), hn::Neg(nd) * S(Tb.l2));
  const VD p3 = two_prod(nd, S(Tb.l3));
  const Vec p4 = nd * S(Tb.l4);
  const VD small = two_sum(t.l - p3.h, hn::Neg(p3.l) - p4);
  VB r = add(VB{r1.h, r1.l, t.e}, VB{small.h, small.l, hn::Zero(D())});
  r.e = r.e + (S(2 * kU) * (hn::Abs(t.l - p3.h) + hn::Abs(p3.l) + hn::Abs(p4)) +
               hn::Abs(nd) * S(Tb.l_rest));
  // e^r = 1 + r + r²·W, W = 1/2 + r·Q: W = 0.5 + r.h·Q in double-double (r.h·Q is below 2^-12,
  // its rounding u of it, and r.l·Q, r.e·Q and Q's own error ride in W's bound).
  const auto& cf = Tb.inv_fact_d;
  Vec q = S(cf[9]);
  for (int k = 8; k >= 3; --k) q = q * r.h + S(cf[static_cast<std::size_t>(k)]);
  const Vec eq = S(16 * kU / 5.99) + (hn::Abs(r.l) + r.e) / S(23);  // |Q̂ - Q(r)|
  const Vec rq = r.h * q;
  const VD w = fast_two_sum(S(0.5), rq);
  const VB W{w.h, w.l,
             S(kU) * hn::Abs(rq) + (hn::Abs(r.l) + r.e) * hn::Abs(q) * S(kMag) + mag(r) * eq +
                 r.e * eq};
  VB p = mul(mul(r, r), W);
  p = add_d(add(p, r), 1.0);
  p.e = p.e + S(0x1p-116);
  // N mod 256 in [0, 255] and N div 256 (floor): two's complement and an arithmetic shift.
  const VecI j = hn::And(n, SI(255));
  const D d;
  const VB e2{hn::GatherIndex(d, Tb.exp2_h.data(), j), hn::GatherIndex(d, Tb.exp2_l.data(), j),
              hn::GatherIndex(d, Tb.exp2_e.data(), j)};
  return {mul(p, e2), hn::ShiftRight<8>(n)};
}

// ---- Taylor tables --------------------------------------------------------------------------------
// Horner on a table polynomial at the exact h: the double part first (terms [k, n)), then the
// double-double steps (terms below k), each multiplying by h (mul_d propagates the bound) and
// adding a coefficient (its own 2^-105 charged). One polynomial for every lane:
HWY_INLINE VB taylor(const Poly& p, Vec h) {
  Vec q = hn::Zero(D());
  for (int n = p.n - 1; n >= p.k; --n) q = q * h + S(p.a[static_cast<std::size_t>(n)].h);
  VB out{q, hn::Zero(D()), S(p.tail_err)};
  for (int n = p.k - 1; n >= 0; --n) {
    const DD& a = p.a[static_cast<std::size_t>(n)];
    out = add(mul_d(out, h), VB{S(a.h), S(a.l), S(0x1p-105 * std::fabs(a.h))});
  }
  out.e = out.e + S(p.trunc);
  return out;
}
// Each lane its own polynomial pi of the table: the same steps for every lane, each taken by a
// lane only where its polynomial has it (a select keeps the others), so each lane gets exactly
// the steps above.
HWY_INLINE VB taylor(const PolyColumns& T, VecI pi, Vec h) {
  const D d;
  const VecI pn = hn::GatherIndex(DI(), T.n.data(), pi), pk = hn::GatherIndex(DI(), T.k.data(), pi);
  const int top = static_cast<int>(hn::GetLane(hn::MaxOfLanes(DI(), pn)));
  const int kmin = static_cast<int>(hn::GetLane(hn::MinOfLanes(DI(), pk)));
  const int kmax = static_cast<int>(hn::GetLane(hn::MaxOfLanes(DI(), pk)));
  const VecI base = pi * SI(kTaylorN);
  Vec q = hn::Zero(d);
  for (int n = top - 1; n >= kmin; --n) {
    const Mask m = M(hn::And(SI(n) < pn, pk < SI(n + 1)));
    q = hn::IfThenElse(m, q * h + hn::GatherIndex(d, T.ah.data(), base + SI(n)), q);
  }
  VB out{q, hn::Zero(d), hn::GatherIndex(d, T.tail_err.data(), pi)};
  for (int n = kmax - 1; n >= 0; --n) {
    const VecI at = base + SI(n);
    const VB a{hn::GatherIndex(d, T.ah.data(), at), hn::GatherIndex(d, T.al.data(), at),
               hn::GatherIndex(d, T.ae.data(), at)};
    out = select(M(SI(n) < pk), add(mul_d(out, h), a), out);
  }
  out.e = out.e + hn::GatherIndex(d, T.trunc.data(), pi);
  return out;
}
// The table's polynomial of every lane: by broadcast where the lanes share one (consecutive
// inputs of a sweep almost always do), else gathered.
HWY_INLINE VB taylor(const std::array<Poly, kCenters>& polys, const PolyColumns& cols, VecI pi, Vec h) {
  const std::int64_t p0 = hn::GetLane(pi);
  if (hn::AllTrue(DI(), pi == SI(p0))) return taylor(polys[static_cast<std::size_t>(p0)], h);
  return taylor(cols, pi, h);
}

// The Mills ratio M(t) for 8 <= t < 2048 by its Taylor table: t in [2^e, 2^(e+1)), interval i =
// floor(64(t/2^e - 1)), centre c = 2^e + (i + 1/2) 2^(e-6): t - 2^e, the scaling and h = t - c
// are exact (c is a multiple of 2^(e-7), t of 2^(e-23)), and |h| <= 2^(e-7).
HWY_INLINE VB mills(const Tables& Tb, Vec t) {
  const VecI e = exponent_of(t);
  const VecI i = hn::ConvertTo(DI(), (t * pow2_of(hn::Neg(e)) - S(1)) * S(kMillsPerBinade));
  const Vec c = pow2_of(e) + (hn::ConvertTo(D(), i) + S(0.5)) * pow2_of(e - SI(6));
  const VecI pi = (e - SI(3)) * SI(kMillsPerBinade) + i;
  const Vec h = t - c;
  const std::int64_t p0 = hn::GetLane(pi);
  if (hn::AllTrue(DI(), pi == SI(p0))) return taylor(Tb.mills[static_cast<std::size_t>(p0)], h);
  return taylor(Tb.mills_cols, pi, h);
}

// ---- results, a vector at a time ------------------------------------------------------------------
// A vector's worth of each column, for the queues and for lanes redone apart.
struct LaneBuf {
  HWY_ALIGN double rn[kMaxLanes], rd[kMaxLanes], ru[kMaxLanes], hi[kMaxLanes], lo[kMaxLanes];
  HWY_ALIGN std::int64_t scale[kMaxLanes], floor_log2[kMaxLanes];
  unsigned char ok[kMaxLanes];
};

// Where a kind's routine writes a vector's results: Lanes(D) consecutive entries of each column
// (the batch's own, or a LaneBuf's), ok per lane, and how many lanes were left undecided.
struct Dest {
  double *rn, *rd, *ru, *hi, *lo;
  std::int64_t *scale, *floor_log2;
  unsigned char* ok;
  std::size_t* undecided;
  static Dest of(LaneBuf& b, std::size_t* undecided) {
    return {b.rn, b.rd, b.ru, b.hi, b.lo, b.scale, b.floor_log2, b.ok, undecided};
  }
  void put(std::size_t j, const Rounded& r) const {
    rn[j] = r.rn;
    rd[j] = r.rd;
    ru[j] = r.ru;
    hi[j] = r.hi;
    lo[j] = r.lo;
    scale[j] = r.scale;
    floor_log2[j] = r.floor_log2;
  }
  // Entry i from lane j of b, ok included.
  void take(std::size_t i, const LaneBuf& b, std::size_t j) const {
    put(i, Rounded{b.rn[j], b.rd[j], b.ru[j], b.hi[j], b.lo[j], b.scale[j], b.floor_log2[j]});
    ok[i] = b.ok[j];
  }
  // The fields of one vector, all lanes decided.
  void store(Vec vrn, Vec vrd, Vec vru, Vec vhi, Vec vlo, VecI vsc, VecI vfl) const {
    const D d;
    hn::StoreU(vrn, d, rn);
    hn::StoreU(vrd, d, rd);
    hn::StoreU(vru, d, ru);
    hn::StoreU(vhi, d, hi);
    hn::StoreU(vlo, d, lo);
    hn::StoreU(vsc, DI(), scale);
    hn::StoreU(vfl, DI(), floor_log2);
    std::memset(ok, 1, hn::Lanes(d));
  }
};

// Open bounds known in advance, lane by lane (fast_scalar.cpp's facts()).
struct FactsV {
  Vec below, above;
};
HWY_INLINE FactsV facts_of(Quantity q, Vec x) {
  const Vec zero = hn::Zero(D());
  if (q == Quantity::value) return {x * S(0.5), hn::IfThenElse(x > zero, x, S(-0.0))};
  return {hn::IfThenElse(x > zero, hn::IfThenElse(x >= S(1), S(1.0), S(0.5)), S(-kInf)),
          hn::IfThenElse(x > zero, S(kInf), hn::IfThenElse(x <= S(-1), S(-0.0), S(0.5)))};
}

// decide() on the lanes at once, for the usual cases only; every other lane goes to decide(),
// which handles every case. A lane is taken when its enclosure's ends L, U (as decide() widens
// them) are of one sign and, as doubles, in one binade, its bound is within decide()'s 2^-70, and
// either
//  - f(x) ∈ v (scale 0), 2^-960 <= |L| < 2^(emax+1), [L, U] strictly inside the facts' open
//    bounds, and neither a value of fmt nor a midpoint between two lies in [L, U]: there decide()
//    clamps nothing and takes its round_interval path, whose steps this repeats lane by lane
//    without a branch (the floor by the 2^52 shift, exact for 0 <= ma < 2^24); or
//  - f(x) ∈ v·2^scale with 2^-(2^20) <= |f| < 2^-960 (scale + the binade's exponent in
//    [kBelowScale, -960)), where decide() gives zero_roundings, floor_log2 = that sum, and hi,
//    lo, scale as they are; or
//  - |f| < 2^-(2^20) (scale + the exponent of v.h below kBelowScale), where decide() gives
//    sign_only.
// The fields written are decide()'s, one for one.
HWY_INLINE void decide_lanes(Quantity q, Format fmt, Vec x, const VB& v, VecI sc, const Dest& out) {
  const D d;
  const FormatInfo fi = info(fmt);
  const Vec zero = hn::Zero(d);
  Vec h = v.h;
  if (testing::g_fast_perturbation != 0) h = h + S(testing::g_fast_perturbation) * h;  // test hook
  const Vec e = v.e * S(kInflate);
  const Vec lo = h + (v.l - e), hi = h + (v.l + e);
  // next_down(lo), next_up(hi) for nonzero finite lo, hi (other lanes are refused below).
  const Vec lb = from_bits(bits_of(lo) + hn::IfThenElse(MI(lo > zero), SI(-1), SI(1)));
  const Vec ub = from_bits(bits_of(hi) + hn::IfThenElse(MI(hi > zero), SI(1), SI(-1)));
  const FactsV s = facts_of(q, x);
  const Vec al = hn::Abs(lb), au = hn::Abs(ub);
  const Vec a = hn::IfThenElse(al < au, al, au), b = hn::IfThenElse(al < au, au, al);
  const VecI ea = exponent_of(a), eb = exponent_of(b);
  const MaskI scaled = sc != SI(0);
  const Mask one_sign = hn::Or(hn::And(lb > zero, ub > zero), hn::And(lb < zero, ub < zero));
  const Mask bound_ok = e < S(0x1p-70) * hn::Abs(h) * S(1 - 0x1p-50);
  const Mask finite = hn::And(al < S(kInf), au < S(kInf));
  // |f| < 2^-(2^20): only the sign.
  const Mask sign_only =
      hn::And(hn::And(bound_ok, hn::And(one_sign, finite)), M(exponent_of(h) + sc < SI(kBelowScale)));
  const MaskI near_zero = hn::And(ea + sc < SI(-960), ea + sc > SI(kBelowScale - 1));
  const MaskI in_range = hn::And(hn::And(ea > SI(-961), ea < SI(fi.emax + 1)),
                                 MI(hn::And(lb > s.below, ub < s.above)));
  MaskI good = hn::And(hn::And(MI(hn::And(hn::And(bound_ok, one_sign), finite)), ea == eb),
                       hn::Or(hn::And(scaled, near_zero), hn::AndNot(scaled, in_range)));
  // The quantum's exponent: max(e, emin) - precision + 1 (the least subnormal's for scaled
  // lanes, whose f is far below it; refused lanes get any valid one).
  VecI qe = hn::IfThenElse(ea > SI(fi.emin), ea, SI(fi.emin)) - SI(fi.precision - 1);
  qe = hn::IfThenElse(hn::AndNot(scaled, good), qe, SI(fi.emin - fi.precision + 1));
  const Mask sc_d = M(scaled);
  const Vec ma = hn::IfThenZeroElse(sc_d, a * pow2_of(hn::Neg(qe)));  // exact; < 2^precision
  const Vec mb = hn::IfThenZeroElse(sc_d, b * pow2_of(hn::Neg(qe)));
  const Vec ra = (ma + S(0x1p52)) - S(0x1p52), rb = (mb + S(0x1p52)) - S(0x1p52);  // nearest
  const Vec fa = ra - hn::IfThenElseZero(ra > ma, S(1.0));
  const Vec fb = rb - hn::IfThenElseZero(rb > mb, S(1.0));
  const Vec da = ma - fa, db = mb - fa;
  const Mask half = S(0.5) < da;
  const Mask plain = hn::And(hn::And(fa == fb, ma != fa),
                             hn::And(hn::Not(hn::Xor(half, S(0.5) < db)), hn::And(da != S(0.5), db != S(0.5))));
  good = hn::And(good, hn::Or(scaled, MI(plain)));
  const Vec quantum = pow2_of(qe);
  const Vec limit = S(exact_pow2(fi.emax + 1));
  Vec n = (fa + hn::IfThenElseZero(half, S(1.0))) * quantum;
  Vec up = (fa + S(1)) * quantum;
  const Vec dn = fa * quantum;  // < limit: a < 2^(emax+1)
  n = hn::IfThenElse(n >= limit, S(kInf), n);
  up = hn::IfThenElse(up >= limit, S(kInf), up);
  const Mask neg = ub < zero;
  // sign_only(neg): rn = ±0, rd/ru = -tiny, -0 or 0, tiny; hi = ±1, lo = 0, scale = floor_log2 =
  // kBelowScale.
  const Vec tiny = S(exact_pow2(fi.emin - fi.precision + 1));
  const Vec rn = hn::IfThenElse(sign_only, hn::IfThenElse(neg, S(-0.0), zero), hn::IfThenElse(neg, hn::Neg(n), n));
  const Vec rd = hn::IfThenElse(sign_only, hn::IfThenElse(neg, hn::Neg(tiny), zero), hn::IfThenElse(neg, hn::Neg(up), dn));
  const Vec ru = hn::IfThenElse(sign_only, hn::IfThenElse(neg, S(-0.0), tiny), hn::IfThenElse(neg, hn::Neg(dn), up));
  const Vec oh = hn::IfThenElse(sign_only, hn::IfThenElse(neg, S(-1.0), S(1.0)), h);
  const Vec ol = hn::IfThenZeroElse(sign_only, v.l);
  const VecI osc = hn::IfThenElse(MI(sign_only), SI(kBelowScale), sc);
  const VecI ofl = hn::IfThenElse(MI(sign_only), SI(kBelowScale), ea + sc);
  const MaskI taken = hn::Or(good, MI(sign_only));
  out.store(rn, rd, ru, oh, ol, osc, ofl);
  if (hn::AllTrue(DI(), taken)) return;
  HWY_ALIGN double xs[kMaxLanes], vh[kMaxLanes], vl[kMaxLanes],
      ve[kMaxLanes];
  HWY_ALIGN std::int64_t scs[kMaxLanes], tk[kMaxLanes];
  hn::Store(x, d, xs);
  hn::Store(v.h, d, vh);
  hn::Store(v.l, d, vl);
  hn::Store(v.e, d, ve);
  hn::Store(sc, DI(), scs);
  hn::Store(VecFromMask(DI(), taken), DI(), tk);
  for (std::size_t j = 0; j < hn::Lanes(d); ++j) {
    if (tk[j] != 0) continue;
    Rounded r;
    out.ok[j] = decide(fmt, V{vh[j], vl[j], ve[j]}, scs[j], facts(q, xs[j]), r) ? 1 : 0;
    if (out.ok[j]) out.put(j, r);
    else ++*out.undecided;
  }
}

// ---- the kinds of input -------------------------------------------------------------------------
// tanh form: u = √(2/π)·x·(1 + c x²), E = e^(-2|u|) <= 1 (so exp never overflows), D = 1 + E:
//   value       x > 0: x / D                    x < 0: x·E / D
//   derivative  x > 0: (D + w E) / D²           x < 0: E (D + w) / D²,  w = 2√(2/π) x (1 + 3c x²)
// (f = x σ(2u); f' = σ(2u)(1 + w σ(-2u)) with σ(2u) = 1/D, σ(-2u) = E/D for x > 0 and the
// mirror for x < 0). x² is exact (x has 24 bits). Only x < 0's derivative cancels (D + w near
// the zero of f'); its bound then exceeds 2^-70 |f| and the MPFR path takes over.
HWY_INLINE void tanh_eval(const Tables& Tb, Quantity q, Format fmt, Vec x, const Dest& out) {
  const Vec x2 = x * x;
  const Mask pos = x > hn::Zero(D());
  const VB u = mul(mul_d(splat(Tb.sqrt_2_over_pi), x), add_d(mul_d(splat(Tb.c), x2), 1.0));
  const Vec s2 = hn::IfThenElse(u.h > hn::Zero(D()), S(-2.0), S(2.0));  // -2|u|: exact
  const SB E = exp_neg(Tb, VB{u.h * s2, u.l * s2, u.e * S(2)});
  const VB Eu = unscaled(E);
  const VB Dn = add_d(Eu, 1.0);
  // x < 0: f carries E as Es·2^sc, unscaled (sc = 0) while 2^k >= 2^-900 (x > -20.6), scaled
  // below. Unscaled, the value stays above 2^-926 (|x| > 2^-24, E > 2^-901, D < 2), and any
  // unscaled result is right whatever its size (its bound charges the subnormal roundings;
  // decide() takes scale 0 at any magnitude): decide_lanes can take most lanes, and decide()'s
  // rescaling is left to the tiny results.
  const Mask keep = hn::Or(pos, M(E.k > SI(-901)));
  const VecI sc = hn::IfThenZeroElse(MI(keep), E.k);
  const VB Es = select(keep, Eu, E.m);
  VB f;
  if (q == Quantity::value) {
    f = div(select(pos, exact(x), mul_d(Es, x)), Dn);
  } else {
    const VB w = mul(mul_d(splat(Tb.two_sqrt_2_over_pi), x), add_d(mul_d(splat(Tb.three_c), x2), 1.0));
    f = div(select(pos, add(Dn, mul(w, Eu)), mul(Es, add(Dn, w))), mul(Dn, Dn));
  }
  decide_lanes(q, fmt, x, f, sc, out);
}

// erf form, |x| < 8: Φ (value x·Φ(x)) and g = Φ + xφ (the derivative) by the Taylor tables at
// centres j/8. h = x - j/8 is exact: for j = 0 it is x; otherwise |x| >= 1/16, so x's ulp is at
// most 2^-27 and divides 2^-3, both x and j/8 are multiples of it, and |h| <= 1/16 needs < 53
// bits.
HWY_INLINE void erf_table(const Tables& Tb, Quantity q, Format fmt, Vec x, const Dest& out) {
  const Vec jd = hn::Floor(S(8) * x + S(0.5));  // |x| < 8: jd in [-64, 64]
  const Vec h = x - jd * S(0.125);
  const VecI pi = hn::ConvertTo(DI(), jd) + SI(64);
  const bool value = q == Quantity::value;
  VB f = taylor(value ? Tb.phi : Tb.g, value ? Tb.phi_cols : Tb.g_cols, pi, h);
  if (value) f = mul_d(f, x);
  decide_lanes(q, fmt, x, f, hn::Zero(DI()), out);
}

// erf form, 8 <= |x| < 2048 (the closed forms take the rest): t = |x|, φ(t) = e^(-t²/2)/√(2π)
// (t² exact) and M(t) by its table:
//   x <= -8: Φ(x) = φ(t) M(t):   value -t φ M,       derivative φ (M - t)
//   x >=  8: Φ(x) = 1 - φ(x) M(x): value x (1 - φ M), derivative 1 + φ (x - M)
// φ is carried unscaled while 2^k >= 2^-900 (x > -37; for x >= 8 always: decide_lanes takes
// those), scaled below (x < 0 only: f ~ φ below 2^-900, zero roundings or the sign alone).
HWY_INLINE void erf_tail(const Tables& Tb, Quantity q, Format fmt, Vec x, const Dest& out) {
  const Vec t = hn::Abs(x);
  const VB Mt = mills(Tb, t);
  const SB E = exp_neg(Tb, exact(hn::Neg(t * t) / S(2)));  // t*t exact, /2 exact
  const VB phi_m = mul(E.m, splat(Tb.inv_sqrt_2pi));   // φ = phi_m·2^k
  const Mask pos = x > hn::Zero(D());
  const Mask keep = hn::Or(pos, M(E.k > SI(-901)));
  const VecI sc = hn::IfThenZeroElse(MI(keep), E.k);
  const VB phi = select(keep, unscaled(SB{phi_m, E.k}), phi_m);
  VB f;
  if (q == Quantity::value) {
    f = select(pos, mul_d(add_d(neg(mul(phi, Mt)), 1.0), x), mul_d(mul(phi, Mt), x));
  } else {
    f = select(pos, add_d(mul(phi, add_d(neg(Mt), x)), 1.0), mul(phi, add_d(Mt, hn::Neg(t))));
  }
  decide_lanes(q, fmt, x, f, sc, out);
}

// The roundings of an f known to lie strictly between the value c of fmt (c finite, nonzero, a
// normal double) and c's neighbour in fmt on the side `above` says (toward +inf where set), and
// nearer c than half the gap to that neighbour: RN = c, and RD/RU are c and that neighbour. No
// rounding test is needed: the closed forms below prove the distance. With a = |c| in the binade
// [2^e, 2^(e+1)), the quantum is 2^(max(e, emin) - p + 1); the neighbour away from zero is a +
// quantum (2^(emax+1) is an overflow: ±inf), toward zero a - quantum, or a - quantum/2 when a =
// 2^e is the bottom of a normal binade. f's floor(log2|f|) is e, or e - 1 when f lies below a =
// 2^e in magnitude. hi/lo (scale 0) is the caller's approximation of f.
HWY_INLINE void near_value(Vec c, Mask above, Format fmt, Vec hi, Vec lo, const Dest& out) {
  const D d;
  const FormatInfo fi = info(fmt);
  const Vec a = hn::Abs(c);
  const VecI e = exponent_of(a);
  const Vec quantum = pow2_of(hn::IfThenElse(e > SI(fi.emin), e, SI(fi.emin)) - SI(fi.precision - 1));
  const Mask bottom = a == pow2_of(e);
  const Mask away = hn::Not(hn::Xor(c > hn::Zero(d), above));  // f is farther from zero than c
  Vec nb = hn::IfThenElse(away, a + quantum,
                          a - hn::IfThenElse(hn::And(bottom, M(e > SI(fi.emin))), quantum * S(0.5), quantum));
  nb = hn::IfThenElse(nb >= S(exact_pow2(fi.emax + 1)), S(kInf), nb);
  nb = hn::CopySign(nb, c);  // a neighbour 0 keeps c's sign: the rounding toward zero of f
  out.store(c, hn::IfThenElse(above, c, nb), hn::IfThenElse(above, nb, c), hi, lo, hn::Zero(DI()),
            hn::IfThenElse(MI(hn::AndNot(away, bottom)), e - SI(1), e));
}

// ---- closed forms ---------------------------------------------------------------------------------
// Where f(x) is within 2^-70 of a closed form, nothing is evaluated (proofs in docs/reference.md
// and below); the rounding test then runs on that enclosure.
//
// Tiny |x| <= 2^-24. f(x) - x/2 is even and analytic: erf form x(Φ(x) - 1/2) = (x²/√(2π))(1 -
// x²/6 + …), an alternating series with decreasing terms, so |f - x/2 - x²/√(2π)| <= x⁴/(6√(2π))
// < 0.07x⁴; tanh form (x/2) tanh(u), u = √(2/π)x(1 + cx²), |tanh u - u| <= |u|³/3, so |f - x/2 -
// x²/√(2π)| <= (√(2/π)c/2) x⁴ + (|x|/6)(0.81|x|)³ < 0.11 x⁴. Charged 0.125x⁴ plus the rounding of
// x²/√(2π) to double (u of it). Relative: <= 0.25|x|³ + 2^-51|x| < 2^-71.
// The derivative: f' - 1/2 - 2x/√(2π) = κ x³ + O(x⁵), κ = -2/(3√(2π)) (erf) and 2√(2/π)c -
// (2/3)(2/π)^(3/2) (tanh), both ≈ -0.267: charged 0.5|x|³ plus the rounding.
// Large x: erf value x - f = xΦ(-x) < φ(x) (Mills' inequality Φ(-x) < φ(x)/x), so relative to f >
// x/2 below 2φ(x)/x <= 2φ(10)/10 < 2^-73 for x >= 10; erf derivative 0 < f' - 1 = xφ(x) - Φ(-x) <
// xφ(x) <= 11φ(11) < 2^-85 for x >= 11; tanh value 0 < x - f = xσ(-2u) < x e^(-2u), relative <
// 2e^(-2u) and 2u >= 66 at x = 9; tanh derivative 0 < f' - 1 < w e^(-2u) < 2^-88 for x >= 9.
// Very negative x: |f| < 2^-(2^20) (below which only the sign is carried): tanh: |f| <= |x| e^(-2|u|)
// and |f'| <= e^(-2|u|)(2 + |w|), 2|u| >= 2√(2/π)c|x|³; at |x| = 256 log2|f| < 8 + 22 - 1.7e6;
// erf: |f| <= φ(x) and |f'| <= |x|φ(x), log2 < 11 - 0.72x² < -3e6 at |x| = 2048; both bounds
// decrease with |x| beyond.
//
// Most of these need no rounding test at all (near_value, sign-only): x is a value of fmt
// (round_batch's contract), and the bounds put f nearer a known value c of fmt than half the
// gap to c's neighbour on f's side. That gap is at least 2^-p|c| (p = fmt's precision; exactly
// that at the bottom of a binade, where the gap below is half a quantum), so half of it is at
// least 2^(-p-1)|c|.
//   Large x: |f - c| < 2^-70|c|, c = x (value, f below) or 1 (derivative, f above); p <= 24.
//   Tiny x, value: f - x/2 = x²/√(2π)(1 + ε) > 0 with |ε| < 2^-40 (the bounds above), so
//     |f - x/2| < 0.81|x||x/2| < 2^(-p-1)|x/2| when |x| < 2^(-p-1); taken for |x| < 2^(-p-2)
//     and when x/2 is a value of fmt (below 2^emin: an even multiple of the least subnormal).
//   Tiny x, derivative: |f' - 1/2| <= 0.8|x| + 0.5|x|³ < 2^(-p-2) = half the gap below 1/2
//     when |x| < 2^(-p-3); f' is above 1/2 for x > 0, below for x < 0.
// The rest of the tiny region (and x/2 not in fmt) goes through the rounding test.
constexpr double kInvSqrt2Pi = 0.3989422804014327;  // RN(1/√(2π))

HWY_INLINE void tiny(Quantity q, Format fmt, Vec x, const Dest& out) {
  const D d;
  const FormatInfo fi = info(fmt);
  const Vec ax = hn::Abs(x);
  VB v;
  Mask near;
  if (q == Quantity::value) {
    const Vec lo = x * x * S(kInvSqrt2Pi);
    const VD s = fast_two_sum(x * S(0.5), lo);
    // x/2 is a value of fmt: x's significand at or above 2^emin, or below an even multiple of
    // the least subnormal (x itself is one of them; |x| < 2^(-p-2) < 2^53 of them). The count is
    // read only where |x|/2 < 2^emin (below 2^24 then); other lanes' conversions are unused.
    const VecI units = hn::ConvertTo(DI(), hn::Min(ax * S(exact_pow2(fi.precision - 1 - fi.emin)), S(0x1p52)));
    const Mask half_in_fmt =
        hn::Or(ax * S(0.5) >= S(exact_pow2(fi.emin)), M(hn::And(units, SI(1)) == SI(0)));
    near = hn::And(ax < S(exact_pow2(-fi.precision - 2)), half_in_fmt);
    if (hn::AllTrue(d, near)) return near_value(x * S(0.5), near, fmt, s.h, s.l, out);
    v = {s.h, s.l, S(0.125) * x * x * x * x + S(kU) * lo};
  } else {
    const Vec lo = S(2) * x * S(kInvSqrt2Pi);
    const VD s = fast_two_sum(S(0.5), lo);
    near = ax < S(exact_pow2(-fi.precision - 3));
    if (hn::AllTrue(d, near)) return near_value(S(0.5), x > hn::Zero(d), fmt, s.h, s.l, out);
    v = {s.h, s.l, S(0.5) * ax * ax * ax + S(kU) * hn::Abs(lo)};
  }
  decide_lanes(q, fmt, x, v, hn::Zero(DI()), out);
  if (hn::AllFalse(d, near)) return;
  // Mixed lanes (the edge between the two): the near ones again, by near_value.
  LaneBuf nv;
  std::size_t none = 0;
  if (q == Quantity::value) {
    const VD s = fast_two_sum(x * S(0.5), x * x * S(kInvSqrt2Pi));
    near_value(x * S(0.5), near, fmt, s.h, s.l, Dest::of(nv, &none));
  } else {
    const VD s = fast_two_sum(S(0.5), S(2) * x * S(kInvSqrt2Pi));
    near_value(S(0.5), x > hn::Zero(d), fmt, s.h, s.l, Dest::of(nv, &none));
  }
  HWY_ALIGN std::int64_t nm[kMaxLanes];
  hn::Store(VecFromMask(DI(), MI(near)), DI(), nm);
  for (std::size_t j = 0; j < hn::Lanes(d); ++j)
    if (nm[j] != 0) {
      if (out.ok[j] == 0) --*out.undecided;  // decide_lanes' lane, taken here after all
      out.take(j, nv, j);
    }
}

// Large x: f in [x(1 - 2^-70), x) (value) or (1, 1 + 2^-70] (derivative); hi = x or 1.
HWY_INLINE void large(Quantity q, Format fmt, Vec x, const Dest& out) {
  const D d;
  const Mask below = hn::FirstN(d, 0), above = hn::FirstN(d, hn::Lanes(d));
  if (q == Quantity::value) return near_value(x, below, fmt, x, hn::Zero(d), out);
  return near_value(S(1), above, fmt, S(1), hn::Zero(d), out);
}

// Very negative x: f < 0 below 2^-(2^20): the sign alone.
HWY_INLINE void very_negative(Format fmt, const Dest& out) {
  Rounded r;
  sign_only(true, fmt, r);
  out.store(S(r.rn), S(r.rd), S(r.ru), S(r.hi), S(r.lo), SI(r.scale), SI(r.floor_log2));
}

// ---- the batch ------------------------------------------------------------------------------------
// The kinds of input, in the order they are tested: exact (0, ±inf, NaN: one at a time), tiny,
// large, very negative, the erf tail, and the rest (evaluated).
enum Kind : std::int64_t { kExact, kTiny, kLarge, kVeryNegative, kTail, kEval, kKinds };

struct Thresholds {
  double large, very_negative;
  bool erf;
};
HWY_INLINE VecI kind_of(const Thresholds& th, Vec x) {
  const Vec ax = hn::Abs(x);
  VecI k = SI(kEval);
  if (th.erf) k = hn::IfThenElse(MI(ax >= S(8)), SI(kTail), k);
  k = hn::IfThenElse(MI(x <= S(th.very_negative)), SI(kVeryNegative), k);
  k = hn::IfThenElse(MI(x >= S(th.large)), SI(kLarge), k);
  k = hn::IfThenElse(MI(ax <= S(0x1p-24)), SI(kTiny), k);
  // x == 0, ±inf, NaN (|x| < inf is false for NaN).
  return hn::IfThenElse(MI(hn::Or(x == hn::Zero(D()), hn::Not(ax < S(kInf)))), SI(kExact), k);
}

HWY_INLINE void run_kind(const Tables& Tb, Form form, Quantity q, Format fmt, std::int64_t kind, Vec x,
                         const Dest& out) {
  switch (kind) {
    case kTiny: return tiny(q, fmt, x, out);
    case kLarge: return large(q, fmt, x, out);
    case kVeryNegative: return very_negative(fmt, out);
    case kTail: return erf_tail(Tb, q, fmt, x, out);
    default:
      if (form == Form::tanh) return tanh_eval(Tb, q, fmt, x, out);
      return erf_table(Tb, q, fmt, x, out);
  }
}

// Returns how many inputs were left undecided (ok 0); *outside is set when some input is not a
// value of binary32 (only that format is checked here: round_columns checks the others).
std::size_t EvaluateBatch(int form_i, int q_i, int fmt_i, const double* x, std::size_t n,
                          const RoundedColumns* cols, unsigned char* ok, bool* outside) {
  const D d;
  const std::size_t L = hn::Lanes(d);
  const auto form = static_cast<Form>(form_i);
  const auto q = static_cast<Quantity>(q_i);
  const auto fmt = static_cast<Format>(fmt_i);
  const Tables& Tb = tables();
  const RoundedColumns& o = *cols;
  const bool erf = form == Form::erf;
  const Thresholds th{erf ? (q == Quantity::value ? 10.0 : 11.0) : 9.0, erf ? -2048.0 : -256.0, erf};
  const hn::Rebind<float, D> df;
  std::size_t undecided = 0;
  Mask not_value = hn::FirstN(d, 0);
  // The columns' entries from i on, as a routine's destination.
  auto at = [&](std::size_t i) HWY_ATTR {
    return Dest{o.rn + i, o.rd + i, o.ru + i, o.hi + i, o.lo + i, o.scale + i, o.floor_log2 + i, ok + i, &undecided};
  };
  // The queues of inputs whose vector was mixed: run a kind's once it holds L inputs (or at the
  // end, padded with its first input, whose repeated results are not stored).
  std::size_t queue[kKinds][kMaxLanes];
  std::size_t queued[kKinds] = {};
  LaneBuf buf;
  auto flush = [&](std::int64_t kind) HWY_ATTR {
    const std::size_t m = queued[kind];
    if (m == 0) return;
    HWY_ALIGN double xb[kMaxLanes] = {};
    for (std::size_t j = 0; j < L; ++j) xb[j] = x[queue[kind][j < m ? j : 0]];
    std::size_t lanes_undecided = 0;
    run_kind(Tb, form, q, fmt, kind, hn::Load(d, xb), Dest::of(buf, &lanes_undecided));
    for (std::size_t j = 0; j < m; ++j) {
      at(0).take(queue[kind][j], buf, j);
      undecided += buf.ok[j] == 0;
    }
    queued[kind] = 0;
  };
  auto one = [&](std::size_t i, std::int64_t kind) HWY_ATTR {
    if (kind == kExact) {
      Rounded r;
      exact_case(q, x[i], r);
      at(i).put(0, r);
      ok[i] = 1;
      return;
    }
    queue[kind][queued[kind]++] = i;
    if (queued[kind] == L) flush(kind);
  };
  // A value of binary32: NaN, or a double that survives the round trip through float.
  auto check = [&](Vec xv) HWY_ATTR {
    if (fmt == Format::binary32)
      not_value = hn::Or(not_value, hn::AndNot(hn::IsNaN(xv), xv != hn::PromoteTo(d, hn::DemoteTo(df, xv))));
  };
  std::size_t i = 0;
  HWY_ALIGN std::int64_t kinds[kMaxLanes];
  for (; i + L <= n; i += L) {
    const Vec xv = hn::LoadU(d, x + i);
    check(xv);
    const VecI k = kind_of(th, xv);
    const std::int64_t k0 = hn::GetLane(k);
    if (k0 != kExact && hn::AllTrue(DI(), k == SI(k0))) {
      run_kind(Tb, form, q, fmt, k0, xv, at(i));
      continue;
    }
    hn::Store(k, DI(), kinds);
    for (std::size_t j = 0; j < L; ++j) one(i + j, kinds[j]);
  }
  if (i < n) {  // the last inputs, fewer than a vector: through the queues
    HWY_ALIGN double xb[kMaxLanes] = {};
    for (std::size_t j = 0; j < L; ++j) xb[j] = i + j < n ? x[i + j] : 1.0;
    check(hn::Load(d, xb));
    hn::Store(kind_of(th, hn::Load(d, xb)), DI(), kinds);
    for (std::size_t j = 0; i + j < n; ++j) one(i + j, kinds[j]);
  }
  for (std::int64_t kind = kTiny; kind < kKinds; ++kind) flush(kind);
  *outside = !hn::AllFalse(d, not_value);
  return undecided;
}

}  // namespace gelucheck::ref::fast::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck::ref::fast {

HWY_EXPORT(EvaluateBatch);

std::size_t evaluate_batch(Form form, Quantity q, Format fmt, const double* x, std::size_t n,
                           const RoundedColumns& out, unsigned char* ok, bool* outside) {
  return HWY_DYNAMIC_DISPATCH(EvaluateBatch)(static_cast<int>(form), static_cast<int>(q), static_cast<int>(fmt),
                                             x, n, &out, ok, outside);
}

// One compiled target's EvaluateBatch by its namespace (Highway names them N_<TARGET>), for the
// test that every target gives the same results.
std::optional<std::size_t> evaluate_batch_on(std::int64_t target, Form form, Quantity q, Format fmt,
                                             const double* x, std::size_t n, const RoundedColumns& out,
                                             unsigned char* ok) {
  if ((hwy::SupportedTargets() & HWY_TARGETS & target) == 0) return std::nullopt;
  bool outside = false;
  const int f = static_cast<int>(form), qq = static_cast<int>(q), ff = static_cast<int>(fmt);
  switch (target) {
#define GELUCHECK_ON(T, NS) \
  case T: return NS::EvaluateBatch(f, qq, ff, x, n, &out, ok, &outside);
#if HWY_TARGETS & HWY_AVX3_DL
    GELUCHECK_ON(HWY_AVX3_DL, N_AVX3_DL)
#endif
#if HWY_TARGETS & HWY_AVX3
    GELUCHECK_ON(HWY_AVX3, N_AVX3)
#endif
#if HWY_TARGETS & HWY_AVX2
    GELUCHECK_ON(HWY_AVX2, N_AVX2)
#endif
#if HWY_TARGETS & HWY_SSE4
    GELUCHECK_ON(HWY_SSE4, N_SSE4)
#endif
#if HWY_TARGETS & HWY_SSSE3
    GELUCHECK_ON(HWY_SSSE3, N_SSSE3)
#endif
#if HWY_TARGETS & HWY_EMU128
    GELUCHECK_ON(HWY_EMU128, N_EMU128)
#endif
#if HWY_TARGETS & HWY_SCALAR
    GELUCHECK_ON(HWY_SCALAR, N_SCALAR)
#endif
#undef GELUCHECK_ON
    default: return std::nullopt;
  }
}

std::vector<std::int64_t> targets() {
  std::vector<std::int64_t> out;
  for (std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS; t != 0; t &= t - 1) out.push_back(t & -t);
  return out;  // the lowest bit is the best target
}

}  // namespace gelucheck::ref::fast
#endif  // HWY_ONCE
