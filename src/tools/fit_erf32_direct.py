#!/usr/bin/python3
# Writes src/include/gelucheck/erf32_tables.hpp: the tables of the binary32 erf form's direct pass
# (src/gelu_simd.cpp, erf32_direct). Run (Debian's python3-mpmath; a few seconds):
#     /usr/bin/python3 src/tools/fit_erf32_direct.py > src/include/gelucheck/erf32_tables.hpp
# The file it writes says so in its first lines and carries, as comments, the figures measured
# here (each interval's approximation error).
#
# What is approximated, for v = |x| (x a binary32 value) in [0, 13.05]: v lies in interval k =
# RN(v * 19/16), k = 0..15 (intervals of width 16/19 centred on k * 16/19, the first one halved),
# and t = v - c[k] with c[k] a double near the centre.
#   value:      Q(v) = Phi(-v) = erfc(v/sqrt2)/2 = exp(A(v)), A = log Q, A(c[k] + t) ~ a polynomial of
#               degree 7 in t; then f(x) = max(x, 0) - v Q(v) (x Phi(x) on both sides).
#   derivative: D(v) = Phi(-v) - v phi(v), which vanishes at v0 = -x0 = 0.75179... (x0 the
#               derivative's zero), written D(v) = (v0 - v) exp(B(v)), B = log(D(v)/(v0 - v)) (a
#               smooth function: the zero is factored out), B(c[k] + t) ~ a polynomial of degree 7
#               in t; the interval holding v0 is centred on c[1] = RN(v0) so that t = v - c[1] is
#               exact and v0 - v = z[1] - t with z[1] = RN(v0 - c[1]); elsewhere z[k] = RN(v0 -
#               c[k]). Then f'(x) = D(v) for x < 0 and 1 - D(v) for x >= 0.
#   exp:        e^a for a in [-90, 0]: k = RN(a 16/ln2), r = a - k ln2/16, e^a = 2^(k/16) e^r, the
#               16 values 2^(j/16) in a table and e^r a polynomial of degree 4 on |r| <= ln2/32.
# Each polynomial: Chebyshev interpolation in 60 digits, expanded into monomials in t, each
# coefficient rounded to the nearest double. Measured here, in 50 digits, at 1,025 points of each
# interval (both ends included): the absolute error of the polynomial with its double coefficients,
# evaluated exactly (for A and B an absolute error is a relative error of exp(A), exp(B)), and the
# relative error of the exp polynomial on its range. These are approximation errors only: the
# rounding errors of the evaluation and the rest are not modelled — the pass's correct rounding is
# proved by exhaustion instead (tests/library/erf32_exhaustive_test.cpp), and tests/library
# (Erf32DirectTablesMatchTheReference) recomputes every entry of these tables with MPFR.
import struct

import mpmath as mp

from fit_erfc32 import cheb_monomial, nearest_double  # the same interpolation, the same rounding

DEG = 7            # degree of A's and B's polynomials
EXP_DEG = 4        # degree of e^r's polynomial
SIGMA = mp.mpf(19) / 16
INTERVALS = 16
POINTS = 1024      # grid intervals per fit interval


def rn(x):
    """x rounded to the nearest double, as an mpf."""
    return mp.mpf(nearest_double(x))


def poly(c, t):
    return mp.fsum(ci * t ** i for i, ci in enumerate(c))


def hexd(x):
    return float(x).hex()


mp.mp.dps = 50
SQ2PI = mp.sqrt(2 * mp.pi)


def Q(v):
    return mp.erfc(v / mp.sqrt(2)) / 2


def A(v):
    return mp.log(Q(v))


def D(v):
    return Q(v) - v * mp.exp(-v * v / 2) / SQ2PI


V0 = mp.findroot(D, mp.mpf('0.7518'))
DV0 = mp.diff(D, V0)


def B(v):
    if abs(v - V0) < mp.mpf(10) ** -30:
        return mp.log(-DV0)
    return mp.log(D(v) / (V0 - v))


def fit(fn, centres):
    rows, errs = [], []
    for k in range(INTERVALS):
        lo = max(mp.mpf(0), (k - mp.mpf(1) / 2) / SIGMA)
        hi = (k + mp.mpf(1) / 2) / SIGMA
        c = centres[k]
        co = [rn(x) for x in cheb_monomial(lambda t: fn(c + t), lo - c, hi - c, DEG)]
        err = max(abs(poly(co, lo - c + (hi - lo) * i / POINTS) - fn(lo + (hi - lo) * i / POINTS))
                  for i in range(POINTS + 1))
        rows.append(co)
        errs.append(err)
    return rows, errs


