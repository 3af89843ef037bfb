#!/usr/bin/env bash
# Regenerates the committed report, records/report/ (the library's two paths and the peers found:
# PyTorch, oneDNN, ONNX Runtime, ggml, and their variants), with the defaults (seed 1, 50000 points per sampled format, the 16-bit formats
# exhaustively, the property suite on each subject), after a set-up and build, and
# refreshes the summary table in README.md (between the report-summary markers) from it, so the
# README never carries figures typed by hand.
# Then review and commit:  git add records/report README.md && git commit -m "records/report: regenerate"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" --target gelucheck_main_job
"$build/cli/gelucheck" report --out "$root/records/report" "$@"

# The README excerpt, from report.md: its header line, the verdict's subject table (what each
# subject is, what it is held to, how many defects) and the "At a glance" table (per subject and
# format, each function's max ulp error and the kinds of its defects); the defects themselves,
# one line each with a reproducer, are one link away in report.md.
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
md="$root/records/report/report.md"
table() {  # the Markdown table that follows the heading $1 in report.md, with outer pipes
  awk -v h="$1" '
    $0 == h { on = 1; next }
    on && /^## / { exit }
    on && /\|/ { print "| " $0 " |" }' "$md" | sed 's/^| ---|/|---|/'
}
{
  echo "<!-- report-summary:begin (written by scripts/publish-report.sh from records/report/report.md) -->"
  grep -m1 '^Made by' "$md" | sed 's/ Machine-readable twin.*//; s/^Made by/Figures from/'
  echo
  table "## At a glance"
  echo
  echo "Each subject's defects, one line each with the input that shows it and a command that"
  echo "reproduces it: [records/report/report.md](records/report/report.md) (also as"
  echo "[report.html](records/report/report.html); details in"
  echo "[report-details.md](records/report/report-details.md))."
  echo "<!-- report-summary:end -->"
} > "$summary"
awk -v f="$summary" '
  /^<!-- report-summary:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
  /^<!-- report-summary:end/ { skip = 0; next }
  !skip' "$root/README.md" > "$root/README.md.new"
mv "$root/README.md.new" "$root/README.md"
echo "publish-report: records/report/ and README.md's summary regenerated; review and commit them"
