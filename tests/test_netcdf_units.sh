#!/usr/bin/env bash
# Physical units and CF files: --dx 10 --dt 0.5 --diffusivity 2 runs with
# alpha = D*dt/dx^2 = 0.01, prints DX, DT, DIFFUSIVITY and ALPHA, and writes
# a series whose x and y are in metres, whose time is 0, 0.5*K, ... seconds
# since a stated reference (CF), whose step is a 32-bit integer variable,
# with long_name and units on every variable and dx, dt, diffusivity
# attributes; its records equal, bit for bit, those of the same run given
# --alpha 0.01. Without --dt a step takes 1 s; without --dx x and y count
# cells. The refusals' exact lines: an unstable alpha (with the largest
# stable dt), --alpha beside --diffusivity, --diffusivity without --dx or
# --dt, a value that is no positive number, a series past 2^31-1 steps, a
# diffusivity, coordinate or time that overflows (never written).
# usage: test_netcdf_units.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
h=$bin/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
exact=(--atol 0 --rtol 0)
r() { echo "heat2d: run: $*"; }
small=(run --method cpu --nx 8 --ny 8 --steps 2)

# ---- refusals (any build) ----------------------------------------------------------------------
expect_failure 2 "$(r "--diffusivity 2 --dx 10 --dt 30: alpha = D*dt/dx^2 = 0.6 is unstable (explicit 5-point diffusion needs alpha <= 1/4): the largest stable dt is dx^2/(4 D) = 12.5 s")" \
  "$h" "${small[@]}" --dx 10 --dt 30 --diffusivity 2
# The dt a refusal suggests works when given back: rounded down to what it
# prints (D 7, dx 1: dx^2/(4 D) = 0.03571428..., which the nearest rounding
# would print as 0.0357143, itself unstable), and alpha and the values
# echoed in full (0.2500001, never 0.25).
expect_failure 2 "$(r "--diffusivity 7 --dx 1 --dt 1: alpha = D*dt/dx^2 = 7 is unstable (explicit 5-point diffusion needs alpha <= 1/4): the largest stable dt is dx^2/(4 D) = 0.0357142 s")" \
  "$h" "${small[@]}" --dx 1 --dt 1 --diffusivity 7
expect_failure 2 "$(r "--diffusivity 1 --dx 1 --dt 0.2500001: alpha = D*dt/dx^2 = 0.2500001 is unstable (explicit 5-point diffusion needs alpha <= 1/4): the largest stable dt is dx^2/(4 D) = 0.25 s")" \
  "$h" "${small[@]}" --dx 1 --dt 0.2500001 --diffusivity 1
for given in "7 1" "3 0.1" "123456789012 1" "0.7 3.3" "1 1e-160"; do
  read -r d dx <<<"$given"
  run "$h" "${small[@]}" --dx "$dx" --dt 1e9 --diffusivity "$d"
  best=$(sed -n 's/.*the largest stable dt is dx^2\/(4 D) = \(.*\) s$/\1/p' <<<"$err")
  run "$h" "${small[@]}" --dx "$dx" --dt "$best" --diffusivity "$d"
  expect_eq "$rc/$err" "0/" "D $d, dx $dx: the suggested dt '$best' runs when given back"
done
# A bound that is no number a dt can be: its own line, never "= 0 s".
expect_failure 2 "$(r "--diffusivity 1e+308 --dx 1 --dt 1: alpha = D*dt/dx^2 = 1e+308 is unstable, and no dt is stable in double precision: the bound dx^2/(4 D) is 0 (4 D overflows); give dx and D in units nearer 1")" \
  "$h" "${small[@]}" --dx 1 --dt 1 --diffusivity 1e308
expect_failure 2 "$(r "--diffusivity 1 --dx 1e-200 --dt 1: alpha = D*dt/dx^2 = inf is unstable, and no dt is stable in double precision: the bound dx^2/(4 D) is 0 (dx^2 underflows to 0); give dx and D in units nearer 1")" \
  "$h" "${small[@]}" --dx 1e-200 --dt 1 --diffusivity 1
expect_failure 2 "$(r "--alpha and --diffusivity are two forms of one number (alpha = D*dt/dx^2): give one")" \
  "$h" "${small[@]}" --dx 10 --dt 0.5 --diffusivity 2 --alpha 0.01
expect_failure 2 "$(r "--diffusivity needs --dx and --dt (alpha = D*dt/dx^2)")" \
  "$h" "${small[@]}" --dx 10 --diffusivity 2
