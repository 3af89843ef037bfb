#!/usr/bin/env bash
# The fast reference (ref::round_batch) against the MPFR path (enclose()) on EVERY binary32 input
# of the four functions, in 4081 chunks that can run on one machine over days, or on many at once:
# chunk c holds the ordered keys [2^23 + c 2^20, 2^23 + (c+1) 2^20) clipped to +inf, that is the
# inputs from -inf upward in value order, 2^20 of them a chunk (chunk 0: -inf to -0x1.e00002p+127;
# 16 chunks make one pair of binades; chunk 4080: +inf alone). Each chunk is one run of
# test_fast_reference_long's SubRange.AgreesWithMpfr over all four functions
# (GELUCHECK_FASTREF_RANGE, GELUCHECK_FASTREF_FUNCTION=all), on every core: seconds for the large
# |x| chunks, several minutes for the costliest (erf's mpfr_erfc in [-16, -2^-20]).
#
#   scripts/fastref-every-input.sh [STATE_DIR [FIRST [LAST]]]
#
# STATE_DIR (default: the repository's records/fastref-every-input, the record this repository
# keeps; created if missing) holds what the runs found: done.txt lists finished chunks, one number
# a line; log.txt gets each chunk's range, the commit its test binary was built from, and its four
# result lines ("N inputs compared with MPFR, D disagreements, F fallbacks, T s"). A failed chunk
# leaves its whole output in chunk-C.out and a "chunk C FAILED (exit S; ...)" line; it is not
# done, so the next run takes it again. A finished chunk is skipped, so an interrupted run
# resumes where it stopped (only the chunk in progress is lost), and several machines may each
# take a FIRST..LAST slice into their own STATE_DIR (then append their logs and done lists).
# Exit: 0 when every chunk in FIRST..LAST (default 0..4080) is done without disagreement, 1 when a
# chunk found a disagreement or failed, 2 on bad usage or a test binary missing or older than its
# sources.
# Needs the build's test binary (GELUCHECK_BUILD_DIR, default build/; scripts/test.sh builds it),
# built after the last change to what it compiles; it is copied at the start, so rebuilding
# during a run does not change what runs.
# About 9 hours on 2 cores of an AMD EPYC for all chunks: 8.9 hours summed over the 4022 chunks
# whose wall time the log measures (docs/reference.md, "Whole-range result").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
bin="$build/tests/reference/test_fast_reference_long"
chunks=4081
usage() { echo "usage: $0 [STATE_DIR [FIRST [LAST]]]  (chunks 0..$((chunks - 1)))" >&2; exit 2; }
[ $# -le 3 ] || usage
state=${1:-$root/records/fastref-every-input}
first=${2:-0}
last=${3:-$((chunks - 1))}
[[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]+$ ]] && [ "$first" -le "$last" ] &&
  [ "$last" -lt "$chunks" ] || usage
[ -x "$bin" ] || { echo "$0: $bin not found: build the tests first (scripts/test.sh)" >&2; exit 2; }
# A binary older than a source it is built from (the reference, the common code, the test) would
# put the code it was built from under another commit's name in the record: refused. (By mtime:
# a checkout that touches those files asks for a rebuild even where nothing changed; that is
# the cheap side to err on.)
newer=$(find "$root/reference" "$root/common" "$root/tests/reference/test_fast_reference_long.cpp" \
  "$root/tests/reference/fast_compare.hpp" -type f -newer "$bin" -print -quit 2> /dev/null || true)
[ -z "$newer" ] || {
  echo "$0: $bin is older than ${newer#"$root"/}: rebuild it first" \
    "(cmake --build ${build#"$root"/} --target test_fast_reference_long)" >&2
  exit 2
}
mkdir -p "$state"
touch "$state/done.txt" "$state/log.txt"

