#!/usr/bin/env bash
# NetCDF input read by its names and CF attributes (the files are
# tests/fuzz/corpus/netcdf's, made by tests/tools/netcdf_craft.py): u(y, x),
# u(x, y), a short u packed with scale_factor, a variable h named as
# FILE.nc:VAR, a series hs as FILE.nc:VAR:STEP, a one-record u(time, y,
# x) without a step variable (FILE.nc, FILE.nc:0) all read as the same
# field, bit for bit, in compare, in run --initial (the same run, NX and NY
# the field's) and in plot's reader; a 3-D or mis-named variable, text, a
# cell holding _FillValue or missing_value, or outside its valid_range,
# valid_min or valid_max (its (i, j) named), an _Unsigned neither true nor
# false, a series with a step twice, a step past 2^53, a record whose step
# holds the step's _FillValue, a variable the file lacks: each refused in
# one line, the same from compare, run --initial and plot. A short with
# _Unsigned "true" reads its raw values unsigned. Coordinates are honoured:
# north-up, south-up, a reversed x in u(x, y) and km are one field and one
# run, bit for bit, dx from them (a different --dx refused); uneven spacing
# (the worst step named), degrees, unknown units and oblong cells refused.
# usage: test_netcdf_inputs.sh BIN_DIR SOURCE_DIR
set -e
bin=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"
# pictures: stdout without the SCALE= line heat2d plot prints first.
pictures() { grep -v '^SCALE=' <<<"$out" || true; }
h=$bin/heat2d
need_netcdf "$h"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
for f in field_yx field_xy packed named fill missing three_d misnamed text_u twice unsigned \
  unsigned_bad valid_range valid_min valid_max step_fill step_2p53; do
  cp "$src/tests/fuzz/corpus/netcdf/$f.nc" .
done
exact=(--atol 0 --rtol 0)
refused() { # refused SPEC WHY: one line, the same from each command
  expect_failure 1 "heat2d: compare: $2" "$h" compare "$1" "$1"
  expect_failure 1 "heat2d: run: --initial: $2" "$h" run --method cpu --steps 1 --initial "$1"
  expect_failure 1 "heat2d: plot: $2" "$h" plot "$1" --out pic
}

# ---- one field, five spellings ------------------------------------------------------------------
run "$h" compare field_yx.nc field_xy.nc packed.nc named.nc:h named.nc:hs:0 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "u(y, x), u(x, y), packed, h and hs:0 are one field"
expect_eq "$(grep -c 'FAILURES=0' <<<"$out")" 4 "each of the four is the first, bit for bit"
# The field's cell (i, j) is (i + 10 j) / 1000: (3, 2) is 0.023, not (2, 3)'s 0.032.
printf '8 6\n' >want.dat
for j in 0 1 2 3 4 5; do
  for i in 0 1 2 3 4 5 6 7; do
    if [ $i = 0 ] || [ $j = 0 ] || [ $i = 7 ] || [ $j = 5 ]; then v=0; else v=$((i + 10 * j)); fi
    awk -v v="$v" 'BEGIN {printf "%24.16E\n", v * 0.001}'
  done
done >>want.dat
run "$h" compare want.dat field_xy.nc packed.nc --atol 1e-15 --rtol 0
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "cell (i, j) holds (i + 10 j) / 1000, i along x"
run "$h" compare named.nc:hs:5 field_yx.nc
expect_rc 1 "hs:5 is twice the field, not it"
# A short with _Unsigned "true": its raw values past 32767 unsigned, then
# unpacked (40000 + (i + 10 j)) * 0.001 - 40, the field to rounding.
run "$h" compare want.dat unsigned.nc --atol 1e-12 --rtol 0
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "_Unsigned: the raw shorts read unsigned"
# A series whose step has _FillValue 10: its other records read.
run "$h" compare field_yx.nc step_fill.nc:0 "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "step_fill.nc's record of step 0"

# ---- run --initial: the same run from each ------------------------------------------------------
for spec in field_yx.nc field_xy.nc packed.nc named.nc:h named.nc:hs:0; do
  run "$h" run --method cpu --steps 10 --initial "$spec" --save "run_${spec//:/_}.dat"
  expect_eq "$rc/$(key NX)/$(key NY)" "0/8/6" "run --initial $spec: the field's shape, 8x6"
done
run "$h" compare run_field_yx.nc.dat run_field_xy.nc.dat run_packed.nc.dat run_named.nc_h.dat \
  run_named.nc_hs_0.dat "${exact[@]}"
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "the same run from each spelling"

