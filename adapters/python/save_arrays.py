#!/usr/bin/env python3
"""Save a GELU's inputs and outputs as gelucheck's `npy:DIR` subject reads them.

The layout (docs/subjects.md, "Saved arrays"): for each form (tanh, erf) and format (f64, f32,
bf16, f16) a set of files FORM.DT[.TAG].ROLE.npy of equal shape, ROLE x (inputs) with y (forward
outputs) and/or dy and dx (backward: dx = dy * f'(x)). bfloat16 is saved as uint16 bit patterns.

    import numpy as np, save_arrays
    x = np.linspace(-5, 5, 1001, dtype=np.float32)
    save_arrays.save("arrays", "tanh", "f32", x, y=my_gelu(x))
    save_arrays.save("arrays", "tanh", "f32", x, dy=np.ones_like(x), dx=my_gelu_grad(x))

and then `gelucheck check npy:arrays`. numpy is needed; torch tensors are accepted (converted
without rounding: a bfloat16 tensor becomes its bit patterns) when torch is installed.

Run as a script, `--torch DIR` saves PyTorch's own torch.nn.functional.gelu (both forms, forward
and autograd backward, float64, float32 and bfloat16 -- float16 too where this torch has a CPU
kernel for it) on a spread of inputs, bfloat16 on all 65536 of them:

    /usr/bin/python3 adapters/python/save_arrays.py --torch arrays
"""
import argparse
import os
import re
import sys

import numpy as np

FORMS = ("tanh", "erf")
DTYPES = ("f64", "f32", "bf16", "f16")
_TAG = re.compile(r"^[A-Za-z0-9_-]+$")


def _is_torch_tensor(a):
    return type(a).__module__.startswith("torch") and hasattr(a, "detach")


