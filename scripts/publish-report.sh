#!/usr/bin/env bash
# Regenerates the committed report of the built-in implementations, reports/latest/, with the
# defaults (seed 1, 50000 points per format, the property suite), after a set-up and build.
# Then review and commit it:  git add reports/latest && git commit -m "reports/latest: regenerate"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$build/cli/gelucheck" report --out "$root/reports/latest" "$@"
echo "publish-report: reports/latest/ regenerated; review it and commit it"
