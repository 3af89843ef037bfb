#!/usr/bin/python3
# Fits the polynomial of the binary64 vector erfc (src/gelu_simd.cpp, erfc_dd) and measures the
# terms of its error bound. Run (Debian's python3-mpmath; a few seconds):
#     /usr/bin/python3 src/tools/fit_erfc64.py
# and paste the two coefficient arrays it prints into gelu_simd.cpp (the measured figures it
# prints are quoted there, next to the bound they enter). The binary32 fit (fit_erfc32.py) is the
# same construction in plain double; its helpers are shared.
#
# What is approximated: for a binary64 x, v = min(|x|, 36) and c(x) = erfc(-x/sqrt2) (= 2 Phi(x)):
# erfc(v/sqrt2) = e^(-x^2/2) Q(v), Q(v) = e^(v^2/2) erfc(v/sqrt2), Q = F(y) r with r = 1/(v + K),
# y = (v - K) r in [-1, 4/5], F(y) = Q(v) (v + K) in [0.88, 4], a polynomial of degree N in y.
# The evaluation splits F at degree M:
#   F(y) = sum_{k<M} c_k y^k + y^M T(y),   T(y) = sum_{j<=N-M} c_{M+j} y^j,
# T in plain double at y.hi (gelu_simd.cpp's poly_split4: four short Horner chains), then the
# leading part in double-double with double-double c_k and y, in Estrin's order (three steps
# deep instead of five; estrin_error). The leading
# coefficients are large (|c_0| = 1.5) and |y| reaches 1, so their sums need the second double;
# from c_M on the terms are below 2^-8 of F, and one rounding each is far below the budget.
# The polynomial: Chebyshev interpolation at N+1 nodes in 60 digits, expanded into monomials;
# c_k for k < M rounded to a double-double (hi = RN(c), lo = RN(c - hi)), the rest to doubles.
# At every point of a dense grid (uniform in y and in v, both ends, and v = 2^-k down to 2^-1074),
# in 50 digits, in units of u = 2^-53 and relative to F:
#   A  = the error of the polynomial WITH its rounded coefficients, evaluated exactly;
#   H  = the rounding error bound of T's double evaluation (a running error analysis of exactly
#        poly_split4's operations, fit_erfc32.Run), times |y|^M: what reaches F;
#   Y  = |y^(M+1) T'(y)|: T is taken at y.hi, and |y - y.hi| <= u |y|;
#   G  = |y F'(y)/F(y)|: the relative effect on F of a relative error of 1 u in y;
#   S  = the double-double part's error bound over |F| in units of eps_step, for the evaluation
#        gelu_simd.cpp runs (estrin_error below; gelu_simd.cpp derives eps_step).
# A, H and Y are sampled, not proved: gelu_simd.cpp doubles them.
import sys
import textwrap

import mpmath as mp

from fit_erfc32 import F, K, cheb_monomial, grid, hexs, nearest_double, split_eval

N, M = 26, 5  # K = 4 and the grid's density as in fit_erfc32.py
V_MAX = 36


def estrin_error(c, T, y):
    """The double-double part of gelu_simd.cpp's erfc_dd, F = A + y2 (B + y2 C) with A = c0 + y c1,
    B = c2 + y c3, C = c4 + y T, y2 = y y: a first-order bound of its absolute error in units of
    eps, each step q <- c + y q erring by eps (|c| + |y q|) and y2 by eps |y2|; the inputs' errors
    propagated (T's own error is H, not counted here)."""
    assert M == 5
    y2 = y * y

    def step(q, eq, yy, eyy, cc, ec):  # value and error of cc + yy q
        return cc + yy * q, abs(cc) + abs(yy * q) + ec + abs(yy) * eq + abs(q) * eyy

    A, eA = step(c[1], 0, y, 0, c[0], 0)
    B, eB = step(c[3], 0, y, 0, c[2], 0)
    C, eC = step(T, 0, y, 0, c[4], 0)
    D, eD = step(C, eC, y2, abs(y2), B, eB)
    _, eF = step(D, eD, y2, abs(y2), A, eA)
    return eF


def main():
    mp.mp.dps = 50
    u = mp.mpf(2) ** -53
    ylo, yhi = mp.mpf(-1), mp.mpf(V_MAX - K) / (V_MAX + K)
    exact = cheb_monomial(F, ylo, yhi, N)
    lead = []
    for c in exact[:M]:
        hi = nearest_double(c)
        lead.append((hi, nearest_double(c - mp.mpf(hi))))
    tail = [nearest_double(c) for c in exact[M:]]
    coef = [mp.mpf(h) + mp.mpf(l) for h, l in lead] + [mp.mpf(c) for c in tail]

    vs = [K * (1 + y) / (1 - y) for y in grid(ylo, yhi)] + grid(mp.mpf(0), mp.mpf(V_MAX))
    vs += [mp.mpf(2) ** -k for k in range(1, 1075)]
    worst = {"A": 0, "H": 0, "Y": 0, "S": 0, "G": 0, "F": 0}
    for v in vs:
        y = (v - K) / (v + K)
        f = F(y)
        p = mp.polyval(coef[::-1], y)
        a = abs(p / f - 1) / u
        t = split_eval(tail, y)
        h = t.e * abs(y) ** M / abs(f)
        dt = mp.polyval([j * c for j, c in enumerate(tail)][:0:-1], y)  # T'(y)
        yy = abs(y ** (M + 1) * dt) / abs(f)
        s = estrin_error(coef, t.v, y) / abs(f)
        g = abs(y * mp.diff(F, y) / f)
        for key, val in (("A", a), ("H", h), ("Y", yy), ("S", s), ("G", g)):
            worst[key] = max(worst[key], val)
        worst["F"] = max(worst["F"], 2 * (a + h + yy))

    print(f"// fit_erfc64.py: N = {N}, K = {K}, M = {M}, v in [0, {V_MAX}], {len(vs)} points")
    def array(head, items):
        print(textwrap.fill(head + "{" + ", ".join(items) + "};", width=100, subsequent_indent=" " * 4,
                            break_long_words=False, break_on_hyphens=False))

    array("constexpr k::DoubleDouble kErfcLead[] = ", ("{" + hexs(h) + ", " + hexs(l) + "}" for h, l in lead))
    array("constexpr double kErfcTail[] = ", (hexs(c) for c in tail))
    w = {k: mp.nstr(v, 4) for k, v in worst.items()}
    print(f"// max over the grid (u): A {w['A']}, H {w['H']}, Y {w['Y']}; S {w['S']}, G {w['G']}; "
          f"max of 2 (A + H + Y): {w['F']} u = 2^{mp.nstr(mp.log(worst['F'] * u, 2), 4)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
