#!/usr/bin/env bash
# Regenerates the committed report of the built-in implementations, reports/latest/, with the
# defaults (seed 1, 50000 points per format, the property suite), after a set-up and build, and
# refreshes the summary table in README.md (between the report-summary markers) from it, so the
# README never carries figures typed by hand.
# Then review and commit:  git add reports/latest README.md && git commit -m "reports/latest: regenerate"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$build/cli/gelucheck" report --out "$root/reports/latest" "$@"

# The README excerpt: from report.md's summary table, the rounding-error rows (the function
# measured against its own form), as implementation | type | function | max ulp | at x | faithful
# | claim.
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
{
  echo "<!-- report-summary:begin (written by scripts/publish-report.sh from reports/latest/report.md) -->"
  sed -n '1,/^Made by/p' "$root/reports/latest/report.md" | grep '^Made by' |
    sed 's/ Machine-readable twin.*//; s/^Made by/Figures from/'
  echo
  echo "| implementation | type | function | max ulp error | at x | faithful | claim |"
  echo "|---|---|---|---:|---|---:|---|"
  awk -F' \\| ' '
    /^## Summary/ { on = 1; next }
    on && /^## / { on = 0 }
    on && /^(accurate|naive) \|/ {
      split($3, fn, " ")
      if (fn[1] != $4) next           # model-error rows (tanh against erf) are in the report
      printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $6, $7, $13, $NF
    }' "$root/reports/latest/report.md"
  echo "<!-- report-summary:end -->"
} > "$summary"
awk -v f="$summary" '
  /^<!-- report-summary:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
  /^<!-- report-summary:end/ { skip = 0; next }
  !skip' "$root/README.md" > "$root/README.md.new"
mv "$root/README.md.new" "$root/README.md"
echo "publish-report: reports/latest/ and README.md's summary regenerated; review and commit them"
