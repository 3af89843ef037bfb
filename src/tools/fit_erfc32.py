#!/usr/bin/python3
# Fits the polynomial of the vector code's erfc (src/gelu_simd.cpp, erfc_phi) and measures the
# terms of its error bound. Run (Debian's python3-mpmath; about a minute):
#     /usr/bin/python3 src/tools/fit_erfc32.py
# and paste the coefficient array it prints into gelu_simd.cpp (the measured figures it prints
# are quoted there, next to the bound they enter).
#
# What is approximated, for a binary32 x (as a double: exact), v = min(|x|, 16) and
# c(x) = erfc(-x/sqrt2) (= 2 Phi(x)), so that neither 1/sqrt2 nor any other rounded argument
# enters: erfc(v/sqrt2) = e^(-x^2/2) Q(v), Q(v) = e^(v^2/2) erfc(v/sqrt2), Q = F(y) r with
# r = 1/(v + K), y = (v - K) r = (v - K)/(v + K) in [-1, 3/5], and F(y) = Q(v) (v + K) (which
# varies 4-fold only on [0, 16], where Q varies 20-fold: its polynomial has little
# cancellation) a polynomial of degree N in y. c = e^(-x^2/2) Q for x < 0, 2 - that for x > 0
# (no cancellation either way: c >= 1 for x >= 0).
# The polynomial: Chebyshev interpolation at N+1 nodes in 60 digits, expanded into monomials,
# each coefficient rounded to the nearest double. Then, at every point of a dense grid of
# [0, 16] (uniform in y and in v, both ends included, and v = 2^-k down to 2^-149), in 40 digits:
#   A  = the relative error of the polynomial WITH the double coefficients, evaluated exactly;
#   H  = the evaluation's rounding error bound / |poly(y)| in units of u = 2^-53: a running
#        error analysis of the very operations gelu_simd.cpp performs (split_eval below), each
#        product and sum rounding once by u times its exact result and the errors propagated to
#        first order (class Run); a fused multiply-add has one rounding fewer than counted;
#   G  = |y d ln F/dy|: the relative effect on F of a relative error of 1 u in y;
# and the bound at that point (in u, first order; the derivation is in gelu_simd.cpp):
#   x < 0:  A + H + nY G + nR + 1 + 4 + 1, nY (nR) the roundings in y (in r): 2 (1) where v +- K
#           are exact (v >= 2^-25: a binary32 v there has ulp >= 2^-48 and v + K < 32), 4 (2)
#           below; the product F r 1, e^(-x^2/2) 4 (exp_d), the product g (F r) 1;
#   x > 0:  (that) erfc(v/sqrt2) / (2 - erfc(v/sqrt2)) + 1 (the subtraction 2 - e).
# A, H and G are sampled, not proved: the bound the code uses doubles them.
import math

import mpmath as mp

N, K = 20, 4
V_MAX = 16
V_EXACT = mp.mpf(2) ** -25  # v +- K exact from here up
GRID = 6000  # intervals per sweep (one uniform in y, one uniform in v)


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
    """Horner's scheme over cs (ascending) in w, as gelu_simd.cpp's horner_every4()."""
    q = Run(cs[-1])
    for c in reversed(cs[:-1]):
        q = q * w + Run(c)
    return q


def split_eval(cs, t):
    """gelu_simd.cpp's poly_split4: P(t) = (P_0 + t P_1) + t2 (P_2 + t P_3), P_j(w) the
    coefficients cs[j], cs[j+4], ... by Horner in w = t4 = t2 t2, t2 = t t: four short dependency
    chains instead of one long one (the loop is latency-bound)."""
    t = Run(t)
    t2 = t * t
    t4 = t2 * t2
    a = horner(cs[0::4], t4) + horner(cs[1::4], t4) * t
    b = horner(cs[2::4], t4) + horner(cs[3::4], t4) * t
    return a + b * t2


def eval_terms(cs, t):
    """The polynomial at t (exactly) and its rounding factor H(t) = error bound / |P(t)|, in u."""
    r = split_eval(cs, t)
    return r.v, r.e / abs(r.v)


def grid(lo, hi):
    return [lo + (hi - lo) * mp.mpf(i) / GRID for i in range(GRID + 1)]


def Q(v):
    """The scaled erfc of v/sqrt2: e^(v^2/2) erfc(v/sqrt2)."""
    return mp.erfc(v / mp.sqrt(2)) * mp.exp(v * v / 2)


def F(y):
    """The function fitted: Q(v) (v + K) at v = K (1 + y)/(1 - y) (y = (v - K)/(v + K))."""
    v = K * (1 + y) / (1 - y)
    return Q(v) * (v + K)


def hexs(d):
    return float.hex(d).replace("+", "")  # C99 hex float: 0x1.8p-1, 0x1.8p0


def main():
    mp.mp.dps = 40
    u = mp.mpf(2) ** -53
    sqrt2 = mp.sqrt(2)
    ylo, yhi = mp.mpf(-1), mp.mpf(V_MAX - K) / (V_MAX + K)
    cs = [nearest_double(c) for c in cheb_monomial(F, ylo, yhi, N)]
    vs = [K * (1 + y) / (1 - y) for y in grid(ylo, yhi)] + grid(mp.mpf(0), mp.mpf(V_MAX))
    vs += [mp.mpf(2) ** -k for k in range(1, 150)]
    worst = {"A": 0, "H": 0, "G": 0, "neg": 0, "pos": 0, "neg2": 0, "pos2": 0}
    for v in vs:
        y = (v - K) / (v + K)
        q = Q(v)
        p, h = eval_terms(cs, y)
        a = abs(p / F(y) - 1) / u
        # d ln F/dv = d ln Q/dv + 1/(v + K), d ln Q/dv = v - sqrt(2/pi)/Q exactly
        # (Q' = v Q - sqrt(2/pi)); dv/dy = 2K/(1 - y)^2.
        g = abs(y) * abs(v - mp.sqrt(2 / mp.pi) / q + 1 / (v + K)) * 2 * K / (1 - y) ** 2
        n_y, n_r = (2, 1) if v >= V_EXACT else (4, 2)
        e = mp.erfc(v / sqrt2)
        neg = a + h + n_y * g + n_r + 6
        neg2 = 2 * (a + h + n_y * g) + n_r + 6
        for key, val in (("A", a), ("H", h), ("G", g), ("neg", neg), ("pos", neg * e / (2 - e) + 1),
                         ("neg2", neg2), ("pos2", neg2 * e / (2 - e) + 1)):
            worst[key] = max(worst[key], val)

    print(f"// fit_erfc32.py: N = {N}, K = {K}, v in [0, {V_MAX}], {len(vs)} points")
    print("constexpr double kErfcPoly[] = {" + ", ".join(hexs(c) for c in cs) + "};")
    w = {k: mp.nstr(v, 4) for k, v in worst.items()}
    print(f"// max over the grid (u): A {w['A']}, H {w['H']}, G {w['G']}; bound x < 0 {w['neg']}, x > 0 {w['pos']}")
    top = max(worst["neg2"], worst["pos2"]) * mp.mpf("1.01")
    print(f"// A, H, G doubled: x < 0 {w['neg2']}, x > 0 {w['pos2']}; times 1.01: {mp.nstr(top, 4)} u = "
          f"2^{mp.nstr(mp.log(top * u, 2), 4)} (gelu_simd.cpp uses 32 u)")


if __name__ == "__main__":
    main()
