#!/usr/bin/env bash
# A complete series: its first record is the initial state (step 0: the
# unit of heat, or the --initial field; f32 rounded once); a run started
# from FILE.nc:STEP continues its clock (steps and times from STEP on,
# FIRST_STEP printed, a --save field's steps); with --append it adds its
# records to that series: 400 steps then 400 more from series.nc:400 make
# one series, steps 0 to 800, equal record for record, bit for bit, to one
# run of 800 (also in physical units, and in f32). A run from a record
# takes alpha, dx, dt, D, the precision and the clock from the file (a
# value the command line gives that differs is refused naming both,
# unless --change-physics), and --append needs none typed. The refusals, each
# before the series is touched: no --initial record, another --save-every,
# another variable than u, not the last record, another dt, precision or
# alpha, an incomplete series. A run that fails part-way, or is killed by
# SIGKILL part-way, leaves a series that opens with every record written
# before, the old ones byte for byte, marked incomplete, which a later
# --append refuses.
# usage: test_series_append.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
h=$bin/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
need_netcdf "$h"
exact=(--atol 0 --rtol 0)
r() { echo "heat2d: run: $*"; }
# steps FILE: the steps its records hold, one line ("_" for one unset)
steps() {
  ncdump -v step "$1" 2>/dev/null | awk '/^ step = /{on=1} on{printf "%s", $0} on && /;/{exit}' |
    sed 's/^ *step = //; s/ *;.*$//; s/ //g' | tr ',' ' '
}
times() {
  ncdump -v time "$1" 2>/dev/null | awk '/^ time = /{on=1} on{printf "%s", $0} on && /;/{exit}' |
    sed 's/^ *time = //; s/ *;.*$//; s/ //g' | tr ',' ' '
}
complete() { ncdump -h "$1" | sed -n 's/.*:complete = "\(.*\)" ;/\1/p'; }
# same_records A B STEPS...: each record of A equals B's, bit for bit
same_records() {
  local a=$1 b=$2 s bad=0
  shift 2
  for s in "$@"; do
    "$h" compare "$a:$s" "$b:$s" "${exact[@]}" >/dev/null 2>&1 || { bad=1; ko "$a:$s differs from $b:$s"; }
  done
  [ $bad = 1 ] || ok
}
grid=(--method cpu --nx 60 --ny 40)

# ---- the initial state is the first record -----------------------------------------------------
"$h" run "${grid[@]}" --steps 20 --output-every 10 --save-every s.nc >/dev/null
expect_eq "$(steps s.nc)" "0 10 20" "a series' steps: the initial state's, then each snapshot's"
# The unit of heat at 1-based ((nx+1)/2, (ny+1)/2): a field file of it.
"$h" run "${grid[@]}" --steps 7 --save seven.dat >/dev/null
awk 'NR == 1 {print; next} {printf "%24.16E\n", (NR - 2 == 19 * 60 + 29) ? 1 : 0}' seven.dat >unit.dat
run "$h" compare unit.dat s.nc:0 "${exact[@]}"
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "record 0 is the unit of heat at the centre"
"$h" run "${grid[@]}" --steps 20 --output-every 10 --initial seven.dat --save-every from7.nc >/dev/null
run "$h" compare seven.dat from7.nc:0 "${exact[@]}"
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "record 0 of a run from a field file is that field"
expect_eq "$(steps from7.nc)" "0 10 20" "a run from a field file starts its clock at 0"
"$h" run "${grid[@]}" --steps 20 --output-every 10 --precision f32 --initial seven.dat --save-every f32.nc >/dev/null
run "$h" compare seven.dat f32.nc:0 --atol 0 --rtol 6e-8
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "record 0 of an f32 run: the field rounded to float"
run "$h" compare seven.dat f32.nc:0 "${exact[@]}"
expect_rc 1 "record 0 of an f32 run is not the field's doubles"

# ---- a run from a record continues the series' clock --------------------------------------------
run "$h" run "${grid[@]}" --steps 20 --output-every 10 --initial s.nc:20 --save-every t.nc --save t.nc.f.nc
expect_rc 0 "a run from s.nc:20"
expect_eq "$(key FIRST_STEP)/$(key STEPS)" "20/20" "FIRST_STEP=20, STEPS the run's own"
expect_eq "$(steps t.nc)/$(times t.nc)" "20 30 40/20 30 40" "its series' steps and times go on from 20"
"$h" run "${grid[@]}" --steps 40 --save c40.dat >/dev/null
run "$h" compare c40.dat t.nc:40 t.nc.f.nc "${exact[@]}"
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "its step 40 is a 40-step run's field"
expect_eq "$(ncdump -h t.nc.f.nc | grep -c ':steps = 40 ;')" 1 "its --save field says steps = 40"

