#!/usr/bin/env bash
# The README's main command: set up (packages, configure, build what the main job runs: the
# gelucheck_main_job target, no tests), then run gelucheck's main job,
# `gelucheck report` with its defaults (seed 1, 50000 points per format, the property suite),
# into ${GELUCHECK_REPORT_DIR:-build/report}. Extra arguments go to `gelucheck report`
# (e.g. --gate, --seed S, --points N; `gelucheck report --help` lists them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
out=${GELUCHECK_REPORT_DIR:-$build/report}
start=$SECONDS
"$root/scripts/setup.sh" --target gelucheck_main_job
built=$SECONDS
"$build/cli/gelucheck" report --out "$out" "$@"
echo "main: set-up and build $((built - start)) s, report $((SECONDS - built)) s, in all $((SECONDS - start)) s"
echo "main: open $out/report.md (the verdict, each subject's defects with a command that reproduces each, the tables, the plots); details in $out/report-details.md; $out/report.json is the same for machines (docs/report.md)"