def _bf16_bits_of_float32(a):
    """Exact float32 -> bfloat16 bit patterns; refuses a value that is not a bfloat16 value."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    inexact = ((bits & 0xFFFF) != 0) & ~np.isnan(a)
    if inexact.any():
        k = int(np.flatnonzero(inexact.ravel())[0])
        raise ValueError("element %d (%r) is not a bfloat16 value: save the bfloat16 tensor "
                         "itself, or its bit patterns" % (k, float(np.ravel(a)[k])))
    out = (bits >> 16).astype(np.uint16)
    # A NaN whose payload sat in the low half only would become infinity: keep it a NaN.
    nan = np.isnan(a) & ((out & 0x7F) == 0)
    out[nan] |= 0x40
    return out


def as_saved_array(a, dt):
    """The numpy array saved for values `a` of format `dt` (f64, f32, bf16, f16).

    Accepts numpy arrays (and anything np.asarray takes) and torch tensors. Nothing is rounded:
    a value of the wrong type is refused, since the file must hold the subject's own results.
    f64: float64. f32: float32. bf16: uint16 bit patterns, a torch.bfloat16 tensor, or float32
    holding bfloat16 values exactly. f16: float16, or uint16 bit patterns.
    """
    if dt not in DTYPES:
        raise ValueError("dt must be one of %s, not %r" % (", ".join(DTYPES), dt))
    if _is_torch_tensor(a):
        import torch  # only reached when the caller already uses torch

        t = a.detach().cpu().contiguous()
        if t.dtype == torch.bfloat16:
            if dt != "bf16":
                raise TypeError("a torch.bfloat16 tensor cannot be saved as %s" % dt)
            return t.view(torch.int16).numpy().view(np.uint16)
        a = t.numpy()
    a = np.asarray(a)
    want = {"f64": (np.float64,), "f32": (np.float32,), "bf16": (np.uint16, np.float32),
            "f16": (np.float16, np.uint16)}[dt]
    if a.dtype.type not in want:
        raise TypeError("%s values must be saved as %s, not %s (convert nothing: save the "
                        "subject's own results)" % (dt, " or ".join(w.__name__ for w in want),
                                                     a.dtype))
    if dt == "bf16" and a.dtype.type is np.float32:
        return _bf16_bits_of_float32(a)
    return a


def file_name(form, dt, role, tag=None):
    """FORM.DT[.TAG].ROLE.npy"""
    return ".".join([form, dt] + ([tag] if tag else []) + [role, "npy"])


def save(dir, form, dt, x, y=None, dy=None, dx=None, tag=None):
    """Writes x with y (forward) and/or dy and dx (backward) into dir; returns the paths written.

    form: "tanh" or "erf"; dt: "f64", "f32", "bf16" or "f16"; every array of the same shape.
    tag (letters, digits, '_' and '-') keeps several sets of one form and format apart -- other
    runs, lengths, thread counts: gelucheck reads them all, and reports an input saved twice with
    different outputs. Existing files of the same name are replaced.
    """
    if form not in FORMS:
        raise ValueError("form must be one of %s, not %r" % (", ".join(FORMS), form))
    if tag is not None and not _TAG.match(tag):
        raise ValueError("tag %r: letters, digits, '_' and '-' only" % (tag,))
    if y is None and dy is None and dx is None:
        raise ValueError("nothing to save: give y (forward) or dy and dx (backward)")
    if (dy is None) != (dx is None):
        raise ValueError("a backward needs both dy and dx")
    arrays = {"x": as_saved_array(x, dt)}
    for role, a in (("y", y), ("dy", dy), ("dx", dx)):
        if a is not None:
            arrays[role] = as_saved_array(a, dt)
            if arrays[role].shape != arrays["x"].shape:
                raise ValueError("%s has shape %s, x has %s: they must correspond element by "
                                 "element" % (role, arrays[role].shape, arrays["x"].shape))
    os.makedirs(dir, exist_ok=True)
    paths = []
    for role, a in arrays.items():
        path = os.path.join(dir, file_name(form, dt, role, tag))
        np.save(path, a)
        paths.append(path)
    return paths


def spread_inputs():
    """binary64 inputs over every region a GELU gets wrong: specials, the extremes of both formats,
    the minimum, the tanh-erf gap's peak, the negative tail (where x*Phi(x) underflows), a fine
    grid of [-10, 10] and random normals; the same list rounded serves float32."""
    rng = np.random.default_rng(20261201)
    parts = [
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5],
        [5e-324, -5e-324, 2.0**-1022, -(2.0**-1022), 2.0**-149, -(2.0**-149), 2.0**-126],
        [np.finfo(np.float64).max, -np.finfo(np.float64).max,
         float(np.finfo(np.float32).max), -float(np.finfo(np.float32).max)],
        [-0.75246142207101626, -0.75179152469356446, 2.6989413863772703, -2.6989413863772703,
         2.0186557597718367, -2.0186557597718367, -38.580140223782359],
        np.linspace(-10.0, 10.0, 4001),
        -np.linspace(5.0, 45.0, 801),
        np.concatenate([10.0 ** np.linspace(-45, 38, 700), -(10.0 ** np.linspace(-45, 38, 700))]),
        -(10.0 ** np.linspace(38, 308, 100)),
        10.0 ** np.linspace(38, 308, 100),
        rng.standard_normal(5000) * 3,
    ]
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])


def _rounded_to_float32(a):
    with np.errstate(over="ignore"):  # beyond float32's range: infinity, as intended
        return a.astype(np.float32)


def save_torch(dir):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(1)
    spread = spread_inputs()
    every16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    inputs = {
        "f64": torch.from_numpy(spread.copy()),
        "f32": torch.from_numpy(_rounded_to_float32(spread)),
        "bf16": torch.from_numpy(every16.view(np.int16)).view(torch.bfloat16),
        "f16": torch.from_numpy(every16.view(np.float16).copy()),
    }
    saved, skipped = [], []
    for dt, x in inputs.items():
        for form, approximate in (("tanh", "tanh"), ("erf", "none")):
            try:
                # Forward and the derivative (backward with dy = 1) from one autograd graph, and a
                # backward with random dy (tag "vjp"); x is one contiguous tensor each time.
                xg = x.clone().requires_grad_(True)
                y = F.gelu(xg, approximate=approximate)
                y.backward(torch.ones_like(y))
                save(dir, form, dt, x, y=y, dy=torch.ones_like(x), dx=xg.grad)
                dy = torch.randn(x.shape, dtype=torch.float64).to(x.dtype)
                xg = x.clone().requires_grad_(True)
                F.gelu(xg, approximate=approximate).backward(dy)
                save(dir, form, dt, x, dy=dy, dx=xg.grad, tag="vjp")
                saved.append("%s.%s" % (form, dt))
            except RuntimeError as e:  # e.g. no CPU kernel for this dtype
                skipped.append("%s.%s (%s)" % (form, dt, str(e).splitlines()[0]))
    threads = torch.get_num_threads()
    about = ("torch %s torch.nn.functional.gelu, one contiguous tensor per call, %d thread%s"
             % (torch.__version__, threads, "" if threads == 1 else "s"))
    if skipped:
        about += "; not saved: " + ", ".join(skipped)
    with open(os.path.join(dir, "subject.txt"), "w") as f:
        f.write(about + "\n")
    return saved, skipped


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--torch", metavar="DIR", required=True,
                   help="save PyTorch's own GELU outputs into DIR")
    args = p.parse_args(argv)
    saved, skipped = save_torch(args.torch)
    print("saved %s into %s" % (", ".join(saved), args.torch))
    for s in skipped:
        print("not saved: " + s, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