# ---- 400 + 400 with --append is one run of 800 --------------------------------------------------
long=(--method cpu --nx 60 --ny 40 --output-every 100)
"$h" run "${long[@]}" --steps 800 --save-every full.nc >/dev/null
"$h" run "${long[@]}" --steps 400 --save-every half.nc >/dev/null
cp half.nc half_before.nc
run "$h" run "${long[@]}" --steps 400 --initial half.nc:400 --save-every half.nc --append
expect_rc 0 "--append: 400 more from half.nc:400 ($err)"
expect_eq "$(steps half.nc)" "0 100 200 300 400 500 600 700 800" "one series, steps 0 to 800"
expect_eq "$(times half.nc)" "$(times full.nc)" "its times, those of one run of 800"
same_records full.nc half.nc 0 100 200 300 400 500 600 700 800
same_records half_before.nc half.nc 0 100 200 300 400
expect_eq "$(complete half.nc)/$(ncdump -h half.nc | grep -c ':steps = ')" "true/0" \
  "complete again, and no steps attribute to go stale"
expect_eq "$(ncdump -h half.nc | grep -c 'initial half.nc:400 .*--append')" 1 "history names the appending run"
expect_eq "$(ls -A | grep -c heat2d)" 0 "no lock or temporary file left"
# In physical units and in f32 alike.
phys=(--method cpu --nx 30 --ny 20 --output-every 5 --dx 10 --dt 0.5 --diffusivity 2 --precision f32)
"$h" run "${phys[@]}" --steps 20 --save-every pfull.nc >/dev/null
"$h" run "${phys[@]}" --steps 10 --save-every phalf.nc >/dev/null
run "$h" run "${phys[@]}" --steps 10 --initial phalf.nc:10 --save-every ./phalf.nc --append
expect_rc 0 "--append in physical units, f32 ($err)"
expect_eq "$(times phalf.nc)" "0 2.5 5 7.5 10" "times step*dt"
same_records pfull.nc phalf.nc 0 5 10 15 20

# ---- the physics travels with the field --------------------------------------------------------
# A series made with D = 1 (alpha 0.05): a run from its record takes alpha,
# dx, dt, D, the precision and the clock from it, typed nowhere again.
made=(--method cpu --nx 30 --ny 20 --output-every 5)
run "$h" run "${made[@]}" --steps 20 --dx 10 --dt 5 --diffusivity 1 --precision f32 --save-every d1full.nc
made_alpha=$(key ALPHA)
run "$h" run "${made[@]}" --steps 20 --dx 10 --dt 2.5 --diffusivity 1 --save-every d1half.nc
half_alpha=$(key ALPHA)
"$h" run "${made[@]}" --steps 10 --dx 10 --dt 5 --diffusivity 1 --precision f32 --save-every d1.nc >/dev/null
run "$h" run "${made[@]}" --steps 10 --initial d1.nc:10 --save-every d1more.nc
expect_rc 0 "a run from d1.nc:10 with no physics given ($err)"
expect_eq "$(key ALPHA)/$(key DX)/$(key DT)/$(key DIFFUSIVITY)/$(key PRECISION)" \
  "$made_alpha/1.0000000000000000E+01/5.0000000000000000E+00/1.0000000000000000E+00/f32" \
  "alpha, dx, dt, D and the precision from the file"
expect_eq "$(times d1more.nc)" "50 75 100" "its clock goes on in the file's dt (50 s, not 10)"
same_records d1full.nc d1more.nc 10 15 20
# What the command line gives that differs is refused naming both.
for given in "--alpha 0.1/alpha = 0.05/alpha = 0.1 (--alpha)" "--dx 5/dx = 10/dx = 5 (--dx)" \
  "--dt 2/dt = 5/dt = 2 (--dt)" "--precision f64/precision = f32/precision = f64 (--precision)"; do
  IFS=/ read -r opt theirs mine <<<"$given"
  # shellcheck disable=SC2086
  expect_failure 2 "$(r "--initial d1.nc:10 holds $theirs, the command line gives $mine: leave it out to continue with the file's, or give --change-physics to run with the command line's")" \
    "$h" run "${made[@]}" --steps 10 --initial d1.nc:10 $opt
