#!/usr/bin/env python3
"""The runner's own test (run_examples.py): it passes on a page whose examples hold (with a file
block, normalised dates, durations and paths, elisions of lines and within a line, an exit code
and a block not run), and fails on one that no longer prints what it shows, on a wrong exit
code, on an unmarked shell block and on a marker without its block, naming the line.
Usage: run_examples_test.py --build DIR --source DIR"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--build", required=True)
ap.add_argument("--source", required=True)
args = ap.parse_args()

cases = [  # page, exit code, what its output must say
    ("good.md", 0, ["2 example(s) run, 0 failed, 1 not run",
                    "not run: tests/docs/fixtures/good.md:34: a fixture's reason"]),
    ("wrong.md", 1, ["tests/docs/fixtures/wrong.md:5: $ printf",
                     "+-0x1p+0\t-0x1.453d22357147ap-3\t-0.1588080093917233",
                     "2 example(s) run, 2 failed",
                     "tests/docs/fixtures/wrong.md:13: $ echo"]),
    ("wrong_exit.md", 1, ["exit 2, the page wants exit 4"]),
    ("unmarked.md", 2, ["tests/docs/fixtures/unmarked.md:3: a shell block without an example marker"]),
    ("malformed.md", 2, ["tests/docs/fixtures/malformed.md:3: marker not followed by a fenced block"]),
]
bad = 0
for page, code, says in cases:
    p = subprocess.run([sys.executable, os.path.join(here, "run_examples.py"), "--build",
                        args.build, "--source", args.source,
                        os.path.join(here, "fixtures", page)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    missing = [s for s in says if s not in p.stdout]
    if p.returncode != code or missing:
        bad += 1
        print(f"FAIL {page}: exit {p.returncode} (want {code}); missing {missing}\n{p.stdout}")
    else:
        print(f"ok {page}: exit {code}")
sys.exit(1 if bad else 0)
