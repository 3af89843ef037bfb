#!/usr/bin/env python3
"""Runs the marked examples of a Markdown page and checks that they print what the page shows.

A marked example is an HTML comment (invisible on GitHub) right before a fenced console block:

    <!-- example -->
    ```console
    $ printf '1\\n' | gelucheck eval
    0x1p+0	0x1.aeb0b772a3ae1p-1	0.8411919906082767
    ```

Lines starting with "$ " are commands (a line ending in a backslash goes on on the next line);
the lines up to the next command are what it prints, stdout and stderr together. A line that is
just "..." stands for any number of lines (none included), and "[...]" within a line for any text
(what varies from machine to machine). Each command must exit 0, except
the block's last when the marker says "exit N": <!-- example: exit 4 -->. A block that cannot run
here says why: <!-- example: not run: an MPI run on two hosts -->; it is counted and listed, never
run. <!-- example-file: NAME --> before any fenced block writes that block's text to NAME in the
directory of every example after it on the page.

Every fenced block of shell (console, sh, bash, shell), and every unlabelled one with a "$ "
line, must be marked, run or not run: a command a page shows is an example. Usage synopses and
other text are `text` blocks.

Each block runs with bash in a fresh temporary directory (its commands in turn, so later ones see
the files of earlier ones), with the build's gelucheck first on PATH, the source tree's headers
on CPATH (as an installed gelucheck's would be), and what a command run at the top of the source
tree sees: `adapters`, `certify` and `docs` linked to the source tree's, `build` to the build directory, and
a copy of each fixture given with --fixture NAME=PATH, named NAME. Both the page's lines and the output are
normalised before they are compared: the temporary directory, the build and source directories,
dates, times, durations ("in 14 s", "0.21 s") and gelucheck's version.

Usage: run_examples.py --build DIR --source DIR [--fixture NAME=PATH]... [--timeout S] PAGE.md
Exit 0 when every run example matches, 1 when one does not (each mismatch shown as a diff),
2 on a malformed page (an unmarked shell block, an unclosed fence, a marker with no block).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SHELL_LANGS = {"console", "sh", "bash", "shell", "shell-session"}
MARKER = re.compile(r"^<!--\s*example(?P<file>-file)?\s*(?::\s*(?P<opts>.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(?P<fence>```+|~~~+)\s*(?P<lang>[\w-]*)")


class PageError(Exception):
    pass


def parse(path, name):
    """The page's marked blocks, in order: dicts with line, kind (run, skip, file), options, body;
    messages name the page as name."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, pending, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if pending:
                raise PageError(f"{name}:{pending['line']}: marker not followed by a fenced block")
            opts = (m.group("opts") or "").strip()
            pending = {"line": i + 1, "file": bool(m.group("file")), "opts": opts}
            i += 1
            continue
        f = FENCE.match(line)
        if f:
            fence, lang, start = f.group("fence"), f.group("lang").lower(), i
            i += 1
            while i < len(lines) and not lines[i].startswith(fence):
                i += 1
            if i == len(lines):
                raise PageError(f"{name}:{start + 1}: unclosed fence")
            body = lines[start + 1:i]
            if pending:
                if pending["file"]:
                    if not pending["opts"]:
                        raise PageError(f"{name}:{pending['line']}: example-file needs a name")
                    blocks.append({"kind": "file", "line": start + 1, "name": pending["opts"],
                                   "body": body})
                else:
                    blocks.append(example(name, start + 1, pending["opts"], body))
                pending = None
            elif lang in SHELL_LANGS or (not lang and any(b.startswith("$ ") for b in body)):
                raise PageError(f"{name}:{start + 1}: a shell block without an example marker "
                                "(<!-- example --> before it, or <!-- example: not run: WHY -->; "
                                "a synopsis is a text block)")
        elif pending and line.strip():
            raise PageError(f"{name}:{pending['line']}: marker not followed by a fenced block")
        i += 1
    if pending:
        raise PageError(f"{name}:{pending['line']}: marker not followed by a fenced block")
    return blocks


