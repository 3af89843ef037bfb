"""gelucheck_subject — a GELU written in Python, checked by gelucheck.

Turns Python functions on numpy arrays into a program that speaks gelucheck's subject protocol
(gelucheck-subject/1, docs/subjects.md "The protocol") on stdin/stdout, so that

    gelucheck check 'cmd:/usr/bin/python3 my_gelu.py'

checks them. numpy is the only dependency beyond the standard library.

    import numpy as np
    from gelucheck_subject import serve

    def gelu(x):                      # x: a float64 array; return a float64 array like it
        ...

    serve({"tanh.forward.f64": gelu}, name="my gelu 0.1")

Ops are named FORM.DIRECTION.DT: FORM tanh | erf, DIRECTION forward (f(x) -> y) | backward
(f(x, dy) -> dx = dy * gelu'(x)), DT f64 | f32 | f16 | bf16. The arrays a function gets and must
return have the dtype of DT: float64, float32, float16, and for bf16 uint16 bit patterns (numpy has
no bfloat16; bf16_bits_to_f32 and f32_to_bf16_bits convert). A function that raises is reported as
a failure of that call (the message of the exception), one that writes into its arguments as
"wrote_input" (with its results, when it returned valid ones: they are measured all the same);
neither ends the server, but gelucheck restarts it before the next call.

print() inside the functions is safe: while serve() runs, sys.stdout goes to stderr, which
gelucheck keeps in a log and quotes when something goes wrong.
"""

import os
import re
import sys
import traceback

import numpy as np

PROTOCOL = "gelucheck-subject/1"

# Element types on the wire (little-endian), by the protocol's dtype names.
DTYPES = {
    "f64": np.dtype("<f8"),
    "f32": np.dtype("<f4"),
    "f16": np.dtype("<f2"),
    "bf16": np.dtype("<u2"),  # bfloat16 bit patterns
}
_OP = re.compile(r"^(tanh|erf)\.(forward|backward)\.(f64|f32|f16|bf16)$")
_MAX_ELEMENTS = 1 << 28  # the protocol's limit per request


def bf16_bits_to_f32(bits):
    """bfloat16 bit patterns (uint16) -> float32 values (exact: bfloat16 is binary32's top half)."""
    b = np.asarray(bits, dtype=np.uint16)
    return (b.astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16_bits(x):
    """float32 values -> bfloat16 bit patterns (uint16), rounded to nearest, ties to even.

    Overflow gives +-inf, subnormals round like any other value, the sign of zero is kept, and a
    NaN stays a NaN (made quiet: the top bit of the fraction set) with its sign.
    """
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    # Adding 0x7fff plus the lowest kept bit, then truncating, rounds to nearest with ties to
    # even; no non-NaN pattern overflows 32 bits (the largest, -inf, is 0xff800000).
    rounded = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) >> np.uint32(16)
    out = rounded.astype(np.uint16)
    nan = np.isnan(u.view(np.float32))
    out[nan] = ((u[nan] >> np.uint32(16)) | np.uint32(0x0040)).astype(np.uint16)
    return out


def _one_line(text, limit=1000):
    s = "".join(c if c >= " " and c != "\x7f" else "\\x%02x" % ord(c) for c in str(text))
    s = s.replace("\\x0a", "\\n").replace("\\x09", "\\t")
    return s if len(s) <= limit else s[:limit] + "... (%d chars)" % len(s)


def _take_stdio():
    """The protocol keeps the real stdin/stdout; fd 0 becomes /dev/null and fd 1 stderr."""
    sys.stdout.flush()
    wire_in = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


def _handshake(name, ops, strided):
    import json

    return json.dumps({"protocol": PROTOCOL, "name": name, "provides": sorted(ops),
                       "strided": bool(strided)}, ensure_ascii=True)


def _parse_request(line):
    """(op, n, stride) for a request line, "quit", or raises ValueError."""
    if line == "quit":
        return "quit"
    f = line.split(" ")
    if len(f) not in (4, 5) or f[0] not in ("forward", "backward"):
        raise ValueError("not a request: %r" % line)
    op = "%s.%s.%s" % (f[1], f[0], f[2])
    if not _OP.match(op) or not all(re.fullmatch(r"0|[1-9][0-9]*", v) for v in f[3:]):
        raise ValueError("not a request: %r" % line)
    n = int(f[3])
    stride = int(f[4]) if len(f) == 5 else 1
    if n > _MAX_ELEMENTS or not 1 <= stride <= _MAX_ELEMENTS:
        raise ValueError("out of range: %r" % line)
    return op, n, stride