# ---- the usual one-record file: u(time, y, x), time of length 1, no step variable -----------------
# (as xarray and most models write one state), and a series of one record
# named without its step: each is its one record.
cdl() { # cdl NAME STEPVAR: u(time, y, x) of one record, field_yx's values, a step variable or not
  { echo "netcdf $1 { dimensions: time = 1 ; y = 6 ; x = 8 ;"
    echo "variables: double time(time) ; double u(time, y, x) ; $2"
    echo "data: time = 3600 ; u = "
    ncdump -p 9,17 -v u field_yx.nc | sed -n '/^ u =/,/;/p' | sed 's/^ u =//'
    [ -z "$2" ] || echo " step = 7 ;"
    echo "}"; } | ncgen -4 -o "$1.nc"
}
cdl one ""
cdl one_series "int step(time) ;"
for spec in one.nc one.nc:0 one_series.nc one_series.nc:7; do
  run "$h" compare field_yx.nc "$spec" "${exact[@]}"
  expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "$spec is its one record, field_yx's values"
  run "$h" run --method cpu --steps 10 --initial "$spec" --save "one_${spec//:/_}.dat"
  expect_eq "$rc/$(key NX)/$(key NY)" "0/8/6" "run --initial $spec: its record's shape"
  expect_eq "$(cmp one_"${spec//:/_}".dat run_field_yx.nc.dat && echo same)" same "run --initial $spec: the same run"
done
run "$h" run --method cpu --steps 10 --initial one_series.nc
expect_eq "$(key FIRST_STEP)" 7 "a series of one record named whole continues its clock"
expect_failure 1 "heat2d: run: --initial: one.nc holds one record and no 'step' variable: name it one.nc or one.nc:0, not :3" \
  "$h" run --method cpu --steps 1 --initial one.nc:3

# ---- coordinates honoured ----------------------------------------------------------------------
# field_yx's values with coordinate variables: y ascending (south-up) or
# descending (north-up, as GDAL writes), x descending in a u(x, y); each
# the same field, and the same run, bit for bit; metres become dx.
values=$(ncdump -p 9,17 -v u field_yx.nc | sed -n '/^ u =/,/;/p' | sed 's/^ u =//; s/;//' | tr -d ' \n' | tr ',' ' ')
grid_cdl() { # grid_cdl NAME XS YS UNITS ORDER(yx|yx-north|xy-west): a field with coordinates
  { echo "netcdf $1 { dimensions: y = 6 ; x = 8 ;"
    echo "variables: double x(x) ; x:units = \"$4\" ; double y(y) ; y:units = \"$4\" ;"
    case $5 in xy*) echo "double u(x, y) ;" ;; *) echo "double u(y, x) ;" ;; esac
    echo "data: x = $2 ; y = $3 ; u = "
    awk -v order="$5" '{ for (k = 1; k <= NF; ++k) v[k - 1] = $k
      n = 0
      if (order == "yx") for (j = 0; j < 6; ++j) for (i = 0; i < 8; ++i) out[n++] = v[j * 8 + i]
      if (order == "yx-north") for (j = 5; j >= 0; --j) for (i = 0; i < 8; ++i) out[n++] = v[j * 8 + i]
      if (order == "xy-west") for (i = 7; i >= 0; --i) for (j = 0; j < 6; ++j) out[n++] = v[j * 8 + i]
      for (k = 0; k < n; ++k) printf "%s%s", out[k], (k < n - 1 ? ", " : " ;\n") }' <<<"$values"
    echo "}"; } | ncgen -4 -o "$1.nc"
}
xs="5, 15, 25, 35, 45, 55, 65, 75"
grid_cdl south "$xs" "5, 15, 25, 35, 45, 55" m yx
grid_cdl north "$xs" "55, 45, 35, 25, 15, 5" m yx-north
grid_cdl west "75, 65, 55, 45, 35, 25, 15, 5" "5, 15, 25, 35, 45, 55" m xy-west
grid_cdl south_km "0.005, 0.015, 0.025, 0.035, 0.045, 0.055, 0.065, 0.075" "0.005, 0.015, 0.025, 0.035, 0.045, 0.055" km yx
run "$h" compare field_yx.nc south.nc north.nc west.nc south_km.nc "${exact[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "north-up, south-up and west-east reversed: one field"
for f in south north west south_km; do
  run "$h" run --method cpu --steps 10 --initial $f.nc --save "grid_$f.dat"
  expect_eq "$rc/$(key DX)" "0/1.0000000000000000E+01" "run --initial $f.nc: dx from its coordinates, 10 m"
done
for f in north west south_km; do
  expect_eq "$(cmp grid_south.dat grid_$f.dat && echo same)" same "$f.nc runs as south.nc, bit for bit"
done
expect_failure 2 "heat2d: run: --initial north.nc holds dx = 10, the command line gives dx = 5 (--dx): leave it out to continue with the file's, or give --change-physics to run with the command line's" \
  "$h" run --method cpu --steps 1 --initial north.nc --dx 5
