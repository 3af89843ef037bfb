#!/usr/bin/env python3
"""Writes the .npy fixtures of tests/subjects/npy_test.cpp (tests/subjects/data/) and the starting
corpus of the fuzz target fuzz/npy_fuzz.cpp (fuzz/corpus/npy/), with numpy's own writer.

Run from the repository root with a Python that has numpy (Debian: python3-numpy):
    /usr/bin/python3 tests/subjects/data/make_fixtures.py
The output is deterministic; rerunning it must leave `git status` clean.
"""
import io
import os
import struct

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DATA = os.path.join(ROOT, "tests", "subjects", "data")
CORPUS = os.path.join(ROOT, "fuzz", "corpus", "npy")

# The same eight values in every float type (the test spells their encodings out by hand):
# 1, -0.5, the least subnormal, minus the greatest finite, +inf, NaN, -0, 0.1 rounded.
F64 = np.array([1.0, -0.5, 2.0**-1074, -np.finfo(np.float64).max, np.inf, np.nan, -0.0, 0.1],
               dtype=np.float64)
F32 = np.array([1.0, -0.5, 2.0**-149, -np.finfo(np.float32).max, np.inf, np.nan, -0.0, 0.1],
               dtype=np.float32)
F16 = np.array([1.0, -0.5, 2.0**-24, -65504.0, np.inf, np.nan, -0.0, 0.1], dtype=np.float16)
# Bit patterns (bfloat16's 1, -0, least, NaN, least subnormal; then all ones and two more).
U2 = np.array([0x3f80, 0x8000, 0xff7f, 0x7fc0, 0x0001, 0xffff, 0x1234, 0x0000], dtype=np.uint16)


def npy_bytes(a, version=None):
    f = io.BytesIO()
    if version is None:
        np.save(f, a)
    else:
        np.lib.format.write_array(f, a, version=version)
    return f.getvalue()


def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(CORPUS, exist_ok=True)
    valid = {
        "f8_le.npy": npy_bytes(F64),
        "f8_be.npy": npy_bytes(F64.astype(">f8")),
        "f4_le.npy": npy_bytes(F32),
        "f4_be.npy": npy_bytes(F32.astype(">f4")),
        "f2_le.npy": npy_bytes(F16),
        "f2_be.npy": npy_bytes(F16.astype(">f2")),
        "u2_le.npy": npy_bytes(U2),
        "u2_be.npy": npy_bytes(U2.astype(">u2")),
        "f8_v2.npy": npy_bytes(F64, version=(2, 0)),
        "f8_v3.npy": npy_bytes(F64, version=(3, 0)),
        # C order of both is 0, 1, 2, ...: numpy stores them column-major (fortran_order True).
        "f8_fortran_2x3.npy": npy_bytes(np.asfortranarray(np.arange(6.0).reshape(2, 3))),
        "f4_fortran_2x3x4_be.npy": npy_bytes(
            np.asfortranarray(np.arange(24, dtype=">f4").reshape(2, 3, 4))),
        "f8_c_2x3.npy": npy_bytes(np.arange(6.0).reshape(2, 3)),
        "f8_scalar.npy": npy_bytes(np.array(3.5)),           # shape (), one element
        "f8_empty_2x0.npy": npy_bytes(np.zeros((2, 0))),     # no elements
    }
    for name, data in valid.items():
        write(DATA, name, data)
    # The fuzzer's starting corpus: a few valid files, and broken ones each one step from valid.
    good = valid["f8_le.npy"]
    header_len = struct.unpack("<H", good[8:10])[0]
    header = good[10:10 + header_len]
    body = good[10 + header_len:]

    def with_header(text):
        h = text.encode("latin1")
        return good[:8] + struct.pack("<H", len(h)) + h + body

    corpus = {
        "valid_f8_le.npy": good,
        "valid_u2_be.npy": valid["u2_be.npy"],
        "valid_f4_fortran.npy": valid["f4_fortran_2x3x4_be.npy"],
        "valid_f8_v3.npy": valid["f8_v3.npy"],
        "valid_scalar.npy": valid["f8_scalar.npy"],
        "broken_truncated_data.npy": good[:-3],
        "broken_truncated_header.npy": good[:40],
        "broken_trailing_bytes.npy": good + b"\0\0",
        "broken_magic.npy": b"\x93NUMPZ" + good[6:],
        "broken_version.npy": good[:6] + b"\x04\x00" + good[8:],
        "broken_header_length.npy": good[:8] + struct.pack("<H", 0xffff) + good[10:],
        "broken_descr_i8.npy": with_header(header.decode("latin1").replace("<f8", "<i8")),
        "broken_shape_not_tuple.npy": with_header(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (8), }\n"),
        "broken_missing_key.npy": with_header("{'descr': '<f8', 'shape': (8,), }\n"),
        "broken_structured.npy": with_header(
            "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (8,), }\n"),
        "broken_huge_shape.npy": with_header(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }\n"),
    }
    for name, data in corpus.items():
        write(CORPUS, name, data)


if __name__ == "__main__":
    main()
