#!/usr/bin/env bash
# A series is never lost or half-made: a second run on one --save-every
# S.nc is refused before it touches it, naming the run that writes it, and
# the first run's records stay whole; a run refused up front (memory)
# leaves the S.nc that was there byte for byte; what is at an output's name
# is replaced only when it is what heat2d writes there, unless --force (a
# link to a text file included: the link stays, its target is replaced);
# --initial S.nc:K cannot be the series --save-every writes, nor the file
# --save writes, nor --initial F a file of a --save-every folder, however
# spelt;
# SIGTERM or SIGKILL in a run's first moments leaves an S.nc that opens
# (the old one, or the new one), no temporary file after SIGTERM, and
# nothing after the next run; a record's step is set only once its field is
# on disk; a --snapshot-writer run stopped names no scratch folder.
# usage: test_series_safety.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
h=$bin/heat2d
cd "$w"
need_netcdf "$h"
r() { echo "heat2d: run: $*"; }
small=(run --method cpu --nx 40 --ny 30 --steps 20 --output-every 10)
# records FILE: the record count ncdump gives ("" when it does not open)
records() { ncdump -h "$1" 2>/dev/null | sed -n 's/.*time = UNLIMITED ; \/\/ (\([0-9]*\) currently)/\1/p'; }
# steps FILE: the steps its records hold, one line ("_" for one unset)
steps() {
  ncdump -v step "$1" 2>/dev/null | awk '/^ step = /{on=1} on{printf "%s", $0} on && /;/{exit}' |
    sed 's/^ *step = //; s/ *;.*$//; s/ //g' | tr ',' ' '
}
# the files of the folder, hidden ones too, one line
files() { LC_ALL=C ls -A "${1:-.}" | paste -sd' ' -; }

"$h" "${small[@]}" --save-every old.nc >/dev/null
cp old.nc old.copy

# ---- two runs on one series: the second refused, the first's records whole --------------------
# The first runs until it is stopped, so that it is still writing however
# slow or fast the build.
"$h" run --method cpu --nx 100 --ny 100 --steps 1000000000 --output-every 500 --save-every S.nc \
  >a.out 2>a.err &
first=$!
for _ in $(seq 1000); do [ -s S.nc ] && break; sleep 0.01; done
mkdir sub
ln -s S.nc link.nc
# --force replaces what is at a name, never a series another run writes.
for name in S.nc ./sub/../S.nc "link.nc --force"; do
  run "$h" "${small[@]}" --save-every $name
  name=${name% --force}
  expect_eq "$rc/$err" "1/$(r "$name is being written by another heat2d run (pid $first); wait for it or choose another name")" \
    "a second run on $name while the first writes it"
done
run "$h" run --method cpu --nx 40 --ny 30 --steps 2 --save S.nc
expect_eq "$rc/$err" "1/$(r "S.nc is being written by another heat2d run (pid $first); wait for it or choose another name")" \
  "--save of a series being written"
run "$h" "${small[@]}" --initial S.nc:500
expect_eq "$rc/$err" "1/$(r "--initial S.nc:500: S.nc is being written by another heat2d run (pid $first); wait for it")" \
  "--initial of a series being written"
run "$h" compare S.nc:500 S.nc:500
expect_eq "$rc/$err" "1/heat2d: compare: cannot read field file 'S.nc:500': S.nc is being written by another heat2d run (pid $first); wait for it" \
  "compare of a series being written"
run "$h" plot S.nc:500 --out being_written
expect_eq "$rc/$err" "1/heat2d: plot: cannot read field file 'S.nc:500': S.nc is being written by another heat2d run (pid $first); wait for it" \
  "plot of a series being written"
kill -TERM "$first"
set +e
wait "$first"
first_rc=$?
set -e
last=$(sed -n 's/^heat2d: interrupted by signal 15: S.nc keeps the records up to step \([0-9]*\)$/\1/p' a.err)
expect_eq "$first_rc/${last:+kept}" "143/kept" "the first run, stopped, says what S.nc keeps (stderr: $(cat a.err))"
# (A record whose step is unset may follow: the one the signal cut short.)
expect_eq "$(steps S.nc | sed 's/ _$//')" "$(seq -s ' ' 0 500 "${last:-0}")" "the first run's records are all there, the initial state first"
"$h" run --method cpu --nx 100 --ny 100 --steps 500 --save c500.dat >/dev/null
run "$h" compare c500.dat S.nc:500 --atol 0 --rtol 0
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "the first run's first record is its field"
expect_eq "$(files)" "S.nc a.err a.out c500.dat link.nc old.copy old.nc sub" "no lock file or temporary file left"

