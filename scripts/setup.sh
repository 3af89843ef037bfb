#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/debian-packages.txt that are missing (needs root
# when any are), then configures and builds gelucheck in ${GELUCHECK_BUILD_DIR:-build}: every
# target, or with --target NAME only that one (scripts/main.sh: gelucheck_main_job, what the main
# job runs).
# Usage: scripts/setup.sh [--target NAME] [extra cmake -D options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
target=()
if [ "${1:-}" = "--target" ]; then
  target=(--target "$2")
  shift 2
fi

mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$root/scripts/debian-packages.txt")
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages need root (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" "${target[@]}"
