"""A Python subject whose forward computes y = 2x, right by its own definition, then writes 0
into x: gelucheck must report the write and still measure the results (peers_test.cpp).
Usage: python3 writes_input.py ADAPTERS_PYTHON_DIR"""
import sys

sys.path.insert(0, sys.argv[1])
from gelucheck_subject import serve  # noqa: E402


def gelu(x):
    y = 2 * x
    x[:] = 0
    return y


serve({"tanh.forward.f64": gelu}, name="writes_input.py: y = 2x, then x = 0")