def wrap(items, indent, per=4):
    """items joined by ', ', per to a line, the lines after the first indented."""
    lines = [', '.join(items[i:i + per]) for i in range(0, len(items), per)]
    return (',\n' + ' ' * indent).join(lines)


def emit_table(name, rows):
    out = ['inline constexpr double %s[%d][%d] = {' % (name, DEG + 1, INTERVALS)]
    for i in range(DEG + 1):
        out.append('    {%s},' % wrap([hexd(rows[k][i]) for k in range(INTERVALS)], 5))
    out.append('};')
    return out


def log2s(e):
    return '%.1f' % float(mp.log(e, 2))


def main():
    centres = [rn(k / SIGMA) for k in range(INTERVALS)]
    dcentres = list(centres)
    dcentres[1] = rn(V0)
    zs = [rn(V0 - c) for c in dcentres]
    arows, aerr = fit(A, centres)
    brows, berr = fit(B, dcentres)
    R = mp.log(2) / 32 * mp.mpf('1.0001')
    ep = [rn(x) for x in cheb_monomial(mp.exp, -R, R, EXP_DEG)]
    eerr = max(abs(poly(ep, -R + 2 * R * i / POINTS) / mp.exp(-R + 2 * R * i / POINTS) - 1) for i in range(POINTS + 1))
    bits = []
    for j in range(16):
        b = struct.unpack('<Q', struct.pack('<d', float(mp.power(2, mp.mpf(j) / 16))))[0] - (j << 48)
        bits.append('0x%016xull' % b)
    out = [
        '// gelucheck/erf32_tables.hpp — the tables of the binary32 erf form\'s direct pass',
        '// (src/gelu_simd.cpp, erf32_direct). GENERATED; do not edit by hand:',
        '//   /usr/bin/python3 src/tools/fit_erf32_direct.py > src/include/gelucheck/erf32_tables.hpp',
        '// (what each table approximates and how: the script\'s header). Approximation errors measured by',
        '// the script at %d points of each interval (absolute, in A = log Q and B = log(D/(v0 - v)),' % (POINTS + 1),
        '// hence relative in Q and D), by interval k = 0..15, as log2:',
        '//   value      %s' % ' '.join(log2s(e) for e in aerr[:8]),
        '//              %s' % ' '.join(log2s(e) for e in aerr[8:]),
        '//   derivative %s' % ' '.join(log2s(e) for e in berr[:8]),
        '//              %s' % ' '.join(log2s(e) for e in berr[8:]),
        '//   exp polynomial (relative, |r| <= ln2/32): %s' % log2s(eerr),
        '#pragma once',
        '',
        'namespace gelucheck::detail::erf32 {',
        '',
        '// Interval k = RN(v * kSigma) (v = |x|), k = 0..15: covers v <= 15.5 / kSigma = 13.05.',
        'inline constexpr double kSigma = %s;' % hexd(SIGMA),
        '// The derivative\'s zero v0 = -x0 (%s): kV0Hi = RN(v0).' % mp.nstr(V0, 25),
        'inline constexpr double kV0Hi = %s;' % hexd(rn(V0)),
        '// value: t = v - kValueC[k], log Q(v) ~ sum_i kValueP[i][k] t^i.',
        'inline constexpr double kValueC[%d] = {%s};' % (INTERVALS, wrap([hexd(c) for c in centres], 4)),
    ]
    out += emit_table('kValueP', arows)
    out += [
        '// derivative: t = v - kDerivC[k] (kDerivC[1] = kV0Hi), log(D(v)/(v0 - v)) ~ sum_i kDerivP[i][k] t^i,',
        '// v0 - v ~ kDerivZ[k] - t (kDerivZ[k] = RN(v0 - kDerivC[k])).',
        'inline constexpr double kDerivC[%d] = {%s};' % (INTERVALS, wrap([hexd(c) for c in dcentres], 4)),
        'inline constexpr double kDerivZ[%d] = {%s};' % (INTERVALS, wrap([hexd(z) for z in zs], 4)),
    ]
    out += emit_table('kDerivP', brows)
    out += [
        '// exp: 2^(j/16) rounded to nearest, its bit pattern minus j << 48 (adding k << 48, k = 16m + j,',
        '// gives 2^m RN(2^(j/16)) exactly), and e^r ~ sum_i kExpP[i] r^i on |r| <= ln2/32.',
        'inline constexpr unsigned long long kExpBits[16] = {%s};' % wrap(bits, 4),
        'inline constexpr double kExpP[%d] = {%s};' % (EXP_DEG + 1, wrap([hexd(x) for x in ep], 4)),
        '',
        '}  // namespace gelucheck::detail::erf32',
    ]
    print('\n'.join(out))


if __name__ == '__main__':
    main()