# ---- a run refused up front leaves the series that was there ----------------------------------
cp old.copy S.nc
# A grid no machine holds (ulimit -v would do, but not under the sanitizers).
run "$h" run --method cpu --nx 1000000 --ny 1000000 --steps 2 --output-every 1 --save-every S.nc
expect_eq "$rc/${err%%, more than *}" "1/$(r "grid 1000000x1000000 needs 2 x 8e+03 GB")" "a run refused for memory"
cmp -s S.nc old.copy && ok || ko "a run refused for memory changed the S.nc that was there"
expect_eq "$(files)" "S.nc a.err a.out c500.dat link.nc old.copy old.nc sub" "the refused run left nothing"

# ---- --initial cannot be the series written, however spelt -----------------------------------
for name in S.nc ./sub/../S.nc link.nc; do
  run "$h" "${small[@]}" --initial S.nc:10 --save-every "$name"
  expect_eq "$rc/$err" "2/$(r "--initial S.nc:10 reads the series that --save-every $name writes; choose another name (or give --append to continue it)")" \
    "--initial S.nc:10 --save-every $name"
done
cmp -s S.nc old.copy && ok || ko "--initial refused: S.nc changed"
# Nor the file --save writes, however spelt, nor a file a --save-every
# folder's run writes there: each refused before anything is written.
for name in S.nc ./sub/../S.nc link.nc; do
  run "$h" "${small[@]}" --initial S.nc:10 --save "$name"
  expect_eq "$rc/$err" "2/$(r "--save $name is the file that --initial S.nc:10 reads; choose another name")" \
    "--initial S.nc:10 --save $name"
done
cmp -s S.nc old.copy && ok || ko "--initial S.nc:10 --save S.nc refused: S.nc changed"
mkdir texts
"$h" "${small[@]}" --save-every texts --save f.dat >/dev/null
ln f.dat hard.dat
cp f.dat f.copy
cp texts/step_10.dat step_10.copy
for name in f.dat ./sub/../f.dat hard.dat; do
  run "$h" "${small[@]}" --initial f.dat --save "$name"
  expect_eq "$rc/$err" "2/$(r "--save $name is the file that --initial f.dat reads; choose another name")" \
    "--initial f.dat --save $name"
done
run "$h" "${small[@]}" --initial texts/step_10.dat --save-every ./texts
expect_eq "$rc/$err" "2/$(r "--save-every ./texts writes its step file of step 10 over the file that --initial texts/step_10.dat reads; choose another folder")" \
  "--initial texts/step_10.dat --save-every texts"
cmp -s f.dat f.copy && cmp -s texts/step_10.dat step_10.copy && ok || ko "--initial refused: its file changed"
rm -r texts f.dat hard.dat f.copy step_10.copy

# ---- what is at the name: replaced only when heat2d's, or with --force ------------------------
echo "my notes" >notes.txt
cp notes.txt notes.copy
ln -s notes.txt notes.nc
run "$h" "${small[@]}" --save-every notes.nc
expect_eq "$rc/$err" "1/$(r "--save-every notes.nc: it is a link to notes.txt, which holds text, not a heat2d NetCDF file; give --force to replace it")" \
  "a link to a text file"
cmp -s notes.txt notes.copy && ok || ko "a link to a text file: the text file changed"
expect_eq "$(readlink notes.nc)" notes.txt "a link to a text file: the link untouched"
run "$h" "${small[@]}" --save-every notes.nc --force
expect_eq "$rc/$(readlink notes.nc)/$(records notes.txt)" "0/notes.txt/3" "--force: the link stays, the file it names is the series"
echo text >t.nc
run "$h" "${small[@]}" --save t.nc
expect_eq "$rc/$err" "1/$(r "--save t.nc: it holds text, not a heat2d NetCDF file; give --force to replace it")" "--save over text"
ncgen -o other.nc <<<'netcdf other { dimensions: x = 3 ; variables: int x(x) ; data: x = 1, 2, 3 ; }'
cp other.nc other.copy
run "$h" "${small[@]}" --save-every other.nc
expect_eq "$rc/$err" "1/$(r "--save-every other.nc: it holds NetCDF data that heat2d did not write (or cannot open), not a heat2d NetCDF file; give --force to replace it")" \
  "another program's NetCDF file"
cmp -s other.nc other.copy && ok || ko "another program's NetCDF file was changed"
printf 'PK\003\004\000\000' >b.dat
run "$h" "${small[@]}" --save b.dat
expect_eq "$rc/$err" "1/$(r "--save b.dat: it holds binary data, not text; give --force to replace it")" "--save over binary data"
ln -s nowhere.nc dangling.nc
run "$h" "${small[@]}" --save-every dangling.nc
expect_eq "$rc/$err" "1/$(r "--save-every dangling.nc: it is a link to nowhere.nc, which does not exist; give --force to replace the link")" \
  "a link to nothing"