def example(path, line, opts, body):
    block = {"kind": "run", "line": line, "exit": 0, "commands": []}
    for opt in filter(None, (o.strip() for o in opts.split(";"))):
        if opt.startswith("not run"):
            reason = opt[len("not run"):].lstrip(": ").strip()
            if not reason:
                raise PageError(f"{path}:{line}: 'not run' needs a reason: not run: WHY")
            block.update(kind="skip", reason=reason)
        elif re.fullmatch(r"exit \d+", opt):
            block["exit"] = int(opt.split()[1])
        else:
            raise PageError(f"{path}:{line}: unknown example option {opt!r}")
    if block["kind"] == "skip":
        return block
    cur, j = None, 0
    while j < len(body):
        b = body[j]
        if b.startswith("$ "):
            cmd, first = b[2:], line + 1 + j
            while cmd.endswith("\\") and j + 1 < len(body):
                j += 1
                cmd += "\n" + body[j]
            cur = {"cmd": cmd, "line": first, "expect": []}
            block["commands"].append(cur)
        elif cur is None:
            raise PageError(f"{path}:{line}: an example block starts with '$ COMMAND'")
        else:
            cur["expect"].append(b)
        j += 1
    if not block["commands"]:
        raise PageError(f"{path}:{line}: an example block with no '$ COMMAND' line")
    return block


def normaliser(tmp, build, source):
    subs = [(re.escape(os.path.realpath(tmp)), "<tmp>"), (re.escape(tmp), "<tmp>"),
            (re.escape(os.path.realpath(build)), "<build>"), (re.escape(build), "<build>"),
            (re.escape(os.path.realpath(source)), "<source>"), (re.escape(source), "<source>")]
    subs = [(re.compile(a), b) for a, b in subs]
    rules = [
        (re.compile(r"/tmp/[\w.+-]+"), "<tmp>"),
        (re.compile(r"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?)?"), "<date>"),
        (re.compile(r"\b\d\d:\d\d(:\d\d)?\b"), "<time>"),
        (re.compile(r"\b\d+(\.\d+)?\s?(ms|s|min|h)\b"), "<duration>"),
        (re.compile(r"\bgelucheck \d+\.\d+\.\d+[\w.+-]*"), "gelucheck <version>"),
        (re.compile(r"\b(commit|revision) [0-9a-f]{7,40}\b"), r"\1 <commit>"),
    ]

    def norm(text):
        for pat, rep in subs + rules:
            text = pat.sub(rep, text)
        return text.rstrip()
    return norm


def line_matcher(e):
    """A page's line: the same line, "[...]" within it standing for any text."""
    if "[...]" not in e:
        return lambda g: g == e
    pat = re.compile(".*".join(re.escape(part) for part in e.split("[...]")))
    return lambda g: pat.fullmatch(g) is not None


def matches(expect, got):
    """expect (lines, "..." any lines) against got, both normalised."""
    # ok[j]: expect[:i] matches got[:j], for i from 0 up.
    ok = [True] + [False] * len(got)
    for e in expect:
        if e == "...":
            for j in range(1, len(ok)):
                ok[j] = ok[j] or ok[j - 1]
        else:
            same = line_matcher(e)
            ok = [False] + [ok[j - 1] and same(got[j - 1]) for j in range(1, len(ok))]
    return ok[-1]


