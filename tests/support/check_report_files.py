#!/usr/bin/env python3
"""Checks what a gelucheck report wrote, for the tests (tests/support/report_files.hpp).

  check_report_files.py [--schema-only] SCHEMA PATH...

PATH is a report directory (every file in it, plot-data/ included, PNGs left out) or one file
(a JUnit XML, a report.json). Every file must be UTF-8 and hold no doubly encoded character: a
Latin-1 reading of a UTF-8 lead byte followed by that of a continuation byte (U+00C2..U+00F4 then
U+0080..U+00BF, e.g. "Â·" for "·"), the mark of UTF-8 bytes re-encoded one by one. Every file
named report.json must be valid against SCHEMA (reports/schema/report.schema.json), or, when it
says it is a `gelucheck diff` report (schema gelucheck.diff/1), against diff.schema.json beside
SCHEMA, which the report schema's `variants` also refers to.
--schema-only: only that (for a report written by an older gelucheck, e.g. one committed).

Exit 0 when all is well; 1 with one line per problem on stdout; 2 when it cannot check (usage,
python3-jsonschema missing: scripts/debian-packages.txt lists it).
"""
import json
import os
import re
import sys

DOUBLY_ENCODED = re.compile("[\u00c2-\u00f4][\u0080-\u00bf]")


def files_of(path):
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for name in sorted(names):
                # Binary files: the plots and the saved batches (.npy) of batch-dependent findings.
                if not name.endswith((".png", ".npy")):
                    yield os.path.join(root, name)
    else:
        yield path


def text_problems(path, data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"{path}: not UTF-8 at byte {e.start}: {data[max(0, e.start - 20):e.start + 20]!r}"]
    problems = []
    for m in DOUBLY_ENCODED.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        context = text[max(0, m.start() - 30):m.end() + 10].replace("\n", " ")
        problems.append(f"{path}:{line}: doubly encoded character {m.group()!r} "
                        f"(bytes {m.group().encode('utf-8').hex(' ')}) in: {context}")
        if len(problems) == 5:
            problems.append(f"{path}: ... and more")
            break
    return problems


def main(argv):
    schema_only = len(argv) > 1 and argv[1] == "--schema-only"
    if schema_only:
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed (scripts/debian-packages.txt lists it; "
              "scripts/setup.sh installs it)")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(os.path.join(os.path.dirname(argv[1]), "diff.schema.json"), encoding="utf-8") as f:
        diff_schema = json.load(f)
    # The report schema refers to the diff schema by its $id: through a `referencing` registry
    # where jsonschema has one (4.18 and later), else a RefResolver store (Debian 12's 4.10).
    try:
        from referencing import Registry, Resource
        registry = Registry().with_resource(diff_schema["$id"], Resource.from_contents(diff_schema))
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(schema, store={diff_schema["$id"]: diff_schema})
        validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    diff_validator = jsonschema.Draft202012Validator(diff_schema)
    problems, checked = [], 0
    for path in argv[2:]:
        if not os.path.exists(path):
            problems.append(f"{path}: does not exist")
            continue
        for file in files_of(path):
            with open(file, "rb") as f:
                data = f.read()
            checked += 1
            if not schema_only:
                problems += text_problems(file, data)
            if os.path.basename(file) == "report.json":
                doc = json.loads(data)
                v = diff_validator if str(doc.get("schema", "")).startswith("gelucheck.diff/") else validator
                for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))[:10]:
                    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                    problems.append(f"{file}: does not match the schema at {where}: {e.message[:300]}")
    if checked == 0:
        problems.append("no file to check in " + " ".join(argv[2:]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