run "$h" "${small[@]}" --save-every old.nc --save b.dat --force
expect_eq "$rc/$(head -n 1 b.dat)/$(records old.nc)" "0/40 30/3" "heat2d's own files replaced; --force: binary data too"
: >empty.nc
run "$h" "${small[@]}" --save-every empty.nc
expect_eq "$rc/$(records empty.nc)" "0/3" "an empty file is replaced"

# ---- stopped in its first moments: the old series or the new one, never a broken one ----------
# The moments fall in the first 50 ms after heat2d starts, where a run
# makes its series (the old writer truncated S.nc there and synced its
# header later).
mkdir stops && cd stops
cp ../old.copy S.nc
broken=0 left=""
for _ in $(seq 30); do
  for sig in TERM KILL; do
    "$h" run --method cpu --nx 1000000 --ny 5 --steps 4 --output-every 2 --save-every S.nc >/dev/null 2>&1 &
    pid=$!
    # From its exec on (a signal to the shell's child before it would run
    # this script's EXIT trap there).
    for _ in $(seq 200); do
      case $(readlink "/proc/$pid/exe" 2>/dev/null) in */heat2d) break ;; esac
      sleep 0.001
    done
    sleep "$(printf '0.%03d' $((RANDOM % 50)))"
    kill -s "$sig" "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if [ -z "$(records S.nc)" ]; then
      broken=$((broken + 1))
      cp ../old.copy S.nc
    fi
    [ "$sig" = KILL ] || [ "$(files)" = S.nc ] || left="$left [$(files)]"
    # What SIGKILL leaves is the next run's to sweep (below), not the next
    # SIGTERM's to answer for.
    rm -f .S.nc.heat2d-*
  done
done
expect_eq "$broken" 0 "SIGTERM or SIGKILL in the first 50 ms (60 times): S.nc opens every time"
expect_eq "$left" "" "SIGTERM in the first 50 ms: no temporary or lock file left"
# SIGKILL's leftovers: a temporary series named by its dead writer's pid,
# and its lock file; the next run on that series removes both.
echo 999999999 >.S.nc.heat2d-lock
: >.S.nc.heat2d-999999999-AbCdEf
"$h" "${small[@]}" --save-every S.nc >/dev/null
expect_eq "$(files)/$(records S.nc)" "S.nc/3" "a killed run's temporary series and lock file, removed by the next run"
cd ..

# ---- a record's step is set only once its field is on disk ------------------------------------
run env HEAT2D_FAULT_SERIES_FULL_AT=4 "$h" run --method cpu --nx 40 --ny 30 --steps 50 --output-every 10 --save-every torn.nc
expect_eq "$rc/$err" "1/$(r "cannot write series 'torn.nc': No space left on device")" "the disk full at record 4's step"
expect_eq "$(steps torn.nc)/$(records torn.nc)" "0 10 20 _/4" \
  "record 4 is there without its step"
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import netCDF4, numpy' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
  "$h" run --method cpu --nx 40 --ny 30 --steps 30 --save c30.dat >/dev/null
  run "$py" -c '
import sys, numpy as np, netCDF4
with open(sys.argv[2]) as f:
    nx, ny = map(int, f.readline().split())
    t = np.array([float(l) for l in f]).reshape(ny, nx)
print(np.array_equal(netCDF4.Dataset(sys.argv[1])["u"][3].filled(), t))' torn.nc c30.dat
  expect_eq "$out" "True" "record 4's field is on disk: cpu's field after step 30"
else
  echo "test_series_safety: python3 has no netCDF4: record 3's field not read" >&2
fi

# ---- a --snapshot-writer run stopped: no scratch folder named -----------------------------------
mkdir tmp
for writer in text netcdf; do
  TMPDIR=$w/tmp "$h" run --method cpu --nx 200 --ny 100 --steps 10000000 --output-every 1000 \
    --snapshot-writer "$writer" >/dev/null 2>stop.err &
  pid=$!
  for _ in $(seq 500); do
    [ -n "$(find tmp -name 'step_*' -o -name 'snapshots.nc' -size +1k 2>/dev/null)" ] && break
    sleep 0.01
  done
  sleep 0.1
  kill -TERM "$pid"
  set +e
  wait "$pid"
  stop_rc=$?
  set -e
  expect_eq "$stop_rc/$(cat stop.err)/$(files tmp)" "143/heat2d: interrupted by signal 15/" \
    "--snapshot-writer $writer stopped: its line names no scratch folder, which is gone"
done
finish
