"""PyTorch's GELU as a gelucheck subject: torch.nn.functional.gelu and its autograd backward.

    gelucheck check 'cmd:/usr/bin/python3 adapters/python/torch_subject.py --layout batch'

Serves tanh.* (approximate='tanh') and erf.* (approximate='none'), forward and backward, in
float64, float32 and bfloat16 on the CPU; float16 only where this torch has a CPU GELU kernel
for it (torch 1.13 has none: the name in the handshake says so). The backward is autograd's:
torch.autograd.grad(gelu(x), x, grad_outputs=dy).

PyTorch picks different kernels by length, contiguity and thread count, and the bits an element
gets can differ between them; --layout says which the suite sees, and the handshake's name
records it (with the thread count) so that a report says which kernel it measured:
  batch    the whole batch as one contiguous tensor (a strided one when gelucheck asks for a
           stride: the subject declares strided)
  element  one element per call, as a tensor of length 1
  strided  the batch as a view of stride K (gelucheck's stride, else --stride) into a larger
           buffer, so the non-contiguous kernel runs
--threads N calls torch.set_num_threads(N) first.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gelucheck_subject import serve  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TORCH_DTYPES = {"f64": torch.float64, "f32": torch.float32, "bf16": torch.bfloat16,
                "f16": torch.float16}
APPROXIMATE = {"tanh": "tanh", "erf": "none"}


def to_tensor(a, dt):
    """A leaf tensor sharing a's memory and strides (bf16: the uint16 bit patterns reinterpreted)."""
    if dt == "bf16":
        t = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    else:
        t = torch.from_numpy(a)
    return t.detach()


def to_numpy(t, dt):
    t = t.detach().contiguous()
    if dt == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16).copy()
    return t.numpy().copy()


def strided_copy(t, k):
    """A view of stride k into a fresh buffer, holding t's values."""
    base = torch.zeros(t.numel() * k, dtype=t.dtype)
    view = base[::k]
    view.copy_(t)
    return view


def evaluate(form, backward, x, dy):
    """gelu(x) or its VJP with dy, on tensors laid out as given."""
    if not backward:
        with torch.no_grad():
            return F.gelu(x, approximate=APPROXIMATE[form])
    x = x.detach().requires_grad_(True)
    y = F.gelu(x, approximate=APPROXIMATE[form])
    (dx,) = torch.autograd.grad(y, x, grad_outputs=dy)
    return dx


def make_op(form, backward, dt, layout, stride):
    def run(x, dy=None):
        tx = to_tensor(x, dt)
        tdy = None if dy is None else to_tensor(dy, dt)
        if layout == "element":
            out = [evaluate(form, backward, tx[i:i + 1].clone(),
                            None if tdy is None else tdy[i:i + 1].clone())
                   for i in range(tx.numel())]
            r = torch.cat(out) if out else torch.empty(0, dtype=tx.dtype)
        else:
            if layout == "strided" and tx.is_contiguous():
                tx = strided_copy(tx, stride)
                tdy = None if tdy is None else strided_copy(tdy, stride)
            r = evaluate(form, backward, tx, tdy)
        return to_numpy(r, dt)

    if backward:
        return lambda x, dy: run(x, dy)
    return lambda x: run(x)


def has_cpu_kernel(dt):
    """Whether F.gelu runs on a CPU tensor of this dtype (torch 1.13 has no float16 kernel)."""
    try:
        F.gelu(torch.ones(2, dtype=TORCH_DTYPES[dt]))
        return True, ""
    except RuntimeError as e:
        return False, str(e).strip()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--layout", choices=["batch", "element", "strided"], default="batch")
    p.add_argument("--threads", type=int, default=0, help="torch.set_num_threads(N) (0: leave it)")
    p.add_argument("--stride", type=int, default=3,
                   help="stride of the strided layout when gelucheck asks for none (default 3)")
    a = p.parse_args()
    if a.stride < 2:
        p.error("--stride must be at least 2")
    if a.threads > 0:
        torch.set_num_threads(a.threads)

    ops, missing = {}, []
    for dt in ("f64", "f32", "bf16", "f16"):
        ok, why = has_cpu_kernel(dt)
        if not ok:
            missing.append("%s not provided (no CPU kernel in torch %s: %s)" % (dt, torch.__version__, why))
            continue
        for form in ("tanh", "erf"):
            for backward in (False, True):
                op = "%s.%s.%s" % (form, "backward" if backward else "forward", dt)
                ops[op] = make_op(form, backward, dt, a.layout, a.stride)

    layout = {"batch": "batch (one contiguous tensor)",
              "element": "element (one length-1 tensor per element)",
              "strided": "strided (a view of stride %d, or gelucheck's stride)" % a.stride}[a.layout]
    name = "torch %s F.gelu, autograd backward; layout %s; threads %d" % (
        torch.__version__, layout, torch.get_num_threads())
    if missing:
        name += "; " + "; ".join(missing)
    serve(ops, name=name, strided=a.layout != "element")


if __name__ == "__main__":
    main()
