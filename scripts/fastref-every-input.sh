#!/usr/bin/env bash
# The fast reference (ref::round_batch) against the MPFR path (enclose()) on EVERY binary32 input
# of the four functions, in 256 chunks that can run on one machine over days, or on many at once:
# chunk c holds the ordered keys [2^23 + c 2^24, 2^23 + (c+1) 2^24) clipped to +inf, that is the
# inputs from -inf upward in value order (chunk 0: -inf to -2^126; chunk 255: +inf alone). Each
# chunk is one run of test_fast_reference_long's SubRange.AgreesWithMpfr over all four functions
# (GELUCHECK_FASTREF_RANGE, GELUCHECK_FASTREF_FUNCTION=all), on every core.
#
#   scripts/fastref-every-input.sh STATE_DIR [FIRST [LAST]]
#
# STATE_DIR (created if missing) keeps what the runs found: done.txt lists finished chunks, one
# number a line; log.txt gets each chunk's range and its four result lines ("N inputs compared with
# MPFR, D disagreements, F fallbacks, T s"); chunk-C.out is the last run's full output of chunk C.
# A finished chunk is skipped, so an interrupted run resumes where it stopped, and several
# machines may each take a FIRST..LAST slice into their own STATE_DIR (concatenate the logs).
# Exit: 0 when every chunk in FIRST..LAST (default 0..255) is done without disagreement, 1 when a
# chunk found a disagreement or failed (its output stays in chunk-C.out), 2 on bad usage.
# Needs the build's test binary (GELUCHECK_BUILD_DIR, default build/; scripts/test.sh builds it).
# About 28 hours on 2 cores for all 256 chunks (docs/reference.md, "The fast reference").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GELUCHECK_BUILD_DIR:-$root/build}
bin="$build/tests/reference/test_fast_reference_long"
usage() { echo "usage: $0 STATE_DIR [FIRST [LAST]]  (chunks 0..255)" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
state=$1
first=${2:-0}
last=${3:-255}
[[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]+$ ]] && [ "$first" -le "$last" ] && [ "$last" -le 255 ] || usage
[ -x "$bin" ] || { echo "$0: $bin not found: build the tests first (scripts/test.sh)" >&2; exit 2; }
mkdir -p "$state"
touch "$state/done.txt" "$state/log.txt"

# The two ends of chunk c as hex floats (python3's float.hex; +-inf spelled out).
ends() {
  python3 - "$1" <<'PY'
import struct, sys
c = int(sys.argv[1])
k0 = 0x00800000 + (c << 24)
k1 = min(k0 + (1 << 24) - 1, 0xff800000)
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
  echo "chunk $c [$a, $b] start $(date -u +%FT%TZ)" >> "$state/log.txt"
  if GELUCHECK_FASTREF_RANGE="$a:$b" GELUCHECK_FASTREF_FUNCTION=all \
       "$bin" --gtest_filter='SubRange.*' > "$state/chunk-$c.out" 2>&1; then
    grep "compared with MPFR" "$state/chunk-$c.out" | sed "s/^/chunk $c: /" >> "$state/log.txt"
    echo "$c" >> "$state/done.txt"
  else
    echo "chunk $c FAILED (output: $state/chunk-$c.out)" | tee -a "$state/log.txt" >&2
    status=1
  fi
done
done_n=$(sort -un "$state/done.txt" | awk -v f="$first" -v l="$last" '$1 >= f && $1 <= l' | wc -l)
# Totals over the whole log: results compared and disagreements (the field before "inputs" and
# before "disagreements").
read -r inputs bad < <(awk '/compared with MPFR/ {
    for (i = 2; i <= NF; i++) { if ($i == "inputs") n += $(i - 1); if ($i == "disagreements,") d += $(i - 1) } }
  END { printf "%d %d\n", n, d }' "$state/log.txt")
echo "$0: $done_n of $((last - first + 1)) chunks done in $state; its log: $inputs results compared, $bad disagreements"
exit $status
