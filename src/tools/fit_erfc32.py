#!/usr/bin/python3
# Fits the polynomials of the vector code's erfc (src/gelu_simd.cpp, erfc_phi) and measures the
# terms of its error bound. Run (Debian's python3-mpmath; a few minutes):
#     /usr/bin/python3 src/tools/fit_erfc32.py
# and paste the two coefficient arrays it prints into gelu_simd.cpp (the measured figures it
# prints are quoted there, next to the bound they enter).
#
# What is approximated, for a binary32 x (as a double: exact), v = |x| and c(x) = erfc(-x/sqrt2)
# (= 2 Phi(x)), so that neither 1/sqrt2 nor any other rounded argument enters:
#   small, v < 1:  c = 1 + x P(x^2),  P(s) ~ erf(sqrt(s/2))/sqrt(s), degree NS in s = x^2 (exact);
#   large, v >= 1: erfc(v/sqrt2) = e^(-x^2/2) Q(v), Q(v) = erfcx(v/sqrt2) = F(y) r with
#                  r = 1/(v + K), y = (v - K) r = (v - K)/(v + K) in [-3/5, 3/5] and F(y) = Q(v) (v + K)
#                  (which varies 3.3-fold only, where Q varies 13-fold: its Horner sum has little
#                  cancellation) a polynomial of degree NL in y; v - K and v + K are exact for a
#                  binary32 v in [1, 16]. c = that for x < 0, 2 - that for x > 0.
# Each polynomial: Chebyshev interpolation at NS+1 / NL+1 nodes in 60 digits, expanded into
# monomials, each coefficient rounded to the nearest double. Then, on a dense grid of the
# interval (uniform in the variable and in v, both endpoints included), in 40 digits:
#   A  = max relative error of the polynomial WITH the double coefficients, evaluated exactly;
#   H  = max of the evaluation's rounding error bound / |poly(t)| in units of u = 2^-53: a running
#        error analysis of the very operations gelu_simd.cpp performs (split_eval below), each
#        product and sum rounding once by u times its exact result and the errors propagated to
#        first order (class Run); a fused multiply-add has one rounding fewer than counted;
#   G  = max of |y d ln F/dy| (large only): the relative effect on F of a relative error of 1 u
#        in y (y has two roundings: r and the product);
#   W  = max |x P(x^2)| / c (small only): the factor from the addition 1 + w.
import math

import mpmath as mp

NS, NL, K = 10, 18, 4
SPLIT_SMALL, SPLIT_LARGE = 2, 4  # the evaluation schemes of gelu_simd.cpp (split_eval below)
V_SPLIT, V_MAX = 1, 16
GRID = 6000  # points per sweep (two sweeps per interval)


def cheb_monomial(f, lo, hi, n):
    """Monomial coefficients (ascending, in the variable itself) of f's Chebyshev interpolant."""
    with mp.workdps(60):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
        fv = [f((hi + lo) / 2 + (hi - lo) / 2 * t) for t in nodes]
        ch = [2 * mp.fsum(fv[k] * mp.cos(j * mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)) / (n + 1)
              for j in range(n + 1)]
        ch[0] /= 2
        # T_j(t) as monomials in t, then t = a y + b.
        T = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
        for j in range(2, n + 1):
            nxt = [mp.mpf(0)] + [2 * c for c in T[j - 1]]
            for i, c in enumerate(T[j - 2]):
                nxt[i] -= c
            T.append(nxt)
        in_t = [mp.fsum(ch[j] * (T[j][i] if i < len(T[j]) else 0) for j in range(n + 1)) for i in range(n + 1)]
        a, b = 2 / (hi - lo), -(hi + lo) / (hi - lo)
        out = [mp.mpf(0)] * (n + 1)
        for i, c in enumerate(in_t):  # c (a y + b)^i
            for m in range(i + 1):
                out[m] += c * mp.binomial(i, m) * a ** m * b ** (i - m)
        return out


