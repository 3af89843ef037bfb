#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/debian-packages.txt that are missing (needs root
# when any are), the peers pinned in adapters/npm/package-lock.json (npm ci, into the build
# directory's npm/), then configures and builds gelucheck in ${GELUCHECK_BUILD_DIR:-build}: every
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

# A line is a package, or "PACKAGE if-no COMMAND": that package only when COMMAND is not on PATH
# (npm: a machine whose Node.js came from elsewhere has its own).
mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$root/scripts/debian-packages.txt")
missing=()
for line in "${wanted[@]}"; do
  read -r p cond cmd <<<"$line"
  if [ "${cond:-}" = "if-no" ]; then
    command -v "$cmd" >/dev/null 2>&1 && continue
  fi
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

# The npm peers (adapters/npm), in $build/npm/node_modules: ggml's libraries (found by CMake) and
# ONNX Runtime's Node.js package (run by adapters/onnxruntime).
# ONNX Runtime's install script would fetch GPU binaries from elsewhere: told to skip, and no
# package script runs. Done again only when the lock file changed.
npm_dir="$build/npm"
mkdir -p "$npm_dir"
if ! cmp -s "$root/adapters/npm/package-lock.json" "$npm_dir/installed-package-lock.json"; then
  echo "setup: installing the npm peers (adapters/npm/package-lock.json)" >&2
  cp "$root/adapters/npm/package.json" "$root/adapters/npm/package-lock.json" "$npm_dir/"
  (cd "$npm_dir" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --ignore-scripts --no-audit --no-fund \
     --loglevel=error >/dev/null)
  cp "$npm_dir/package-lock.json" "$npm_dir/installed-package-lock.json"
fi

# A new build directory is configured for Ninja, which starts a target's files before the
# libraries it links are built (the main job's build on 2 cores: 79 s against 100 s with Make);
# one configured before keeps its generator, which CMake cannot change.
generator=()
[ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" "${target[@]}"