expect_failure 2 "$(r "--diffusivity needs --dx and --dt (alpha = D*dt/dx^2)")" \
  "$h" "${small[@]}" --dt 0.5 --diffusivity 2
for bad in 0 -1 abc inf nan ""; do
  expect_failure 2 "$(r "--dx must be a positive number, got '$bad'")" "$h" "${small[@]}" --dx "$bad"
done
expect_failure 2 "$(r "--dt must be a positive number, got '0'")" "$h" "${small[@]}" --dt 0
expect_failure 2 "$(r "--diffusivity must be a positive number, got '-2'")" "$h" "${small[@]}" --dx 1 --dt 1 --diffusivity -2

# ---- the run's output ----------------------------------------------------------------------------
run "$h" "${small[@]}" --dx 10 --dt 0.5 --diffusivity 2
expect_rc 0 "a run in physical units"
expect_eq "$(key ALPHA)/$(key DX)/$(key DT)/$(key DIFFUSIVITY)" \
  "1.0000000000000000E-02/1.0000000000000000E+01/5.0000000000000000E-01/2.0000000000000000E+00" \
  "ALPHA = D*dt/dx^2, DX, DT and DIFFUSIVITY printed"
run "$h" "${small[@]}" --dx 10 --dt 0.5 --alpha 0.01
expect_eq "$(key ALPHA)/$(key DIFFUSIVITY)" "1.0000000000000000E-02/2.0000000000000000E+00" \
  "--alpha with --dx and --dt: D = alpha*dx^2/dt"
run "$h" "${small[@]}"
expect_eq "$(grep -cE '^(DX|DT|DIFFUSIVITY)=' <<<"$out")" 0 "a run without units prints none"

if ! "$h" info | grep -q '^NETCDF=NetCDF'; then
  finish >&2
  echo "SKIP: this build has no NetCDF: the files' units not tried"
  exit 77
fi
# ---- the files ------------------------------------------------------------------------------------
grid=(--method cpu --nx 40 --ny 30 --steps 20 --output-every 4)
"$h" run "${grid[@]}" --dx 10 --dt 0.5 --diffusivity 2 --save-every phys.nc --save phys_f.nc >/dev/null
"$h" run "${grid[@]}" --alpha 0.01 --dx 10 --dt 0.5 --save-every alpha.nc >/dev/null
"$h" run "${grid[@]}" --alpha 0.01 --save-every plain.nc >/dev/null
bad=0
for s in 0 4 8 12 16 20; do
  "$h" compare "phys.nc:$s" "alpha.nc:$s" "plain.nc:$s" "${exact[@]}" >/dev/null || { bad=1; ko "record $s differs between --diffusivity and --alpha"; }
done
[ $bad = 1 ] || ok
run ncdump -v x,y,time,step phys.nc
expect_rc 0 "ncdump reads the series"
data=$(sed -n '/^data:/,$p' <<<"$out" | tr -d '\n' | tr -s ' ')
expect_eq "$(grep -oE 'time = [^;]*;' <<<"$data")" "time = 0, 2, 4, 6, 8, 10 ;" "time: 0, 0.5*4, ... seconds"
expect_eq "$(grep -oE 'step = [^;]*;' <<<"$data")" "step = 0, 4, 8, 12, 16, 20 ;" "step: 0, 4, ..."
expect_eq "$(grep -oE ' x = [^;]*;' <<<"$data" | cut -d, -f1-3)" " x = 0, 10, 20" "x in metres: i*dx"
expect_eq "$(grep -oE ' y = [^;]*;' <<<"$data" | grep -oE '[0-9]+ ;')" "290 ;" "y's last: (ny-1)*dx"
for line in 'time:units = "seconds since 1970-01-01 00:00:00" ;' 'time:calendar = "standard" ;' \
  'time:standard_name = "time" ;' 'int step(time) ;' 'x:units = "m" ;' 'y:units = "m" ;' \
  ':Conventions = "CF-1.8" ;' ':dx = 10. ;' ':dt = 0.5 ;' ':diffusivity = 2. ;' ':alpha = 0.01 ;'; do
  expect_out_has "$line" "the series' header"
done
expect_out_lacks ':coordinates' "no variable lists step as a coordinate"
# x and y in metres are projection coordinates (GDAL's geotransform) with
# no axis: an axis X/Y makes ParaView wrap the plane onto a sphere.
for line in 'x:standard_name = "projection_x_coordinate" ;' 'y:standard_name = "projection_y_coordinate" ;'; do
  expect_out_has "$line" "the series' header"
done
for stale in 'x:axis' 'y:axis'; do
  expect_out_lacks "$stale" "no $stale on heat2d's plane"