done
# The same value again is no change; --change-physics runs with the command line's.
run "$h" run "${made[@]}" --steps 10 --initial d1.nc:10 --dx 10 --dt 5 --diffusivity 1
expect_eq "$rc/$(key ALPHA)" "0/$made_alpha" "the file's own values given again"
run "$h" run "${made[@]}" --steps 10 --initial d1.nc:10 --dt 2.5 --precision f64 --change-physics
expect_eq "$rc/$(key ALPHA)/$(key DT)/$(key PRECISION)" "0/$half_alpha/2.5000000000000000E+00/f64" \
  "--change-physics: the file's D and dx with the new dt"
expect_failure 2 "$(r "--change-physics needs --initial (it replaces the physics of the file's run)")" \
  "$h" run "${made[@]}" --steps 10 --change-physics
# --append needs nothing typed again.
run "$h" run "${made[@]}" --steps 10 --initial d1.nc:10 --save-every d1.nc --append
expect_rc 0 "--append with no physics typed ($err)"
expect_eq "$(steps d1.nc)/$(times d1.nc)" "0 5 10 15 20/0 25 50 75 100" "the appended series' steps and times"
same_records d1full.nc d1.nc 0 5 10 15 20

# ---- refusals, the series untouched -------------------------------------------------------------
"$h" run "${long[@]}" --steps 400 --save-every r.nc >/dev/null
cp r.nc r_before.nc
refused() { # refused RC LINE ARGS...: refused with LINE, r.nc byte for byte
  local want_rc=$1 line=$2
  shift 2
  expect_failure "$want_rc" "$line" "$h" run "${long[@]}" "$@"
  cmp -s r.nc r_before.nc && ok || ko "refused ($*): r.nc changed"
}
refused 2 "$(r "--append continues a series from its last record: give --initial FILE.nc:STEP")" \
  --steps 100 --save-every r.nc --append
refused 2 "$(r "--append continues a series from its last record: give --initial FILE.nc:STEP")" \
  --steps 100 --initial seven.dat --save-every r.nc --append
refused 2 "$(r "--append writes to the series that --initial r.nc:400 reads: give --save-every r.nc")" \
  --steps 100 --initial r.nc:400 --save-every other.nc --append
refused 1 "$(r "--append r.nc: the series ends at step 400, the run starts at step 300: append from its last record (--initial r.nc:400)")" \
  --steps 100 --initial r.nc:300 --save-every r.nc --append
refused 1 "$(r "--append r.nc: the series has dt = none, the run 0.5: give the same --dt")" \
  --steps 100 --initial r.nc:400 --save-every r.nc --append --dt 0.5
refused 2 "$(r "--initial r.nc:400 holds alpha = 0.1, the command line gives alpha = 0.05 (--alpha): leave it out to continue with the file's, or give --change-physics to run with the command line's")" \
  --steps 100 --initial r.nc:400 --save-every r.nc --append --alpha 0.05
refused 2 "$(r "--initial r.nc:400 holds precision = f64, the command line gives precision = f32 (--precision): leave it out to continue with the file's, or give --change-physics to run with the command line's")" \
  --steps 100 --initial r.nc:400 --save-every r.nc --append --precision f32
refused 2 "$(r "--change-physics cannot go with --append (a series continues with its own physics)")" \
  --steps 100 --initial r.nc:400 --save-every r.nc --append --alpha 0.05 --change-physics
# A series that holds a second variable h(time, y, x) (u's records as
# ncdump prints them): its field would go on as u's next record.
ncdump r.nc | awk '
/^\tdouble u\(time, y, x\) ;/ {print; print "\tdouble h(time, y, x) ;"; next}
/^ u =/ {inu = 1}
inu {h = h $0 "\n"; if ($0 ~ /;$/) inu = 0}
/^}/ {sub(/^ u =/, " h =", h); printf "%s", h}
{print}' >rh.cdl
ncgen -k nc4 -o rh.nc rh.cdl
cp rh.nc rh_before.nc
expect_failure 2 "$(r "--append continues the series' variable u, and --initial rh.nc:h:400 names 'h': give --initial rh.nc:400")" \
  "$h" run "${long[@]}" --steps 100 --initial rh.nc:h:400 --save-every rh.nc --append
