"""A GELU of one's own, checked by gelucheck: the tanh form in float64 with numpy.

    gelucheck check 'cmd:/usr/bin/python3 adapters/python/examples/my_gelu.py'

0.5·x·(1 + tanh(u)), u = √(2/π)·(x + 0.044715·x³), written as x·σ(2u) = x / (1 + e^(-2u)) with
σ the logistic function: the same real function (1 + tanh(u) = 2σ(2u)), without the cancellation
of 1 + tanh(u) for negative x (the textbook formula returns -0 from x ≈ -7 on), and without NaN at
±inf. Not correctly rounded: e^(-2u) multiplies u's rounding error by 2|u|, so in the negative tail
the result can be some hundreds of ulps off, well inside the usual allclose tolerances.
The backward is dy·f'(x), f'(x) = σ(2u) + 2x·u'·σ(2u)·σ(-2u), u' = √(2/π)·(1 + 3·0.044715·x²).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gelucheck_subject import serve  # noqa: E402

SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)
CUBIC = 0.044715


def _sigmoid_2u(x):
    """σ(2u) and σ(-2u), each without cancellation (the larger one is 1/(1 + e^-|2u|))."""
    with np.errstate(over="ignore", invalid="ignore"):
        two_u = 2.0 * SQRT_2_OVER_PI * (x + CUBIC * x * x * x)
        e = np.exp(-np.abs(two_u))  # in (0, 1]: never overflows
        big = 1.0 / (1.0 + e)      # σ(|2u|)
        small = e / (1.0 + e)      # σ(-|2u|)
        pos = two_u >= 0
        return np.where(pos, big, small), np.where(pos, small, big)


def gelu(x):
    s, _ = _sigmoid_2u(x)
    with np.errstate(invalid="ignore"):
        y = x * s
    # x = -inf: -inf·0 is NaN, the limit is 0 (approached from below: -0).
    return np.where(np.isneginf(x), -0.0, y)


def gelu_backward(x, dy):
    s, t = _sigmoid_2u(x)
    with np.errstate(over="ignore", invalid="ignore"):
        du = SQRT_2_OVER_PI * (1.0 + 3.0 * CUBIC * x * x)
        d = s + 2.0 * x * du * s * t
    # Where x·u' overflows (|x| > ~1e154, and at ±inf) s·t is 0 and the product NaN; there the
    # derivative is its limit: 1 for x > 0, -0 for x < 0 (it approaches 0 from below).
    d = np.where(np.isnan(d) & ~np.isnan(x), np.where(x > 0, 1.0, -0.0), d)
    return dy * d


if __name__ == "__main__":
    serve({"tanh.forward.f64": gelu, "tanh.backward.f64": gelu_backward},
          name="my_gelu.py: numpy tanh-form GELU, x/(1+exp(-2u)), float64")
