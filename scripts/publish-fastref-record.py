#!/usr/bin/env python3
"""Writes the pages' account of the whole-range record of the fast reference from its log, so
that no figure of it is typed by hand: the paragraph between the fastref-record markers of
docs/reference.md ("Whole-range result": what has run, its totals, what is left) and of
docs/benchmarks.md ("The whole-range record's time": the time against the record of the fast
path before, records/fastref-every-input/fast-path-0111519/, over the same chunks).

    scripts/publish-fastref-record.py            rewrite the two paragraphs
    scripts/publish-fastref-record.py --check    exit 1 when they are not what it would write

A chunk counts when its last start line in the log is followed by its four result lines
(scripts/fastref-every-input.sh's rule; tests/repo/record_totals.py, which checks the quotes,
reads the log apart from this). After a slice of the record: run it, review, and commit the log,
done.txt and the pages together.
"""
import argparse
import pathlib
import re
import struct
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORD = "records/fastref-every-input/log.txt"
BEFORE = "records/fastref-every-input/fast-path-0111519/log.txt"
CHUNKS = 4081          # scripts/fastref-every-input.sh
NEGATIVE = 2048        # chunks 0..2047 hold the negative inputs (-inf .. -0)
FUNCTIONS = 4
BEGIN = "<!-- fastref-record:begin (written by scripts/publish-fastref-record.py from the record's log) -->"
END = "<!-- fastref-record:end -->"


def complete_runs(path):
    """chunk -> [(results, disagreements, fallbacks, seconds)] of its last complete run."""
    runs, open_runs = {}, {}
    for line in path.read_text().splitlines():
        m = re.match(r"chunk (\d+) \[", line)
        if m:
            open_runs[int(m.group(1))] = []
            continue
        m = re.match(r"chunk (\d+): [a-z]+ [a-z]+: (\d+) inputs compared with MPFR, (\d+) disagreements, "
                     r"(\d+) fallbacks, (\d+) s$", line)
        if m and int(m.group(1)) in open_runs:
            c = int(m.group(1))
            open_runs[c].append(tuple(int(g) for g in m.group(2, 3, 4, 5)))
            if len(open_runs[c]) == FUNCTIONS:
                runs[c] = open_runs.pop(c)
    return runs


def sums(runs, chunks):
    return [sum(r[k] for c in chunks for r in runs[c]) for k in range(4)]


def first_value(c):
    """The least binary32 value of chunk c (keys 2^23 + c 2^20, from -inf upward)."""
    d = 0x00800000 + (c << 20) - 0x80000000
    bits = d if d >= 0 else 0x80000000 | -d
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def show(x):
    if x in (float("inf"), float("-inf")):
        return "+∞" if x > 0 else "−∞"
    s = repr(x)
    if len(s) > 8:  # not a short decimal: C99 hex, without trailing zeros
        mant, exp = float.hex(x).split("p")
        s = mant.rstrip("0").rstrip(".") + "p" + exp
    return s.removesuffix(".0").replace("-", "−")


