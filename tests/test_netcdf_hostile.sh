#!/usr/bin/env bash
# Untrusted NetCDF input: the files of the NetCDF fuzz target's corpus
# (tests/fuzz/corpus/netcdf, made by tests/tools/netcdf_craft.py) through
# compare, run --initial and plot. The valid ones (heat2d's field and series
# in f64, f32 and deflated; a CDF5 series; a 64-bit-offset field) read back
# their values; each crafted one is refused in the same one line by the
# three commands: a step variable longer than u's records, a record count
# the file cannot hold (2^61 in a CDF5 header, one step at record 2^27 of a
# NetCDF-4 file, under a few hundred MB of address space), records whose
# field was never written, changed header bytes on which the library
# crashes or hangs; and a record index that is no step.
# usage: test_netcdf_hostile.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
corpus=$(cd "$(dirname "$0")/fuzz/corpus/netcdf" && pwd)
h=$bin/heat2d
need_netcdf "$h"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
cp "$corpus"/*.nc .
sanitized=false
is_sanitized "$h" && sanitized=true
exact=(--atol 0 --rtol 0)
# A run that would hang (a reader that never answers) fails the test instead.
limit=(timeout 60)

# ---- valid files read back their values -------------------------------------------------------
text_field() { # text_field NX NY VALUE: a field file of one value
  echo "$1 $2"
  for _ in $(seq $(($1 * $2))); do printf '%24.16E\n' "$3"; done
}
text_field 8 6 0.5 >half.dat
text_field 8 6 0.75 >three_quarters.dat
"$h" run --method cpu --nx 5 --ny 5 --steps 2 --save f64.dat >/dev/null
"$h" run --method cpu --nx 5 --ny 5 --steps 2 --precision f32 --save f32.dat >/dev/null
run "${limit[@]}" "$h" compare f64.dat field_f64.nc series_f64.nc:2 series_deflate.nc:2 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "heat2d's f64 field, series record and deflated record"
run "${limit[@]}" "$h" compare f32.dat field_f32.nc series_f32.nc:2 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "heat2d's f32 field and series record"
run "${limit[@]}" "$h" compare half.dat field_classic.nc torn.nc:1 torn.nc:3 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "a classic field; a torn series' whole records"
run "${limit[@]}" "$h" compare three_quarters.dat series_cdf5.nc:3 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "a CDF5 series' record"
run "${limit[@]}" "$h" run --method cpu --steps 1 --initial series_f64.nc:2 --save from_series.dat
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/FIELD_FILE=from_series.dat" "run --initial a series' record"

# ---- crafted files: one line, the same from each command ---------------------------------------
# refused SPEC WHY: compare, run --initial and plot each refuse SPEC with the
# line "heat2d: CMD: WHY", and plot draws nothing.
refused() {
  rm -f pic.*
  expect_failure 1 "heat2d: compare: $2" "${limit[@]}" "$h" compare "$1" "$1"
  expect_failure 1 "heat2d: run: --initial: $2" "${limit[@]}" "$h" run --method cpu --steps 1 --initial "$1"
  expect_failure 1 "heat2d: plot: $2" "${limit[@]}" "$h" plot "$1" --out pic
  expect_eq "$(ls pic.* 2>/dev/null || true)" "" "plot $1: no picture"
}
forged="a damaged or forged header"
refused long_step.nc:2 "long_step.nc: 'step' lies on dimension 'n', not on u's records ('time'): not heat2d's"
refused long_step.nc "long_step.nc: 'step' lies on dimension 'n', not on u's records ('time'): not heat2d's"
refused records_2p61.nc:2 "records_2p61.nc claims 2305843009213693952 records, more than its 1420 bytes can hold ($forged)"
refused records_2p61.nc "records_2p61.nc claims 2305843009213693952 records, more than its 1420 bytes can hold ($forged)"
refused step_2p27.nc:5 "step_2p27.nc claims 134217729 records, more than its 20554 bytes can hold ($forged)"
torn="the record of step 2 was cut short"
refused torn.nc:2 "torn.nc: $torn (its field was never written)"
# plot draws a series named whole: each of its records is checked.
rm -f pic.*
expect_failure 1 "heat2d: plot: torn.nc: $torn (its field was never written)" "${limit[@]}" "$h" plot torn.nc --out pic
refused torn_extent.nc:2 "torn_extent.nc: $torn (its field was never written)"
refused torn_classic.nc:2 "torn_classic.nc: $torn (cell (0, 0) was never written)"

# The forged counts cost neither time nor memory: refused in a second under
# 300 MB of address space (not in a sanitizer build, which reserves more).
if ! $sanitized; then
  for spec in step_2p27.nc:5 records_2p61.nc:2; do
    run timeout 10 bash -c "ulimit -v 300000; exec '$h' compare $spec $spec"
    expect_eq "$rc/$err" "1/heat2d: compare: ${spec%%:*} claims $([ "$spec" = step_2p27.nc:5 ] &&
      echo "134217729 records, more than its 20554" ||
      echo "2305843009213693952 records, more than its 1420") bytes can hold ($forged)" \
      "$spec under ulimit -v 300000"
  done
  run timeout 10 bash -c "ulimit -v 300000; exec '$h' compare half.dat torn.nc:1 series_cdf5.nc:2 --atol 0 --rtol 0"
  expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "whole records read under ulimit -v 300000"
fi

# ---- header bytes the library crashes or hangs on ----------------------------------------------
# (series_8x6.nc with one byte changed.) The exact cause where ncdump, the
# library's own tool, dies the same way here; in a sanitizer build, whose
# checks may stop the library in the child first (ending it with their own
# status, after their report), the last line is heat2d's and the cause any.
# library_refused SPEC CAUSE: each command's last line names SPEC's file as
# not valid NetCDF, for CAUSE.
library_refused() {
  local file=${1%%:*} cmd line what
  rm -f pic.*
  for cmd in compare run plot; do
    what="$cmd:"
    case $cmd in
    compare) run "${limit[@]}" "$h" compare "$1" "$1" ;;
    run) run "${limit[@]}" "$h" run --method cpu --steps 1 --initial "$1" && what="run: --initial:" ;;
    plot) run "${limit[@]}" "$h" plot "$1" --out pic ;;
    esac
    line="heat2d: $what cannot read field file '$file': not a valid NetCDF file ($2)"
    expect_rc 1 "$cmd $1"
    if ! $sanitized; then
      expect_eq "$err" "$line" "$cmd $1: one line"
    else
      expect_eq "$(tail -n 1 <<<"$err" | sed 's/NetCDF file (.*/NetCDF file (/')" "${line%%NetCDF file (*}NetCDF file (" \
        "$cmd $1: the last line"
    fi
  done
  expect_eq "$(ls pic.* 2>/dev/null || true)" "" "plot $1: no picture"
}
# dump_status FILE: how `ncdump -h FILE` ends (124: it hung)
dump_status() { bash -c 'timeout 5 ncdump -h "$1" >/dev/null 2>&1; echo $?' _ "$1" 2>/dev/null; }
for f in crash_at_4438.nc crash_at_4412.nc; do
  dump=$(dump_status "$f")
  if [ "$dump" = 139 ]; then
    library_refused "$f:1" "the NetCDF library crashed reading it: Segmentation fault"
  else
    # Another library, which does not crash here: any one line of refusal.
    run "${limit[@]}" "$h" compare "$f:1" "$f:1"
    expect_eq "$rc/$(grep -c '' <<<"$err")" "1/1" "$f: one line (ncdump -h exits $dump here)"
  fi
