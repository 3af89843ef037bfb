#!/usr/bin/env bash
# The README's test command: set up (packages, configure, build), then run the default CTest suite
# (everything not labelled `long`). Pass -L long to run the long tier instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
# Warnings are errors here (GELUCHECK_WERROR): what CI runs builds without a warning.
"$root/scripts/setup.sh" -DGELUCHECK_WERROR=ON
cd "$build"
if [ "$#" -eq 0 ]; then
  set -- -LE long
fi
ctest --output-on-failure -j"$(nproc)" "$@"