def spans(chunks):
    out = []
    for c in sorted(chunks):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def listing(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def n(v):
    return f"{v:,}"


def paragraphs(root):
    new, old = complete_runs(root / RECORD), complete_runs(root / BEFORE)
    done = sorted(new)
    missing = [c for c in done if c not in old]
    if missing:
        sys.exit(f"publish-fastref-record: chunk {missing[0]} is not in {BEFORE}")
    results, disagreements, fallbacks, seconds = sums(new, done)
    o_results, o_disagreements, o_fallbacks, o_seconds = sums(old, done)
    ranges = spans(done)
    chunk_text = listing([f"{a}–{b}" if a != b else f"{a}" for a, b in ranges])
    intervals = [f"[{show(first_value(a))}, " + ("+∞]" if b == CHUNKS - 1 else f"{show(first_value(b + 1))})")
                 for a, b in ranges]
    inputs = listing(intervals[:1] + ["in " + i for i in intervals[1:]])
    # Each side's ratio of the two records' seconds, over the chunks run on that side.
    ratio = {}
    for side, chunks in (("negative", [c for c in done if c < NEGATIVE]), ("positive", [c for c in done if c >= NEGATIVE])):
        s_new, s_old = sums(new, chunks)[3], sums(old, chunks)[3]
        ratio[side] = s_new / s_old if chunks and s_old else None
    left = [c for c in range(CHUNKS) if c not in new]
    overall = seconds / o_seconds if o_seconds else 1.0
    estimate = sum(sums(old, [c])[3] * (ratio["negative" if c < NEGATIVE else "positive"] or overall) for c in left)
    before_all = sums(old, list(old))[3]
    quote = (f"the totals of `{RECORD}`: {n(len(done))} chunks, {n(results)} results, {n(disagreements)} "
             f"disagreements, {n(fallbacks)} fallbacks, {n(seconds)} s")
    quote_before = (f"the totals of `{BEFORE}` over the chunks of `{RECORD}`: {n(len(done))} chunks, "
                    f"{n(o_results)} results, {n(o_disagreements)} disagreements, {n(o_fallbacks)} fallbacks, "
                    f"{n(o_seconds)} s")
    if left:
        status = (f"It is not whole yet. So far, {quote} (the last figure the result lines' seconds, summed) — "
                  f"chunks {chunk_text}, that is every binary32 input in {inputs}, each of the four functions. "
                  f"The fast path before (below) left as many inputs to MPFR in each of those chunks and "
                  f"functions: {quote_before}. The other {n(len(left))} chunks are still to run: about "
                  f"{estimate / 3600:.0f} hours of this machine at the two records' ratio of times so far on "
                  f"each side of 0 (docs/benchmarks.md, \"The fast reference\").")
    else:
        status = (f"It is whole: {quote} (the last figure the result lines' seconds, summed), every binary32 "
                  f"input from −∞ to +∞, each of the four functions. The fast path before (below) left as many "
                  f"inputs to MPFR in each chunk and function: {quote_before}.")
    sides = ", ".join(f"{ratio[s]:.2f}× for {s} x" for s in ("negative", "positive") if ratio[s])
    whole = seconds + estimate
    time = (f"The chunks of the record run so far on the Intel Xeon (since 2026-12-07, at low priority, "
            f"beside other work at times: builds, tests, benchmarks) took {n(seconds)} s, the result lines' "
            f"seconds summed, against {n(o_seconds)} s for the same {n(len(done))} chunks in the record of the "
            f"fast path before, on the AMD EPYC (2026-12-02/03; {quote}; {quote_before}): {overall:.2f}× "
            f"({sides}). The MPFR path's code is the same in both (since 1adeab6, comments aside), so the "
            f"ratio is the two machines' (and what ran beside). At each side's ratio, the whole range would "
            f"take about {whole / 3600:.0f} hours of this machine (the AMD EPYC's record: {n(before_all)} s, "
            f"{before_all / 3600:.1f} hours).")
    return {"docs/reference.md": status, "docs/benchmarks.md": time}


def rewritten(text, body, page):
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        sys.exit(f"publish-fastref-record: {page} has no {BEGIN} ... {END}")
    wrapped = textwrap.fill(body, 100, break_long_words=False, break_on_hyphens=False)
    return text[:a] + BEGIN + "\n" + wrapped + "\n" + text[b:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(ROOT), help="the source tree (default: this one)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a page is not what it would write")
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    stale = []
    for page, body in paragraphs(root).items():
        path = root / page
        text = path.read_text()
        new = rewritten(text, body, page)
        if new != text:
            stale.append(page)
            if not a.check:
                path.write_text(new)
    if a.check:
        for page in stale:
            print(f"{page}: the record's paragraph is not the log's (scripts/publish-fastref-record.py "
                  f"rewrites it)", file=sys.stderr)
        return 1 if stale else 0
    print("publish-fastref-record: " + (", ".join(stale) + " rewritten" if stale else "the pages were the log's"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