done
export HEAT2D_NETCDF_TIMEOUT=1
dump=$(dump_status hang_at_4409.nc)
if [ "$dump" = 124 ]; then
  library_refused hang_at_4409.nc:1 "the NetCDF library made no progress on it in 1 s"
else
  run "${limit[@]}" "$h" compare hang_at_4409.nc:1 hang_at_4409.nc:1
  expect_eq "$rc/$(grep -c '' <<<"$err")" "1/1" "hang_at_4409.nc: one line (ncdump -h exits $dump here)"
fi
expect_failure 1 "heat2d: compare: HEAT2D_NETCDF_TIMEOUT must be a positive number of seconds, got 'soon'" \
  env HEAT2D_NETCDF_TIMEOUT=soon "$h" compare series_f64.nc:1 series_f64.nc:2
unset HEAT2D_NETCDF_TIMEOUT

# ---- a record index that is no step -------------------------------------------------------------
bad() { echo "series_f64.nc:$1: bad record index '$1' (FILE.nc:STEP takes a step: digits, 0 to 18446744073709551615; FILE.nc:VAR a variable's name)"; }
for index in -1 1.5 "" 99999999999999999999999; do
  expect_failure 1 "heat2d: compare: $(bad "$index")" "$h" compare f64.dat "series_f64.nc:$index"
done
expect_failure 1 "heat2d: run: --initial: $(bad -1)" "$h" run --method cpu --steps 1 --initial series_f64.nc:-1
# Not digits, a name: a variable (FILE.nc:VAR), which this file lacks.
expect_failure 1 "heat2d: compare: series_f64.nc: no variable 'abc'" "$h" compare f64.dat series_f64.nc:abc
expect_failure 1 "heat2d: run: --initial: series_f64.nc: no variable 'abc'" \
  "$h" run --method cpu --steps 1 --initial series_f64.nc:abc
# A text field whose very name has a colon after ".nc" is still read.
cp half.dat "odd.nc:x"
run "$h" compare half.dat "odd.nc:x" "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "a text field named odd.nc:x"
finish
