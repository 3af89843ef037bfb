# Recomputes the hard points of common/include/gelucheck/facts.hpp (mpmath 1.3, 60 digits): the
# underflow points (binary64 and binary32), the derivative zeros, cbrt of the greatest finite
# value; the gap points are docs/functions.md's, printed as hex. Run: /usr/bin/python3 proptests/tools/hard_points.py
from mpmath import mp, mpf, tanh, erfc, exp, sqrt, pi, findroot, log, diff
mp.dps = 60
c = mpf(44715)/10**6
k = sqrt(2/pi)
def ft(x):
    u = k*(x + c*x**3)
    # 0.5 x (1+tanh u) = x / (1+exp(-2u))
    return x/(1+exp(-2*u))
def fe(x): return x*erfc(-x/sqrt(2))/2
def dt(x):
    u = k*(x + c*x**3); s = 1/(1+exp(-2*u)); sech2 = 4*s*(1-s)
    return s + x/2*sech2*k*(1+3*c*x**2)
def de(x): return erfc(-x/sqrt(2))/2 + x*exp(-x*x/2)/sqrt(2*pi)
half = mpf(2)**-1075
for name,f in [('tanh value',ft),('erf value',fe),('tanh deriv',dt),('erf deriv',de)]:
    g = lambda x: log(-f(x)) - log(half)
    r = findroot(g, mpf(-25) if 'tanh' in name else mpf(-38))
    print(name, mp.nstr(r, 25), float(r).hex(), float(r))
# derivative zeros
for name,f in [('tanh',dt),('erf',de)]:
    r = findroot(f, mpf(-0.75))
    print('deriv zero', name, mp.nstr(r,25), float(r).hex())
# x^3 overflow
import sys
M = mpf(sys.float_info.max)
print('cbrt max', float(M**(mpf(1)/3)).hex(), float(M**(mpf(1)/3)))
for x in [2.6989413863772703, 2.0186557597718367]:
    print(x, float(x).hex())
import struct
def f32(v): return struct.unpack("f", struct.pack("f", v))[0]
half = mpf(2)**-150
for name,f in [('tanh value',ft),('erf value',fe),('tanh deriv',dt),('erf deriv',de)]:
    g = lambda x: log(-f(x)) - log(half)
    r = findroot(g, mpf(-10) if 'tanh' in name else mpf(-14))
    print('f32', name, mp.nstr(r, 25), f32(float(r)).hex(), f32(float(r)))
M = mpf(2)**128*(1-mpf(2)**-24)
print('f32 cbrt max', f32(float(M**(mpf(1)/3))).hex())