tmp=$(mktemp -d)
child=
trap 'rm -rf "$tmp"' EXIT
# Stopping the run stops the chunk's test too (and the EXIT trap then runs).
trap '[ -n "$child" ] && kill "$child" 2> /dev/null; exit 130' INT TERM
cp "$bin" "$tmp/test_fast_reference_long"
# What the binary was built from: HEAD, and whether the sources differ from it (the record's own
# directory aside), when the build directory was configured from this tree; else unknown.
# (The binary is taken as it is, once found newer than its sources above.)
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2> /dev/null || true)
if [ -n "$src" ] && [ "$src" -ef "$root" ] && git -C "$root" rev-parse -q HEAD > /dev/null 2>&1; then
  built_from=$(git -C "$root" rev-parse --short=12 HEAD)
  git -C "$root" diff --quiet HEAD -- . ':!records/fastref-every-input' ||
    built_from="$built_from+uncommitted"
else
  built_from=unknown
fi

# The two ends of chunk c as hex floats (python3's float.hex; +-inf spelled out).
ends() {
  python3 - "$1" <<'PY'
import struct, sys
c = int(sys.argv[1])
k0 = 0x00800000 + (c << 20)
k1 = min(k0 + (1 << 20) - 1, 0xff800000)
def value(k):
    d = k - 0x80000000
    bits = d if d >= 0 else 0x80000000 | -d
    x = struct.unpack('<f', struct.pack('<I', bits))[0]
    return {float('inf'): 'inf', float('-inf'): '-inf'}.get(x, float.hex(x))
print(value(k0), value(k1))
PY
}

status=0
for ((c = first; c <= last; c++)); do
  grep -qx "$c" "$state/done.txt" && continue
  read -r a b < <(ends "$c")
  echo "chunk $c [$a, $b] built from $built_from, start $(date -u +%FT%TZ)" >> "$state/log.txt"
  GELUCHECK_FASTREF_RANGE="$a:$b" GELUCHECK_FASTREF_FUNCTION=all \
    "$tmp/test_fast_reference_long" --gtest_filter='SubRange.*' > "$tmp/out" 2>&1 &
  child=$!
  if wait "$child"; then
    grep "compared with MPFR" "$tmp/out" | sed "s/^/chunk $c: /" >> "$state/log.txt"
    echo "$c" >> "$state/done.txt"
  else
    rc=$?
    mv "$tmp/out" "$state/chunk-$c.out"
    # The log names the output relative to itself (it is committed; no machine's path in it) and
    # keeps the exit status: 1 is a disagreement or a failed test, 128+N the test killed by signal N.
    failed="chunk $c FAILED (exit $rc; output: chunk-$c.out beside this log)"
    echo "$failed" >> "$state/log.txt"
    echo "$0: $failed in $state" >&2
    status=1
  fi
done
done_n=$(sort -un "$state/done.txt" | awk -v f="$first" -v l="$last" '$1 >= f && $1 <= l' | wc -l)
# Totals over the log: results compared, disagreements, fallbacks (the word before "inputs",
# "disagreements," and "fallbacks,"), each chunk's function counted once, by its last line: a
# chunk run again (after a change, or appended from another machine's log) replaces its earlier
# counts, so the totals are those of the record. Printed with %.0f, not %d: the whole range is
# 1.7e10 results, and Debian's mawk clamps %d to 2^31 - 1; awk's doubles are exact to 2^53.
read -r inputs bad fb < <(awk -F': ' '/compared with MPFR/ {
    key = $1 FS $2
    split($3, w, " ")
    for (i = 2; i in w; i++) {
      if (w[i] == "inputs") n[key] = w[i - 1]
      if (w[i] == "disagreements,") d[key] = w[i - 1]
      if (w[i] == "fallbacks,") f[key] = w[i - 1] } }
  END { for (k in n) { N += n[k]; D += d[k]; F += f[k] }
        printf "%.0f %.0f %.0f\n", N, D, F }' "$state/log.txt")
echo "$0: $done_n of $((last - first + 1)) chunks done in $state;" \
  "its log: $inputs results compared, $bad disagreements, $fb fallbacks"
exit $status