cmp -s rh.nc rh_before.nc && ok || ko "--append from h: rh.nc changed"

# ---- complete is set last: an append whose header's last write fails stays "false" -----------
"$h" run "${long[@]}" --steps 200 --save-every fin.nc >/dev/null
run env HEAT2D_FAULT_SERIES_FINISH=1 "$h" run "${long[@]}" --steps 200 --initial fin.nc:200 --save-every fin.nc --append
expect_rc 1 "an append whose history cannot be written fails"
expect_eq "$(steps fin.nc)/$(complete fin.nc)" "0 100 200 300 400/false" "its records written, complete stays false"
run "$h" run "${long[@]}" --steps 100 --initial fin.nc:400 --save-every fin.nc --append
expect_eq "$rc/$(steps fin.nc)" "1/0 100 200 300 400" "a later --append refuses it, writing nothing"

# ---- a run that fails part-way: the records before it, the old ones untouched --------------------
run env HEAT2D_FAULT_NAN_AT_STEP=250 "$h" run "${long[@]}" --steps 400 --initial r.nc:400 --save-every r.nc --append
expect_rc 1 "an append whose run fails at step 250 of 400"
expect_eq "$(steps r.nc)/$(complete r.nc)" "0 100 200 300 400 500 600/false" \
  "the records before the failure, marked incomplete"
same_records r_before.nc r.nc 0 100 200 300 400
same_records full.nc r.nc 500 600
expect_failure 1 "$(r "--append r.nc: the series is not complete (the run writing it stopped early): continue it into a new series instead")" \
  "$h" run "${long[@]}" --steps 100 --initial r.nc:600 --save-every r.nc --append

# ---- step files of a continued run: named by the series' step ----------------------------------
# From t.nc:10, 10 more steps every 5 write step_15.dat and step_20.dat (the
# digits of its last step), never step_05.dat and step_10.dat, which name
# the first run's steps; step_20.dat is the field of 20 steps in one run.
tiny=(--method cpu --nx 12 --ny 10)
"$h" run "${tiny[@]}" --steps 20 --save t20.dat >/dev/null
"$h" run "${tiny[@]}" --steps 10 --output-every 5 --save-every t.nc >/dev/null
run "$h" run "${tiny[@]}" --steps 10 --initial t.nc:10 --output-every 5 --save-every cont
expect_eq "$rc/$(ls cont | grep step_ | tr '\n' ' ')" "0/step_15.dat step_20.dat " \
  "a run from step 10: its step files named 15 and 20"
run "$h" compare cont/step_20.dat t20.dat "${exact[@]}"
expect_eq "$rc/$(key COMPARE)" "0/PASS" "step_20.dat is the field after step 20"
run "$h" run "${tiny[@]}" --steps 10 --initial t.nc:10 --output-every 5 --save-every cont \
  --save cont/step_20.dat
expect_eq "$rc/$err" "2/$(r "--save cont/step_20.dat is the file that --save-every cont writes after step 20; choose another name")" \
  "--save naming the continued run's last step file: refused by its step"

# ---- SIGKILL part-way: the series opens, every record before the kill ---------------------------
big=(--method cpu --nx 300 --ny 200 --output-every 50)
"$h" run "${big[@]}" --steps 200 --save-every k.nc >/dev/null
cp k.nc k_before.nc
"$h" run "${big[@]}" --steps 1000000 --initial k.nc:200 --save-every k.nc --append >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do [ "$(stat -c %s k.nc)" -gt 4000000 ] && break; sleep 0.02; done
kill -KILL $pid
wait $pid 2>/dev/null || true
run ncdump -h k.nc
expect_rc 0 "the killed append's series opens"
expect_eq "$(complete k.nc)" false "the killed append's series is marked incomplete"
kept=$(steps k.nc | sed 's/ _$//')
last=${kept##* }
if [ -n "$last" ] && [ "$last" -ge 250 ]; then
  ok
  expect_eq "$kept" "$(seq -s ' ' 0 50 "$last")" "every record before the kill, in order"
  same_records k_before.nc k.nc 0 50 100 150 200
  "$h" run "${big[@]}" --steps "$last" --save-every kfull.nc >/dev/null
  same_records kfull.nc k.nc $(seq 250 50 "$last")
else
  ko "the killed append left no new record (steps '$kept')"
fi
finish
