#!/usr/bin/env bash
# scripts/fastref-every-input.sh as a user runs it, on two cheap chunks into a scratch state
# directory: bad usage exits 2, and so does a test binary older than its sources; chunk 4080
# (+inf alone) and chunk 0 (-inf up to -0x1.e00002p+127) are compared and logged with their counts
# (1 and 2^20 inputs a function); a second run skips what is done and appends nothing; the totals line sums the log, a chunk run twice once, exactly
# past 2^31. And the sub-range test the chunks run counts -0 as an input of its own when the
# range holds 0 (so the 4081 chunks cover all 2^32 - 2^24 + 2 non-NaN inputs): [-2^-149, 2^-149]
# is 4 inputs.
#   fastref_script_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
export GELUCHECK_BUILD_DIR=$2
script="$src/scripts/fastref-every-input.sh"
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for args in "$state 5 4" "$state 0 4081" "$state x" "$state 1 2 3 4"; do
  # shellcheck disable=SC2086 # the arguments are meant to split
  if "$script" $args > /dev/null 2>&1; then fail "accepted: $args"; else rc=$?; fi
  [ "$rc" -eq 2 ] || fail "exit $rc (not 2) for: $args"
done

# A test binary older than its sources is refused (exit 2, the source named), nothing logged: a
# copy of it dated 1970 in a build directory of its own.
stale=$(mktemp -d)
trap 'rm -rf "$state" "$stale"' EXIT
mkdir -p "$stale/tests/reference"
cp "$GELUCHECK_BUILD_DIR/tests/reference/test_fast_reference_long" "$stale/tests/reference/"
touch -d @0 "$stale/tests/reference/test_fast_reference_long"
if out=$(GELUCHECK_BUILD_DIR=$stale "$script" "$state" 4080 4080 2>&1); then rc=0; else rc=$?; fi
[ "$rc" -eq 2 ] || fail "exit $rc (not 2) for a binary older than its sources: $out"
case $out in *"is older than "*"rebuild it first"*) ;; *) fail "stale binary message: $out" ;; esac
[ ! -s "$state/log.txt" ] || fail "a stale binary's run logged: $(cat "$state/log.txt")"

"$script" "$state" 4080 4080 > /dev/null
[ "$(cat "$state/done.txt")" = 4080 ] || fail "done.txt after chunk 4080: $(cat "$state/done.txt")"
grep -q '^chunk 4080 \[inf, inf\] built from [0-9a-f+a-z]*, start ' "$state/log.txt" ||
  fail "no start line for chunk 4080"
[ "$(grep -c '^chunk 4080: .*: 1 inputs compared with MPFR, 0 disagreements, 0 fallbacks' \
      "$state/log.txt")" -eq 4 ] || fail "chunk 4080's four result lines"

"$script" "$state" 0 0 > /dev/null
[ "$(grep -c '^chunk 0: .*: 1048576 inputs compared with MPFR, 0 disagreements, 0 fallbacks' \
      "$state/log.txt")" -eq 4 ] || fail "chunk 0's four result lines"

before=$(wc -l < "$state/log.txt")
out=$("$script" "$state" 4080 4080)
[ "$(wc -l < "$state/log.txt")" -eq "$before" ] || fail "a done chunk was run again"
case $out in
  *"1 of 1 chunks done"*"4194308 results compared, 0 disagreements, 0 fallbacks"*) ;;
  *) fail "totals line: $out" ;;
esac
# The whole range's log sums to 1.7e10 results, past what awk's %d prints (2^31 - 1 in Debian's
# mawk): a line of 2^32 + 1 results must add exactly. The same chunk and function logged again
# (a chunk run twice) counts once, by its last line: the first line's 7 disagreements and 5
# fallbacks are replaced.
{
  echo "chunk 1: tanh value: 3 inputs compared with MPFR, 7 disagreements, 5 fallbacks, 0 s"
  echo "chunk 1: tanh value: 4294967297 inputs compared with MPFR, 0 disagreements, 0 fallbacks, 0 s"
} >> "$state/log.txt"
out=$("$script" "$state" 4080 4080)
case $out in
  *"4299161605 results compared, 0 disagreements, 0 fallbacks"*) ;;
  *) fail "totals line past 2^31 or with a chunk run twice: $out" ;;
esac
zero=$(GELUCHECK_FASTREF_RANGE=-0x1p-149:0x1p-149 GELUCHECK_FASTREF_FUNCTION=all \
  "$GELUCHECK_BUILD_DIR/tests/reference/test_fast_reference_long" --gtest_filter='SubRange.*')
[ "$(grep -c ': 4 inputs compared with MPFR, 0 disagreements' <<< "$zero")" -eq 4 ] ||
  fail "[-2^-149, 2^-149] is not 4 inputs a function (-0 left out?): $zero"
echo "fastref-every-input.sh: usage, two chunks, resume, totals and -0 as documented"