def nearest_double(c):
    d = float(c)
    best = d
    for e in (math.nextafter(d, -math.inf), math.nextafter(d, math.inf)):
        if abs(mp.mpf(e) - c) < abs(mp.mpf(best) - c):
            best = e
    return best


class Run:
    """An exactly computed value and a first-order bound (in units of u) of the absolute error of
    its floating-point evaluation: each product and each sum rounds once (relative u), a fused
    multiply-add is counted as both (so the bound holds with and without FMA)."""

    def __init__(self, v, e=0):
        self.v, self.e = mp.mpf(v), mp.mpf(e)

    def __mul__(self, o):
        v = self.v * o.v
        return Run(v, abs(o.v) * self.e + abs(self.v) * o.e + abs(v))

    def __add__(self, o):
        v = self.v + o.v
        return Run(v, self.e + o.e + abs(v))


def horner(cs, w):
    """Horner's scheme over cs (ascending) in w, as gelu_simd.cpp's horner()."""
    q = Run(cs[-1])
    for c in reversed(cs[:-1]):
        q = q * w + Run(c)
    return q


def split_eval(cs, t, k):
    """gelu_simd.cpp's poly_split<k>: P(t) = sum_{j<k} t^j P_j(t^k), P_j the coefficients
    cs[j], cs[j+k], ... by Horner in w = t^k (t2 = t t, t4 = t2 t2), then for k = 4
    (P_0 + t P_1) + t2 (P_2 + t P_3), for k = 2 P_0 + t P_1. Two short dependency chains
    instead of one long one (the loop is latency-bound)."""
    t = Run(t)
    t2 = t * t
    if k == 2:
        return horner(cs[0::2], t2) + horner(cs[1::2], t2) * t
    t4 = t2 * t2
    a = horner(cs[0::4], t4) + horner(cs[1::4], t4) * t
    b = horner(cs[2::4], t4) + horner(cs[3::4], t4) * t
    return a + b * t2


def eval_terms(cs, t, k):
    """The polynomial at t (exactly) and its rounding factor H(t) = error bound / |P(t)|, in u."""
    r = split_eval(cs, t, k)
    return r.v, r.e / abs(r.v)


def grid(lo, hi):
    return [lo + (hi - lo) * mp.mpf(i) / GRID for i in range(GRID + 1)]


def hexs(d):
    return float.hex(d).replace("0x1.", "0x1.").replace("+", "")