def _laid_out(a, stride):
    """a, or a view of stride `stride` into a fresh buffer holding a's elements."""
    if stride == 1:
        return a
    base = np.zeros(len(a) * stride, dtype=a.dtype)
    view = base[::stride]
    view[...] = a
    return view


def _evaluate(fn, op, x, dy, stride):
    """Calls fn; returns ("ok", bytes) | ("error", message) | ("wrote_input", message) |
    ("ok_wrote_input", (bytes, message)): a write into x or dy, with results of the right dtype
    and shape, which gelucheck measures all the same."""
    dt = x.dtype
    args = [_laid_out(x, stride)] + ([] if dy is None else [_laid_out(dy, stride)])
    before = [a.tobytes() for a in args]
    try:
        r = fn(*args)
    except Exception as e:  # the subject's own failure: reported, not fatal
        traceback.print_exc(file=sys.stderr)
        return "error", "%s: %s" % (type(e).__name__, e)
    wrote = None
    for name, a, b in zip(("x", "dy"), args, before):
        if a.tobytes() != b and wrote is None:
            changed = np.nonzero(np.frombuffer(a.tobytes(), dtype=dt) != np.frombuffer(b, dtype=dt))[0]
            where = int(changed[0]) if len(changed) else 0
            wrote = "%s changed %s[%d]" % (op, name, where)
    r = np.asarray(r)
    if wrote is not None:
        if r.dtype != dt or r.shape != (len(x),):
            return "wrote_input", wrote  # no usable results: the bare answer
        return "ok_wrote_input", (np.ascontiguousarray(r, dtype=dt).tobytes(), wrote)
    if r.dtype != dt:
        return "error", "%s returned dtype %s, not %s%s" % (
            op, r.dtype, dt.name, " (bfloat16 bit patterns: use f32_to_bf16_bits)" if op.endswith("bf16") else "")
    if r.shape != (len(x),):
        return "error", "%s returned shape %s for %d elements" % (op, r.shape, len(x))
    return "ok", np.ascontiguousarray(r, dtype=dt).tobytes()


def serve(ops, name="python", strided=False):
    """Serves `ops` (op name -> function) until gelucheck sends "quit" or closes stdin.

    name:    one line recorded in gelucheck's reports: say what is measured (library, version,
             settings).
    strided: True if a request with STRIDE > 1 should be honoured; the function then gets
             non-contiguous views (every STRIDE-th element of a larger buffer).
    """
    for op, fn in ops.items():
        if not _OP.match(op):
            raise ValueError("not an op name: %r (FORM.DIRECTION.DT, e.g. tanh.forward.f64)" % op)
        if not callable(fn):
            raise ValueError("ops[%r] is not callable" % op)
    wire_in, wire_out = _take_stdio()
    wire_out.write((_handshake(name, ops, strided) + "\n").encode("ascii"))
    while True:
        raw = wire_in.readline(1 << 16)
        if not raw:
            return  # EOF: gelucheck is done
        if not raw.endswith(b"\n"):
            sys.exit("gelucheck_subject: request line too long or cut off")
        try:
            req = _parse_request(raw[:-1].decode("ascii"))
        except (ValueError, UnicodeDecodeError) as e:
            sys.exit("gelucheck_subject: %s" % e)  # out of step with gelucheck: nothing to do
        if req == "quit":
            return
        op, n, stride = req
        dt = DTYPES[op.rsplit(".", 1)[1]]
        backward = ".backward." in op
        size = n * dt.itemsize
        payload = wire_in.read(size * (2 if backward else 1))
        if len(payload) != size * (2 if backward else 1):
            sys.exit("gelucheck_subject: end of input inside a request")
        x = np.frombuffer(payload, dtype=dt, count=n).copy()  # writable copies: writes are caught
        dy = np.frombuffer(payload, dtype=dt, count=n, offset=size).copy() if backward else None
        if op not in ops:
            kind, out = "error", "%s is not provided" % op
        elif stride > 1 and not strided:
            kind, out = "error", "this subject does not take strides"
        else:
            kind, out = _evaluate(ops[op], op, x, dy, stride)
        if kind == "ok":
            wire_out.write(b"ok %d\n" % n + out)
        elif kind == "ok_wrote_input":
            data, message = out
            wire_out.write(("ok %d wrote_input %s\n" % (n, _one_line(message))).encode("ascii", "replace") + data)
        else:
            wire_out.write(("%s %s\n" % (kind, _one_line(out))).encode("ascii", "replace"))
