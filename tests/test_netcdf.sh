#!/usr/bin/env bash
# NetCDF output: on odd and uneven grids, in f64 and f32, for K = 1, a K
# that does not divide the steps and K = steps, every record of a
# --save-every FILE.nc series equals the text snapshot of its step and cpu's
# field at that step, bit for bit; a .nc final field equals the text one;
# ncdump -h shows the CF attributes; Python's netCDF4 reads the same numbers;
# a run killed part-way leaves whole records marked incomplete; a full disk
# is one line and exit 1 with the records so far readable, a file-size
# limit one line and exit 1; the refusals' exact lines; mpi-cpu on 2 ranks
# writes one series, cpu's records. A build without NetCDF: its refusals,
# then a stated skip.
# usage: test_netcdf.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'umount "$w/tiny" 2>/dev/null || true; rm -rf "$w"' EXIT
h=$bin/heat2d
cd "$w"
exact=(--atol 0 --rtol 0)

if ! "$h" info | grep -q '^NETCDF=NetCDF'; then
  fix="this heat2d was built without NetCDF (install libnetcdf-dev, or run tools/setup.sh, and build again)"
  expect_failure 1 "heat2d: run: --save f.nc: $fix" "$h" run --method cpu --nx 8 --ny 8 --steps 2 --save f.nc
  expect_failure 1 "heat2d: run: --save-every s.nc: $fix" \
    "$h" run --method cpu --nx 8 --ny 8 --steps 2 --output-every 1 --save-every s.nc
  "$h" run --method cpu --nx 8 --ny 8 --steps 2 --save t.dat >/dev/null
  expect_failure 1 "heat2d: compare: cannot read field file 'f.nc:3': $fix" "$h" compare t.dat f.nc:3
  finish >&2
  echo "SKIP: this build has no NetCDF (configure with HEAT2D_NETCDF=ON after installing libnetcdf-dev)"
  exit 77
fi
# The python with netCDF4: the one on PATH, else the distribution's.
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import netCDF4, numpy' 2>/dev/null; then py=$p; break; fi
done
method=cpu

