#!/usr/bin/env bash
# The README's main command: set up (packages, configure, build), then run gelucheck's main job.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
printf '%s\n' -3 -1 0 0.5 1 2 -20 -0x1.8p+5 inf nan |
  "$build/cli/gelucheck" eval --impl reference --form tanh --quantity value --format binary64
