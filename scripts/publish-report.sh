#!/usr/bin/env bash
# Regenerates the committed report, reports/latest/ (the library's two paths and the peers found:
# PyTorch, oneDNN), with the defaults (seed 1, 50000 points per sampled format, the 16-bit formats
# exhaustively, the property suite on each subject), after a set-up and build, and
# refreshes the summary table in README.md (between the report-summary markers) from it, so the
# README never carries figures typed by hand.
# Then review and commit:  git add reports/latest README.md && git commit -m "reports/latest: regenerate"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$build/cli/gelucheck" report --out "$root/reports/latest" "$@"

# The README excerpt, from report.md: its header line, the "At a glance" table (per subject,
# format and function: max ulp error and where, where the negative tail collapses to zero, where
# NaN comes out, the framework-default verdict, the claim) and the properties each subject breaks.
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
md="$root/reports/latest/report.md"
{
  echo "<!-- report-summary:begin (written by scripts/publish-report.sh from reports/latest/report.md) -->"
  grep -m1 '^Made by' "$md" | sed 's/ Machine-readable twin.*//; s/^Made by/Figures from/'
  echo
  grep -m1 '^Provenance:' "$md" || true
  echo
  awk '
    /^## At a glance/ { on = 1; next }
    on && /^## / { exit }
    on && /^subject \|/ { print "| " $0 " |"; next }
    on && /^---\|/ { print "|" $0 "|"; next }
    on && /^`/ { print "| " $0 " |" }' "$md"
  echo
  echo "Properties each subject breaks (the suite's checks; a subject that claims nothing is held to"
  echo "the framework default there):"
  echo
  awk '
    /^## Properties each subject breaks/ { on = 1; next }
    on && /^## / { exit }
    on && /^- / { print }' "$md"
  echo "<!-- report-summary:end -->"
} > "$summary"
awk -v f="$summary" '
  /^<!-- report-summary:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
  /^<!-- report-summary:end/ { skip = 0; next }
  !skip' "$root/README.md" > "$root/README.md.new"
mv "$root/README.md.new" "$root/README.md"
echo "publish-report: reports/latest/ and README.md's summary regenerated; review and commit them"