# ---- every record equals its text snapshot and cpu's field at its step -----------------------
steps=20
for grid in 37x23 101x64; do
  nx=${grid%x*} ny=${grid#*x}
  for prec in f64 f32; do
    base=(--nx "$nx" --ny "$ny" --precision "$prec")
    for k in 1 7 20; do
      tag=$grid-$prec-$k
      run "$h" run "${base[@]}" --method "$method" --steps $steps --output-every $k --save-every "s-$tag.nc" --save "f-$tag.nc"
      expect_rc 0 "$tag: the .nc series and field"
      run "$h" run "${base[@]}" --method "$method" --steps $steps --output-every $k --save-every "d-$tag" --save "f-$tag.dat"
      expect_rc 0 "$tag: the text series and field"
      records=$(cd "d-$tag" && ls step_*.dat | sed 's/step_0*//; s/\.dat//' | paste -sd' ')
      want=$(seq $k $k $steps | paste -sd' ')
      [ $((steps % k)) -eq 0 ] || want="$want $steps"
      expect_eq "$records" "$want" "$tag: the text snapshots' steps"
      bad=0
      for s in $records; do
        "$h" run "${base[@]}" --method cpu --steps "$s" --save "cpu-$s.dat" >/dev/null
        text=$(printf 'd-%s/step_%02d.dat' "$tag" "$s")
        "$h" compare "$text" "s-$tag.nc:$s" "${exact[@]}" >/dev/null || { bad=1; ko "$tag: record $s differs from its text snapshot"; }
        "$h" compare "cpu-$s.dat" "s-$tag.nc:$s" "${exact[@]}" >/dev/null || { bad=1; ko "$tag: record $s differs from cpu's field"; }
      done
      [ $bad = 1 ] || ok
      run "$h" compare "f-$tag.dat" "f-$tag.nc" "s-$tag.nc:$steps" "cpu-$steps.dat" "${exact[@]}"
      expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "$tag: the .nc final field, the last record, cpu's and the text field"
      n=$(ncdump -h "s-$tag.nc" | sed -n 's/.*time = UNLIMITED ; \/\/ (\([0-9]*\) currently)/\1/p')
      expect_eq "$n" "$(($(wc -w <<<"$records") + 1))" "$tag: the series' record count (the initial state first)"
    done
  done
done

# ---- mpi-cpu on 2 ranks: one series, written by rank 0, cpu's records ------------------------
if "$h" methods | grep -q '^mpi-cpu ' && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # (In a sanitizer build, LeakSanitizer's options for MPI: tests/CMakeLists.txt.)
  launch=(env ${HEAT2D_MPI_LSAN_OPTIONS:+"LSAN_OPTIONS=$HEAT2D_MPI_LSAN_OPTIONS"} mpirun)
  mpirun --version 2>&1 | grep -qE 'Open MPI|OpenRTE' && launch+=(-q --oversubscribe)
  run timeout 60 "${launch[@]}" -np 2 "$h" run --method mpi-cpu --nx 37 --ny 23 --steps 20 --output-every 7 --save-every m.nc
  expect_rc 0 "mpi-cpu on 2 ranks: a .nc series"
  run "$h" compare d-37x23-f64-7/step_07.dat m.nc:7 m.nc:14 "${exact[@]}"
  expect_out_has "FILE=m.nc:7 MAX_ABS_DIFF=0.000000e+00 WORST_INDEX=0 FAILURES=0" "mpi-cpu's record 7 is cpu's"
  run "$h" compare f-37x23-f64-7.dat m.nc:20 "${exact[@]}"
  expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "mpi-cpu's last record is cpu's"
  expect_eq "$(ncdump -h m.nc | grep -c ':complete = "true" ;')" 1 "mpi-cpu's series complete"
else
  echo "test_netcdf: no mpi-cpu or mpirun here: the MPI part not run" >&2
fi

# ---- the file's own words: ncdump -h, complete, types -----------------------------------------
run ncdump -h s-37x23-f32-7.nc
expect_rc 0 "ncdump -h reads the series"
for line in 'time = UNLIMITED ; // (4 currently)' 'y = 23 ;' 'x = 37 ;' 'float u(time, y, x) ;' \
  'int step(time) ;' 'u:long_name = "temperature" ;' 'u:units = "1" ;' ':Conventions = "CF-1.8" ;' \
  ':title = "heat2d 2-D heat diffusion, 37x23 cells: snapshots" ;' ":method = \"$method\" ;" \
  ':precision = "f32" ;' ':alpha = 0.1 ;' \
  ':complete = "true" ;' 'x:units = "1" ;' 'double x(x) ;' 'double y(y) ;'; do
  expect_out_has "$line" "ncdump -h of the series"
done
expect_out_has "--save-every s-37x23-f32-7.nc --save f-37x23-f32-7.nc\" ;" "history holds the command line"
# Nothing another tool's edit could leave stale (the sides are the
# dimensions', the last step the step variable's), and no attribute of a
# type CDO drops (64-bit integers).
for stale in ':steps = ' ':nx = ' ':ny = ' 'LL ;'; do
  expect_out_lacks "$stale" "a series has no '$stale' attribute"
done
# Cell indices (units "1") with an axis X/Y read as longitude and latitude
# to compliance-checker and ParaView: none.
for axis in 'x:axis' 'y:axis'; do
  expect_out_lacks "$axis" "a default run's coordinates carry no $axis"
done
expect_out_has ":source = \"heat2d " "source names heat2d"
run ncdump -h f-37x23-f32-20.nc
expect_out_has 'float u(y, x) ;' "an f32 field is NC_FLOAT"
run ncdump -h f-101x64-f64-1.nc
expect_out_has 'double u(y, x) ;' "an f64 field is NC_DOUBLE"
expect_out_lacks 'complete' "a field has no complete attribute"
expect_out_has ':steps = 20 ;' "the field's steps, a 32-bit int"
expect_out_lacks 'LL ;' "a field has no 64-bit integer attribute"
# Deflate (HEAT2D_NETCDF_DEFLATE, off by default): the same numbers.
HEAT2D_NETCDF_DEFLATE=1 "$h" run --method cpu --nx 101 --ny 64 --steps 20 --output-every 7 --save z.nc --save-every zs.nc >/dev/null
run "$h" compare f-101x64-f64-7.dat z.nc zs.nc:20 "${exact[@]}"
expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "deflated: the same field"
expect_eq "$(ncdump -hs z.nc | grep -cE 'u:_DeflateLevel = 1 ;|u:_Shuffle = "true" ;')" 2 "deflated: level 1, shuffled"
expect_eq "$(ncdump -hs f-101x64-f64-7.nc | grep -c 'u:_Storage = "contiguous" ;')" 1 "by default one contiguous field"
# Uncompressed, a series' record is one chunk, and no cell is filled before
# it is written; compressed, chunks are about 1 MiB of rows (here all 64).
expect_eq "$(ncdump -hs s-101x64-f64-7.nc | grep -cE 'u:_ChunkSizes = 1, 64, 101 ;|u:_NoFill = "true" ;')" 2 \
  "a series' record one chunk, not filled first"
expect_eq "$(ncdump -hs f-101x64-f64-7.nc | grep -c 'u:_NoFill = "true" ;')" 1 "a field not filled first"
expect_eq "$(ncdump -hs zs.nc | grep -c 'u:_ChunkSizes = 1, 64, 101 ;')" 1 "a deflated series: 1 MiB of rows a chunk"
run ncdump -v step s-101x64-f64-7.nc
expect_out_has ' step = 0, 7, 14, 20 ;' "the step variable: the initial state, then each snapshot's"

# ---- Python's netCDF4 reads the same numbers ---------------------------------------------------
if [ -n "$py" ]; then
  run "$py" - f-101x64-f64-1.dat f-101x64-f64-1.nc s-37x23-f32-7.nc d-37x23-f32-7/step_14.dat <<'EOF'
import sys, numpy as np, netCDF4
def text(path):
    with open(path) as f:
        nx, ny = map(int, f.readline().split())
        return np.array([float(l) for l in f]).reshape(ny, nx)
t, d = text(sys.argv[1]), netCDF4.Dataset(sys.argv[2])
u = d["u"][:].filled()
print("FIELD_EQUAL=%s" % np.array_equal(t, u))
print("CELLS=%r %r %r" % (u[32, 50] == t[32, 50], u[0, 0] == t[0, 0], u[63, 100] == t[63, 100]))
print("SUM_EQUAL=%s SUM=%.17g" % (np.sum(u) == np.sum(t), np.sum(u)))
s = netCDF4.Dataset(sys.argv[3])
r = list(s["step"][:]).index(14)
rec = s["u"][r].filled()
print("RECORD=%s %s %s" % (rec.dtype, np.array_equal(rec.astype(np.float64), text(sys.argv[4])), s.complete))
EOF
  expect_rc 0 "python3 netCDF4 reads the files (stderr: $err)"
  expect_out_has "FIELD_EQUAL=True" "netCDF4: the field equals the text one"
  expect_out_has "CELLS=True True True" "netCDF4: a few cells"
  expect_out_has "SUM_EQUAL=True SUM=1" "netCDF4: the sum"
  expect_out_has "RECORD=float32 True true" "netCDF4: an f32 record, its values, complete"
else
  skip "Python's netCDF4 reading the files" "no python3 with netCDF4 and numpy (python3-netcdf4)"
fi

# ---- a run killed part-way: whole records, complete = "false" ---------------------------------
long=(run --method cpu --nx 300 --ny 200 --steps 100000 --output-every 50)
"$h" "${long[@]}" --save-every k.nc >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ "$(stat -c %s k.nc 2>/dev/null || echo 0)" -gt 2000000 ] && break; sleep 0.05; done
kill -KILL $pid
wait $pid 2>/dev/null || true
run ncdump -h k.nc
expect_rc 0 "ncdump -h opens the killed run's series"
expect_out_has ':complete = "false" ;' "the killed run's series is marked incomplete"
# The steps as ncdump lists them (over several lines; "_" for one unset).
last=$(ncdump -v step k.nc | sed -n '/^ step = /,/;/p' | tr -d ' \n;' | sed 's/^step=//' | tr ',' '\n' |
  grep -E '^[0-9]+$' | tail -n 1)
