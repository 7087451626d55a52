#!/usr/bin/env bash
# heat2d compare says where a person looks first: the worst cell as (i, j),
# 0-based, the two values there and the RMS difference over every cell, on
# the FILE= line after the original's keys (which stay as they were).
# usage: test_compare_report.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
h=$1/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"

# field NX NY "I,J=V ..." > FILE: all 0 but the cells named (i fastest).
field() {
  awk -v nx="$1" -v ny="$2" -v cells="$3" 'BEGIN {
    n = split(cells, c, " ")
    for (k = 1; k <= n; ++k) { split(c[k], p, "="); split(p[1], ij, ","); v[ij[2] * nx + ij[1]] = p[2] }
    print nx, ny
    for (x = 0; x < nx * ny; ++x) print (x in v) ? v[x] : 0
  }'
}
# 7 by 6, so that i and j cannot be swapped unseen: two cells differ, by
# 0.4 at (5, 2) (the worst) and by 0.3 at (1, 3).
field 7 6 "5,2=1 1,3=0.5 3,3=2" >ref.dat
field 7 6 "5,2=0.6 1,3=0.8 3,3=2" >cand.dat
rms=$(awk 'BEGIN { printf "%.6e", sqrt((0.4 ^ 2 + 0.3 ^ 2) / (7 * 6)) }')
run "$h" compare ref.dat cand.dat
expect_eq "$rc/$err" "1/heat2d: COMPARE=FAIL: full-field numerical differences" "two cells differ: FAIL"
expect_eq "$out" "FILE=cand.dat MAX_ABS_DIFF=4.000000e-01 WORST_INDEX=19 FAILURES=2 WORST_I=5 WORST_J=2 REF_VALUE=1 CAND_VALUE=0.6 RMS_DIFF=$rms" \
  "the worst cell (5, 2), both values there, the RMS ($rms) of the two differences"

# The same cell named whichever side is the reference; an equal candidate
# has RMS 0 and its worst cell the first; one line per candidate.
run "$h" compare cand.dat ref.dat ref.dat
expect_count "^FILE=ref.dat MAX_ABS_DIFF=4.000000e-01 WORST_INDEX=19 FAILURES=2 WORST_I=5 WORST_J=2 REF_VALUE=0.6 CAND_VALUE=1 RMS_DIFF=$rms\$" 2 \
  "the reference's value first, each candidate on its own line"
run "$h" compare ref.dat ref.dat
expect_eq "$rc/$out" "0/FILE=ref.dat MAX_ABS_DIFF=0.000000e+00 WORST_INDEX=0 FAILURES=0 WORST_I=0 WORST_J=0 REF_VALUE=0 CAND_VALUE=0 RMS_DIFF=0.000000e+00
COMPARE=PASS" "equal fields: RMS 0, COMPARE=PASS unchanged"

# A difference in the last bits: values printed so that they read back
# exactly (not rounded to look equal).
field 7 6 "6,5=0.1" >a.dat
field 7 6 "6,5=0.10000000000000002" >b.dat
run "$h" compare a.dat b.dat
expect_out_has "WORST_I=6 WORST_J=5 REF_VALUE=0.1 CAND_VALUE=0.10000000000000002 RMS_DIFF=" \
  "values that differ in their last bit shown apart"
finish
