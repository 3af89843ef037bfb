#!/usr/bin/env python3
"""What the npy:DIR subject must answer for a directory, worked out with numpy's own reader
(np.load), independently of subjects/src/npy*.cpp: used by tests/subjects/npy_subject_test.cpp.

    npy_crosscheck.py DIR STEP

For each op in DIR (sets FORM.DT[.TAG].{x,y,dy,dx}.npy, untagged set first, then by tag), prints
    op OP DISTINCT INCONSISTENT
(inputs -- (x, dy) pairs for a backward -- counted once, and how many of them were saved with
outputs of different bits, NaNs equal), then for every STEP-th distinct input, in the order first
saved:
    at OP X DY OUT
with X, DY (0 for a forward) and the first output saved for it as integer encodings.
"""
import collections
import os
import sys

import numpy as np

WIDTH = {"f64": np.uint64, "f32": np.uint32, "bf16": np.uint16, "f16": np.uint16}
FLOAT = {"f64": np.float64, "f32": np.float32, "f16": np.float16}


def encodings(path, dt):
    a = np.load(path).ravel(order="C")  # C order, whatever order the file is stored in
    if a.dtype.kind == "u":
        return a.astype(WIDTH[dt])
    return a.astype(a.dtype.newbyteorder("=")).view(WIDTH[dt])


def is_nan(bits, dt):
    if dt == "bf16":
        return ((bits & 0x7F80) == 0x7F80) & ((bits & 0x7F) != 0)
    return np.isnan(bits.view(FLOAT[dt]))


def main():
    dir, step = sys.argv[1], int(sys.argv[2])
    sets = collections.defaultdict(dict)
    for f in os.listdir(dir):
        parts = f.split(".")
        if f.endswith(".npy") and len(parts) in (4, 5):
            sets[(parts[0], parts[1], parts[2] if len(parts) == 5 else "")][parts[-2]] = f
    ops = collections.defaultdict(list)  # op -> [(x, dy, out)] in the order saved
    for (form, dt, tag) in sorted(sets):
        s = sets[(form, dt, tag)]
        x = encodings(os.path.join(dir, s["x"]), dt)
        if "y" in s:
            ops[(form, "forward", dt)].append((x, np.zeros_like(x),
                                               encodings(os.path.join(dir, s["y"]), dt)))
        if "dy" in s:
            ops[(form, "backward", dt)].append((x, encodings(os.path.join(dir, s["dy"]), dt),
                                                encodings(os.path.join(dir, s["dx"]), dt)))
    for op in sorted(ops):
        dt = op[2]
        x, dy, out = (np.concatenate([p[k] for p in ops[op]]) for k in range(3))
        pairs = np.stack([x.astype(np.uint64), dy.astype(np.uint64)], axis=1)
        _, first, inverse = np.unique(pairs, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        first_out = out[first][inverse]
        differs = (first_out != out) & ~(is_nan(first_out, dt) & is_nan(out, dt))
        inconsistent = len(np.unique(inverse[differs]))
        name = "%s.%s.%s" % op
        print("op %s %d %d" % (name, len(first), inconsistent))
        order = np.sort(first)  # distinct inputs in the order first saved
        for i in order[::step]:
            print("at %s %d %d %d" % (name, x[i], dy[i], out[i]))


if __name__ == "__main__":
    main()
