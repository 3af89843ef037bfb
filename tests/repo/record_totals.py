#!/usr/bin/env python3
"""The pages' figures of the whole-range records are the records' own (numbers come from a run,
not from typing).

Every sentence of README.md and docs/*.md of the form

    the totals of `records/<dir>/log.txt`: C chunks, R results, D disagreements, F fallbacks, T s

(optionally "the totals of `LOG` over the chunks of `OTHER`: ...", LOG restricted to the chunks
OTHER has results for; the ", T s" part optional; numbers may carry thousands commas) must match
what this script computes from that log, and each log under records/fastref-every-input/ must be
quoted at least once. The log's rules are scripts/fastref-every-input.sh's (a chunk run twice
counts by its last run) but computed here apart from its awk: a chunk counts when its last start
line is followed by all four result lines; T sums those lines' seconds.

    record_totals.py --root <source tree>          check the pages
    record_totals.py --self-test <scratch dir>     the check fails on a planted wrong figure
Exit 0 when every quote matches, 1 otherwise (each mismatch named).
"""
import argparse
import pathlib
import re
import sys

FUNCTIONS = ("tanh value", "tanh derivative", "erf value", "erf derivative")
START = re.compile(r"^chunk (\d+) \[")
RESULT = re.compile(r"^chunk (\d+): (tanh value|tanh derivative|erf value|erf derivative): "
                    r"(\d+) inputs compared with MPFR, (\d+) disagreements, (\d+) fallbacks, (\d+) s$")
NUM = r"([0-9][0-9,]*)"
QUOTE = re.compile(r"the totals of `(records/[^`]+/log\.txt)`(?: over the chunks of `(records/[^`]+/log\.txt)`)?: "
                   + NUM + r" chunks, " + NUM + r" results, " + NUM + r" disagreements, " + NUM + r" fallbacks"
                   + r"(?:, " + NUM + r" s)?")


def chunks_of(log):
    """chunk -> {function: (inputs, disagreements, fallbacks, seconds)}, complete runs only."""
    done, current = {}, {}
    for line in log.read_text().splitlines():
        m = START.match(line)
        if m:
            current[int(m.group(1))] = {}
            continue
        m = RESULT.match(line)
        if m:
            c = int(m.group(1))
            run = current.setdefault(c, {})
            run[m.group(2)] = tuple(int(m.group(i)) for i in range(3, 7))
            if all(f in run for f in FUNCTIONS):
                done[c] = current.pop(c)
    return done


def totals(record, only=None):
    cs = [c for c in record if only is None or c in only]
    sums = [sum(record[c][f][k] for c in cs for f in FUNCTIONS) for k in range(4)]
    return (len(cs), *sums)


def check(root):
    root = pathlib.Path(root)
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    logs = sorted(p.relative_to(root).as_posix() for p in (root / "records/fastref-every-input").rglob("log.txt"))
    cache, quoted, bad = {}, set(), []

    def record(rel):
        if rel not in cache:
            path = root / rel
            if not path.is_file():
                return None
            cache[rel] = chunks_of(path)
        return cache[rel]

    for page in pages:
        flat = re.sub(r"\s+", " ", page.read_text())
        for m in QUOTE.finditer(flat):
            log, other = m.group(1), m.group(2)
            rec, restrict = record(log), record(other) if other else None
            if rec is None or (other and restrict is None):
                bad.append(f"{page.name}: quotes {log if rec is None else other}, which does not exist")
                continue
            quoted.add(log)
            want = totals(rec, set(restrict) if other else None)
            said = [int(g.replace(",", "")) if g else None for g in m.group(3, 4, 5, 6, 7)]
            names = ("chunks", "results", "disagreements", "fallbacks", "s")
            for name, s, w in zip(names, said, want):
                if s is not None and s != w:
                    bad.append(f"{page.name}: \"{m.group(0)}\": {s:,} {name}, the log has {w:,}")
    for log in logs:
        if log not in quoted:
            bad.append(f"{log}: no page quotes its totals (\"the totals of `{log}`: ...\")")
    for b in bad:
        print(b, file=sys.stderr)
    if not bad:
        print(f"{len(quoted)} records, their quotes match")
    return 1 if bad else 0


def self_test(work):
    work = pathlib.Path(work) / "record-totals"
    (work / "docs").mkdir(parents=True, exist_ok=True)
    (work / "records/fastref-every-input").mkdir(parents=True, exist_ok=True)
    lines = []
    for c, secs in ((7, 2), (8, 3)):
        lines.append(f"chunk {c} [a, b] built from x, start t")
        lines += [f"chunk {c}: {f}: 1048576 inputs compared with MPFR, 0 disagreements, {c - 7} fallbacks, {secs} s"
                  for f in FUNCTIONS]
    lines.append("chunk 9 [a, b] built from x, start t")  # interrupted: not counted
    lines.append("chunk 9: tanh value: 1048576 inputs compared with MPFR, 0 disagreements, 0 fallbacks, 1 s")
    (work / "records/fastref-every-input/log.txt").write_text("\n".join(lines) + "\n")
    log = "`records/fastref-every-input/log.txt`"
    right = f"So far, the totals of {log}: 2 chunks, 8,388,608\nresults, 0 disagreements, 4 fallbacks, 20 s.\n"
    cases = [(right, 0), (right.replace("4 fallbacks", "3 fallbacks"), 1), (right.replace("20 s", "21 s"), 1),
             (right.replace("2 chunks", "3 chunks"), 1), ("No quote.\n", 1)]
    failed = False
    for text, want in cases:
        (work / "README.md").write_text(text)
        got = check(work)
        if got != want:
            print(f"self-test: a page saying {text!r} gave {got}, not {want}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--root")
    g.add_argument("--self-test", metavar="DIR")
    a = ap.parse_args()
    sys.exit(check(a.root) if a.root else self_test(a.self_test))