if [ -n "$last" ] && [ "$last" -ge 50 ]; then
  ok
  "$h" run --method cpu --nx 300 --ny 200 --steps "$last" --save kcpu.dat >/dev/null
  run "$h" compare kcpu.dat "k.nc:$last" k.nc:50 "${exact[@]}"
  expect_out_has "FILE=k.nc:$last MAX_ABS_DIFF=0.000000e+00 WORST_INDEX=0 FAILURES=0" "the last whole record ($last) is cpu's field"
else
  ko "the killed run left no whole record (last step '$last')"
fi

# ---- a full disk: one line, exit 1, the records so far readable --------------------------------
mkdir tiny
if mount -t tmpfs -o size=256k tmpfs tiny 2>/dev/null; then
  run "$h" run --method cpu --nx 101 --ny 64 --steps 400 --output-every 10 --save-every tiny/s.nc
  expect_rc 1 "a series onto a full disk"
  expect_eq "$err" "heat2d: run: cannot write series 'tiny/s.nc': No space left on device" "a full disk's one line"
  "$h" run --method cpu --nx 101 --ny 64 --steps 10 --save t10.dat >/dev/null
  run "$h" compare t10.dat tiny/s.nc:10 "${exact[@]}"
  expect_eq "$(tail -n 1 <<<"$out")" "COMPARE=PASS" "the full disk's series: its first record readable, cpu's"
  run ncdump -h tiny/s.nc
  expect_out_has ':complete = "false" ;' "the full disk's series is marked incomplete"
  rm -f tiny/s.nc
  run env HEAT2D_NETCDF_DEFLATE=0 "$h" run --method cpu --nx 300 --ny 300 --steps 10 --save tiny/f.nc
  expect_rc 1 "a field onto a full disk"
  expect_eq "$err" "heat2d: run: cannot write field file 'tiny/f.nc': No space left on device" "a full disk's one line (field)"
  expect_eq "$(ls tiny)" "" "a field that did not fit leaves nothing"
  # Room for no record at all (HDF5 1.10 crashed at exit when it was left
  # with a file it could not flush: exit 1 and the line, not a SIGSEGV).
  umount tiny
  mount -t tmpfs -o size=16k tmpfs tiny
  for size in 61x61 101x64; do
    run "$h" run --method cpu --nx ${size%x*} --ny ${size#*x} --steps 4 --output-every 2 --save-every tiny/s.nc
    expect_rc 1 "a series onto a disk with no room for a record ($size)"
    expect_eq "$err" "heat2d: run: cannot write series 'tiny/s.nc': No space left on device" "no room: the one line ($size)"
    rm -f tiny/s.nc
  done
  umount tiny
else
  echo "test_netcdf: cannot mount a tmpfs (not root?): the full-disk part not run" >&2
fi
# A file-size limit too small for the header (1 KiB), for a record (64
# KiB), for a field: the one line and exit 1 (HDF5 crashed in nc_abort when
# the header could not be flushed); no field left behind.
for limit in 1 64; do
  run bash -c "ulimit -f $limit; '$h' run --method cpu --nx 101 --ny 64 --steps 4 --output-every 2 --save-every lim.nc"
  expect_eq "$rc/$err" "1/heat2d: run: cannot write series 'lim.nc': File too large" "a series under ulimit -f $limit"
  rm -f lim.nc
  run bash -c "ulimit -f $limit; '$h' run --method cpu --nx 101 --ny 64 --steps 4 --save lim-f.nc"
  expect_eq "$rc/$err" "1/heat2d: run: cannot write field file 'lim-f.nc': File too large" "a field under ulimit -f $limit"
  expect_eq "$(ls lim-f.nc 2>/dev/null || true)" "" "a field under ulimit -f $limit leaves nothing"
done

# ---- refusals ----------------------------------------------------------------------------------
expect_failure 1 "heat2d: compare: s-37x23-f64-7.nc holds no record of step 8 (4 records, steps 0 to 20)" \
  "$h" compare f-37x23-f64-7.dat s-37x23-f64-7.nc:8
expect_failure 1 "heat2d: compare: s-37x23-f64-7.nc is a series of 4 records: name one as s-37x23-f64-7.nc:STEP" \
  "$h" compare f-37x23-f64-7.dat s-37x23-f64-7.nc
expect_failure 1 "heat2d: compare: f-37x23-f64-7.nc is a field, not a series: name it without :20" \
  "$h" compare f-37x23-f64-7.dat f-37x23-f64-7.nc:20
expect_failure 1 "heat2d: compare: cannot open field file 'none.nc': No such file or directory" \
  "$h" compare f-37x23-f64-7.dat none.nc
expect_failure 2 "heat2d: run: --save x.nc is the series that --save-every writes; choose another name" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 4 --output-every 2 --save-every x.nc --save x.nc
echo 'not netcdf' >bad.nc
expect_failure 1 "heat2d: compare: cannot read field file 'bad.nc': NetCDF: Unknown file format" \
  "$h" compare f-37x23-f64-7.dat bad.nc
expect_failure 2 "heat2d: run: HEAT2D_NETCDF_DEFLATE=12: want a deflate level 0 to 9" \
  env HEAT2D_NETCDF_DEFLATE=12 "$h" run --method cpu --nx 8 --ny 8 --steps 2 --save z.nc
mkdir ro.nc
expect_failure 1 "heat2d: run: --save-every: ro.nc is not a regular file (a directory)" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 4 --output-every 2 --save-every ro.nc
finish