done
# Every variable has long_name and units (ncdump -h: a variable's
# attributes follow its declaration).
run ncdump -h phys.nc
vars=$(grep -oE '^	(double|float|int) [a-z]+' <<<"$out" | awk '{print $2}' | sort | paste -sd' ' -)
expect_eq "$vars" "step time u x y" "the series' variables"
for v in $vars; do
  expect_eq "$(grep -cE "^		$v:(long_name|units) = " <<<"$out")" 2 "$v has long_name and units"
done
run ncdump -h phys_f.nc
expect_out_has 'x:units = "m" ;' "a field file: x in metres"
expect_out_has ':dx = 10. ;' "a field file: its dx"
# Without --dt a step takes 1 s; without --dx x and y count cells.
run ncdump -v time plain.nc
expect_eq "$(sed -n '/^data:/,$p' <<<"$out" | tr -d '\n' | grep -oE 'time = [^;]*;')" \
  "time = 0, 4, 8, 12, 16, 20 ;" "no --dt: 1 s a step"
expect_out_has 'x:units = "1" ;' "no --dx: x counts cells"
expect_out_has 'time:long_name = "simulated time, 1 s a step (the run gave no dt)" ;' "no --dt: time says so"
expect_out_lacks ':dt = ' "no --dt: no dt attribute"
# --start-time: the clock's start (ISO 8601, any zone) is the time units'
# origin, in UTC; a run from the series keeps it; another is refused.
start=(--method cpu --nx 20 --ny 16 --output-every 5 --dx 10 --dt 60 --diffusivity 0.1)
"$h" run "${start[@]}" --steps 10 --start-time 2024-05-01T06:00:00+02:00 --save-every clock.nc >/dev/null
expect_eq "$(ncdump -h clock.nc | grep -c 'time:units = "seconds since 2024-05-01 04:00:00" ;')" 1 \
  "--start-time 2024-05-01T06:00:00+02:00: seconds since 04:00 UTC"
"$h" run --method cpu --steps 10 --output-every 5 --initial clock.nc:10 --save-every clock2.nc >/dev/null
expect_eq "$(ncdump -h clock2.nc | grep -c 'time:units = "seconds since 2024-05-01 04:00:00" ;')/$(ncdump -v time clock2.nc | sed -n '/^data:/,$p' | tr -d '\n' | grep -oE 'time = [^;]*;')" \
  "1/time = 600, 900, 1200 ;" "a run from the series keeps its clock's start and dt"
expect_failure 2 "$(r "--initial clock.nc:10 holds time in \"seconds since 2024-05-01 04:00:00\", the command line gives \"seconds since 2025-01-01 00:00:00\" (--start-time): leave it out to continue the file's clock, or give --change-physics to run with the command line's")" \
  "$h" run --method cpu --steps 10 --output-every 5 --initial clock.nc:10 --save-every c3.nc --start-time 2025-01-01
expect_failure 2 "$(r "--start-time 2024-02-30: not an ISO 8601 date and time (YYYY-MM-DD[Thh:mm[:ss]][Z|+hh:mm], UTC when no zone is given)")" \
  "$h" run "${start[@]}" --steps 10 --start-time 2024-02-30 --save-every c4.nc
# A series counts its steps in 32 bits: refused before the run.
expect_failure 2 "$(r "--save-every big.nc: a series counts its steps up to 2147483647 (32-bit), this run ends at step 3000000000")" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3000000000 --output-every 1000000000 --save-every big.nc
expect_eq "$(ls big.nc 2>/dev/null || true)" "" "the refused run made no series"
# Each input finite, a product of them not: refused before any file is made.
nofile="a NetCDF file cannot record"
expect_failure 2 "$(r "the diffusivity alpha*dx^2/dt (alpha 0.1, dx 1e+200 m, dt 1 s) is not a finite number, which $nofile; give a smaller --dx or a larger --dt")" \
  "$h" "${small[@]}" --dx 1e200 --dt 1 --save inf_d.nc
expect_failure 2 "$(r "dx 1e+308 m: the cell centres along x reach 7 x dx, not a finite number, which $nofile; give a smaller --dx")" \
  "$h" "${small[@]}" --dx 1e308 --output-every 1 --save-every inf_x.nc
expect_failure 2 "$(r "dt 1e+308 s: the time of step 2, 2 x dt, is not a finite number, which $nofile; give a smaller --dt")" \
  "$h" "${small[@]}" --dt 1e308 --output-every 1 --save-every inf_t.nc
expect_eq "$(ls inf_* 2>/dev/null || true)" "" "the refused runs made no file"
finish