def main():
    mp.mp.dps = 40
    u = mp.mpf(2) ** -53
    sqrt2 = mp.sqrt(2)

    # ---- small: erf(x/sqrt2)/x in s = x^2, x in [0, 1] ----
    def f_small(s):
        return mp.erf(mp.sqrt(s / 2)) / mp.sqrt(s) if s > 0 else mp.sqrt(2 / mp.pi)

    ps = [nearest_double(c) for c in cheb_monomial(f_small, 0, V_SPLIT ** 2, NS)]
    A_s = H_s = W_s = mp.mpf(0)
    pts = [mp.sqrt(s) for s in grid(mp.mpf(0), mp.mpf(V_SPLIT) ** 2)] + grid(mp.mpf(0), mp.mpf(V_SPLIT))
    for x in pts:
        s = x * x
        p, h = eval_terms(ps, s, SPLIT_SMALL)
        A_s = max(A_s, abs(p / f_small(s) - 1))
        H_s = max(H_s, h)
        if x > 0:
            w = x * f_small(s)
            W_s = max(W_s, w / (1 - w))  # worst sign: x < 0, c = 1 - |w|

    # ---- large: F(y) = Q(v) (v + K), y = (v - K)/(v + K), v in [1, 16] ----
    def Q(v):
        return mp.erfc(v / sqrt2) * mp.exp(v * v / 2)

    def F(y):
        v = K * (1 + y) / (1 - y)
        return Q(v) * (v + K)

    ylo, yhi = mp.mpf(V_SPLIT - K) / (V_SPLIT + K), mp.mpf(V_MAX - K) / (V_MAX + K)
    pl = [nearest_double(c) for c in cheb_monomial(F, ylo, yhi, NL)]
    A_l = H_l = G_l = mp.mpf(0)
    pts = grid(ylo, yhi) + [(v - K) / (v + K) for v in grid(mp.mpf(V_SPLIT), mp.mpf(V_MAX))]
    for y in pts:
        v = K * (1 + y) / (1 - y)
        q = Q(v)
        p, h = eval_terms(pl, y, SPLIT_LARGE)
        A_l = max(A_l, abs(p / F(y) - 1))
        H_l = max(H_l, h)
        # d ln F/dv = d ln Q/dv + 1/(v + K), d ln Q/dv = v - sqrt(2/pi)/Q exactly
        # (Q' = v Q - sqrt(2/pi)); dv/dy = 2K/(1 - y)^2.
        dlnF = v - mp.sqrt(2 / mp.pi) / q + 1 / (v + K)
        G_l = max(G_l, abs(y) * abs(dlnF) * 2 * K / (1 - y) ** 2)
    EQ = mp.erfc(V_SPLIT / sqrt2)  # max of e^(-x^2/2) Q(v) = erfc(v/sqrt2) on the large branch

    print(f"// fit_erfc32.py: NS = {NS}, NL = {NL}, K = {K}, split v = {V_SPLIT}, clamp v = {V_MAX}")
    print("constexpr double kErfcSmall[] = {" + ", ".join(hexs(c) for c in ps) + "};")
    print("constexpr double kErfcLarge[] = {" + ", ".join(hexs(c) for c in pl) + "};")
    lg = lambda e: mp.nstr(mp.log(e, 2), 5)
    print(f"// small: A = 2^{lg(A_s)} ({mp.nstr(A_s / u, 4)} u), H = {mp.nstr(H_s, 5)}, W = {mp.nstr(W_s, 5)}")
    print(f"// large: A = 2^{lg(A_l)} ({mp.nstr(A_l / u, 4)} u), H = {mp.nstr(H_l, 5)}, G = {mp.nstr(G_l, 5)}, "
          f"erfc(1/sqrt2) = {mp.nstr(EQ, 6)}")
    # The bound's terms, in u (first order; see gelu_simd.cpp for each step):
    small = (A_s / u + H_s + 1) * W_s + 1           # w = x P: A + H + 1 (the product); 1 + w: + 1
    # F: A + H + 2G (y: two roundings); F r: r's rounding 1, the product 1; e^(-x^2/2): 4 (exp_d);
    # the product g (F r): 1.
    large_neg = A_l / u + H_l + 2 * G_l + 1 + 1 + 4 + 1
    large_pos = large_neg * EQ / (2 - EQ) + 1       # 2 - (e Q): relative to c >= 2 - erfc(1/sqrt2)
    print(f"// bound (u): small {mp.nstr(small, 5)}, large x < 0 {mp.nstr(large_neg, 5)}, "
          f"large x > 0 {mp.nstr(large_pos, 5)}; max 2^{lg(max(small, large_neg, large_pos) * u)}")
    # A, H and G are sampled (a dense grid, not a proof): the bound the code uses doubles them.
    small2 = (2 * (A_s / u + H_s) + 1) * W_s + 1
    neg2 = 2 * (A_l / u + H_l + 2 * G_l) + 1 + 1 + 4 + 1
    pos2 = neg2 * EQ / (2 - EQ) + 1
    worst = max(small2, neg2, pos2)
    print(f"// sampled terms doubled (u): small {mp.nstr(small2, 5)}, large x < 0 {mp.nstr(neg2, 5)}, "
          f"large x > 0 {mp.nstr(pos2, 5)}; max {mp.nstr(worst, 5)} u, times 1.01: "
          f"{mp.nstr(worst * mp.mpf('1.01'), 5)} u (gelu_simd.cpp uses 32 u)")


if __name__ == "__main__":
    main()