def run_block(page, block, files, args, env_base):
    failures = []
    with tempfile.TemporaryDirectory(prefix="gelucheck-example-") as tmp:
        # The directory stands for the source tree's top, as the pages' commands assume: its
        # adapters/, certify/ and docs/, build/ (this build), the fixtures (copies: a page may build its own).
        for name in ("adapters", "certify", "docs"):
            os.symlink(os.path.join(args.source, name), os.path.join(tmp, name))
        os.symlink(args.build, os.path.join(tmp, "build"))
        for name, target in args.fixture:
            shutil.copy2(target, os.path.join(tmp, name))
        for name, body in files.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as out:
                out.write("\n".join(body) + "\n")
        norm = normaliser(tmp, args.build, args.source)
        for k, c in enumerate(block["commands"]):
            want_exit = block["exit"] if k == len(block["commands"]) - 1 else 0
            try:
                p = subprocess.run(["bash", "-c", c["cmd"]], cwd=tmp, env=env_base,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=args.timeout)
                out, code = p.stdout.decode("utf-8", "replace"), p.returncode
            except subprocess.TimeoutExpired as e:
                out = (e.stdout or b"").decode("utf-8", "replace")
                code = f"killed after {args.timeout} s"
            got = [norm(x) for x in out.rstrip("\n").split("\n")] if out.strip("\n") else []
            want = [norm(x) for x in c["expect"]]
            while want and want[-1] == "":
                want.pop()
            c["got"], c["code"] = out.rstrip("\n"), code
            if code != want_exit or not matches(want, got):
                diff = "\n".join(difflib.unified_diff(want, got, "the page", "the command",
                                                      lineterm=""))
                c["failed"] = True
                failures.append(f"{page}:{c['line']}: $ {c['cmd']}\n"
                                f"  exit {code}, the page wants exit {want_exit}\n{diff}")
                break  # the block's later commands may depend on this one
    return failures


def update(path, blocks):
    lines = open(path, encoding="utf-8").read().split("\n")
    edits = []
    for block in blocks:
        for k, c in enumerate(block.get("commands", [])):
            want_exit = block["exit"] if k == len(block["commands"]) - 1 else 0
            if (not c.get("failed") or c["code"] != want_exit
                    or any("..." in e for e in c["expect"])):
                continue
            first = c["line"] + c["cmd"].count("\n")  # the page's line index after the command
            edits.append((first, first + len(c["expect"]), c["got"].split("\n") if c["got"] else []))
    for a, b, new in sorted(edits, reverse=True):
        lines[a:b] = new
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    print(f"run_examples: updated {len(edits)} command(s)' output in {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--fixture", action="append", default=[],
                    type=lambda s: (s.split("=", 1)[0], os.path.abspath(s.split("=", 1)[1])))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--update", action="store_true",
                    help="write what each failing command printed into the page (not where the "
                         "page elides lines or the exit code differs): for the page's author, "
                         "who reads the diff")
    ap.add_argument("page")
    args = ap.parse_args()
    args.build, args.source = os.path.abspath(args.build), os.path.abspath(args.source)
    page = os.path.relpath(os.path.abspath(args.page), args.source)
    for name, target in args.fixture:
        if not os.path.exists(target):
            print(f"run_examples: fixture {name}: {target} does not exist (build docs_examples)",
                  file=sys.stderr)
            return 2
    try:
        blocks = parse(args.page, page)
    except PageError as e:
        print(f"run_examples: {e}", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env["PATH"] = os.path.join(args.build, "cli") + os.pathsep + env.get("PATH", "")
    headers = [os.path.join(args.source, d, "include") for d in ("subjects", "src")]
    env["CPATH"] = os.pathsep.join(headers + ([env["CPATH"]] if env.get("CPATH") else []))
    env["LC_ALL"] = "C.UTF-8"
    for var in ("RC_PARAMS", "GELUCHECK_BUILD_DIR"):
        env.pop(var, None)
    files, failures, ran, skipped = {}, [], 0, []
    start = time.monotonic()
    for block in blocks:
        if block["kind"] == "file":
            files[block["name"]] = block["body"]
        elif block["kind"] == "skip":
            skipped.append(f"{page}:{block['line']}: {block['reason']}")
        else:
            ran += 1
            failures += run_block(page, block, files, args, env)
    for f in failures:
        print(f, file=sys.stderr)
    if args.update and failures:
        update(args.page, blocks)
    for s in skipped:
        print(f"not run: {s}")
    print(f"{page}: {ran} example(s) run, {len(failures)} failed, {len(skipped)} not run "
          f"({time.monotonic() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