grid_cdl uneven "5, 15, 25, 35, 48, 55, 65, 75" "5, 15, 25, 35, 45, 55" m yx
grid_cdl lonlat "5, 15, 25, 35, 45, 55, 65, 75" "5, 15, 25, 35, 45, 55" degrees_east yx
grid_cdl feet "$xs" "5, 15, 25, 35, 45, 55" ft yx
grid_cdl oblong "$xs" "10, 30, 50, 70, 90, 110" m yx
refused uneven.nc "uneven.nc: its coordinate 'x' is not evenly spaced: 13 between x[3] = 35 and x[4] = 48, against 10 on average (heat2d's grid is uniform: each step within 0.0001 of the mean, relative)"
refused lonlat.nc "lonlat.nc: its coordinate 'x' is in degrees (units \"degrees_east\"): heat2d computes on a plane in metres; project the field onto a metre grid first (e.g. gdalwarp -t_srs EPSG:32633 -of netCDF lonlat.nc out.nc, UTM zone 33N)"
refused feet.nc "feet.nc: its coordinate 'x' has units \"ft\", which heat2d does not read: give it in m (or km), or in cells (units \"1\")"
refused oblong.nc "oblong.nc: its cells are 10 m along 'x' and 20 m along 'y': heat2d's cells are square (one dx)"
# A heat2d file whose dx attribute another tool left behind its coordinates.
"$h" run --method cpu --nx 8 --ny 6 --steps 2 --dx 10 --save own10.nc >/dev/null
ncdump own10.nc | sed 's/^\([[:space:]]*:dx = \)10\. ;/\15. ;/' | ncgen -4 -o relabelled.nc
refused relabelled.nc "relabelled.nc: its dx attribute is 5 m but its coordinates are 10 m apart: make them agree first (e.g. ncatted -O -a dx,global,o,d,10 relabelled.nc)"

# ---- plot reads through heat2d's reader ---------------------------------------------------------
py=$(matplotlib_python)
if [ -n "$py" ]; then
  run env HEAT2D_READER="$h" "$py" -c '
import sys
sys.path.insert(0, sys.argv[1])
import numpy, plot_bench
fields = [plot_bench.read_spec(s)[0] for s in sys.argv[2:]]
print(fields[0].shape, float(fields[0].max()), all(numpy.array_equal(fields[0], f) for f in fields))' \
    "$src/tools" field_yx.nc field_xy.nc packed.nc named.nc:h named.nc:hs:0
  expect_eq "$rc/$out" "0/(6, 8) 0.046 True" "plot's reader: each spelling the same 6 rows of 8, max 0.046"
  run "$h" plot field_xy.nc --out xy
  expect_eq "$rc/$(pictures)" "0/PLOT=xy.png" "plot draws u(x, y)"
  run "$h" plot named.nc:hs
  expect_eq "$rc/$(pictures)" $'0/PLOT=named_hs.gif\nPLOT=named_hs.png' "plot draws the series named.nc:hs"
else
  echo "test_netcdf_inputs: no python with matplotlib: plot's reading not tried" >&2
fi

# ---- refusals: one line, the same from each command ----------------------------------------------
dims="a field is u(y, x) or u(x, y), a series u(time, y, x) or u(time, x, y)"
refused misnamed.nc "misnamed.nc: 'u' has 2 dimensions (a, b): $dims"
refused three_d.nc "three_d.nc: 'u' has dimensions (z, y, x) and the file no 'step' variable: not a field (y, x) or (x, y), nor a heat2d series"
refused three_d.nc:1 "three_d.nc: 'u' has dimensions (z, y, x) and the file no 'step' variable: not a field (y, x) or (x, y), nor a heat2d series"
refused text_u.nc "text_u.nc: 'u' holds characters, not numbers (integers or reals)"
refused fill.nc "fill.nc: cell (3, 2) of 'u' holds its _FillValue -999: a missing value, which heat2d does not read"
refused missing.nc "missing.nc: cell (4, 1) of 'u' holds its missing_value 1e+20: a missing value, which heat2d does not read"
missing="a missing value, which heat2d does not read"
refused valid_range.nc "valid_range.nc: cell (1, 4) of 'u' holds 0.041, outside its valid_range 0 to 0.04: $missing"
refused valid_min.nc "valid_min.nc: cell (2, 3) of 'u' holds -1, below its valid_min 0: $missing"
refused valid_max.nc "valid_max.nc: cell (6, 4) of 'u' holds 0.046, above its valid_max 0.045: $missing"
refused unsigned_bad.nc "unsigned_bad.nc: the _Unsigned of 'u' is 'yes', not true or false"
# A record whose step holds the step variable's _FillValue has no step.
refused step_fill.nc:10 "step_fill.nc holds no record of step 10 (2 records, steps 0 to 20)"
refused step_2p53.nc:0 "step_2p53.nc: record 1 holds step 9007199254740994, past 2^53 (9007199254740992), where steps are no longer told apart: not heat2d's"
refused twice.nc:10 "twice.nc holds step 10 twice (records 1 and 2)"
refused twice.nc:0 "twice.nc holds step 10 twice (records 1 and 2)"
refused named.nc "named.nc: no variable 'u' (not a heat2d field: name its variable as named.nc:VAR)"
refused named.nc:v "named.nc: no variable 'v'"
refused named.nc:hs:3 "named.nc holds no record of step 3 (2 records, steps 0 to 5)"
refused named.nc:h:x "named.nc:h:x: bad record index 'x' (FILE.nc:VAR:STEP takes a step: digits, 0 to 18446744073709551615)"
expect_failure 1 "heat2d: compare: named.nc:hs is a series of 2 records: name one as named.nc:hs:STEP" \
  "$h" compare named.nc:hs named.nc:hs
expect_eq "$(ls pic.* 2>/dev/null || true)" "" "no refused input left a picture"
finish
