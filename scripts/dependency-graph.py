#!/usr/bin/env python3
"""The build's dependency graph between gelucheck's own parts, as docs/architecture.md draws it.

    dependency-graph.py --source DIR --npm DIR [--update PAGE | --check PAGE]

Configures the source tree into a scratch directory with CMake's --graphviz (benchmarks off),
keeps the targets of gelucheck's layers (not the tests')
and the edges between them (each link, public or private, and each build-order dependency;
third-party libraries left out),
and writes them as a Mermaid graph, each target under the folder that defines it. The graph is
generated, never drawn by hand: --update rewrites the block between the page's
`dependency-graph:begin` and `dependency-graph:end` markers; --check exits 1 when the page's block
is not what the build says (a test runs it), printing the difference.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

# The layers' targets are those the CMakeLists.txt of a layer's folder defines (add_library,
# add_executable, gelucheck_add_subject_adapter), each under that folder: the tree is the
# architecture (docs/architecture.md), so the folders are read from it, not listed here. The tests'
# folders are left out.
NOT_LAYERS = ("tests", "bench", "fuzz", "build")
DEFINES = re.compile(r"^\s*(?:add_library|add_executable|gelucheck_add_subject_adapter)\(\s*([A-Za-z0-9_-]+)[\s)]",
                     re.M)


def folders(source):
    out = {}
    for top, dirs, files in os.walk(source):
        rel = os.path.relpath(top, source)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts and (parts[0] in NOT_LAYERS or parts[0].startswith(".") or "node_modules" in parts):
            dirs[:] = []
            continue
        if "CMakeLists.txt" in files and rel != ".":
            text = open(os.path.join(top, "CMakeLists.txt"), encoding="utf-8").read()
            for m in DEFINES.finditer(text):
                out[m.group(1)] = rel.replace(os.sep, "/") + "/"
    return out


BEGIN = "<!-- dependency-graph:begin (scripts/dependency-graph.py --update docs/architecture.md) -->"
END = "<!-- dependency-graph:end -->"


def graph(source, npm):
    layer = folders(source)
    with tempfile.TemporaryDirectory(prefix="gelucheck-graph-") as build:
        dot = os.path.join(build, "g.dot")
        subprocess.run(["cmake", "-S", source, "-B", build, "--graphviz=" + dot,
                        "-DGELUCHECK_BUILD_BENCH=OFF",
                        "-DGELUCHECK_NPM_DIR=" + npm],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        text = open(dot, encoding="utf-8").read()
    names = {}
    for m in re.finditer(r'"(node\d+)" \[ label = "([^"\\]+)', text):
        names[m.group(1)] = m.group(2)
    edges = set()
    for m in re.finditer(r'"(node\d+)" -> "(node\d+)"', text):
        a, b = names.get(m.group(1)), names.get(m.group(2))
        if a in layer and b in layer and a != b:
            edges.add((a, b))
    nodes = sorted({n for e in edges for n in e} | {n for n in names.values() if n in layer})
    return {n: layer[n] for n in nodes}, sorted(edges)


def mermaid(folder_of, edges):
    nodes = sorted(folder_of)
    ident = {n: f"t{i}" for i, n in enumerate(nodes)}  # names like gelucheck-certify and
                                                        # gelucheck_certify must not collide
    lines = ["```mermaid", "graph LR"]
    for folder in sorted(set(folder_of.values())):
        lines.append(f'  subgraph {re.sub(r"[^A-Za-z0-9]", "_", folder)}["{folder}"]')
        for n in nodes:
            if folder_of[n] == folder:
                lines.append(f'    {ident[n]}["{n}"]')
        lines.append("  end")
    for a, b in edges:
        lines.append(f"  {ident[a]} --> {ident[b]}")
    lines.append("```")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--source", required=True)
    p.add_argument("--npm", required=True, help="GELUCHECK_NPM_DIR, so that the adapters show")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--update")
    g.add_argument("--check")
    a = p.parse_args()
    page = a.update or a.check
    text = open(page, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"{page}: no {BEGIN} ... {END} block", file=sys.stderr)
        return 2
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    new = "\n" + mermaid(*graph(a.source, a.npm)) + "\n"
    if a.update:
        if new != old:
            with open(page, "w", encoding="utf-8") as f:
                f.write(head + BEGIN + new + END + tail)
        return 0
    if new == old:
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                               page + " (as written)", "the build's graph"))
    print(f"\n{page}: the dependency graph is not the build's: run scripts/dependency-graph.py "
          "--update on it")
    return 1


if __name__ == "__main__":
    sys.exit(main())
