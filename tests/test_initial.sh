#!/usr/bin/env bash
# heat2d run --initial FILE: a run from another run's final field at step S,
# for T more steps, equals a run of S+T steps bit for bit, for every method
# of one process this machine runs, in f64 and f32, with snapshots too; a
# field of the user's own (other bounds, negative values) is held to its
# own bounds; a field that cannot be a start is refused up front. mpi-cpu
# on 1 to 4 ranks restarts too: from a field, and from a series' record
# with --append, bit for bit cpu's one run.
# usage: test_initial.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
h=$bin/heat2d

# Methods of one process that run here: a GPU method only with a GPU; one
# that does not run says there is none, or fails the test.
methods=()
for m in $("$h" methods | awk '{print $1}'); do
  case $m in mpi-*) continue ;; esac
  run "$h" run --method "$m" --nx 8 --ny 8 --steps 2
  if [ "$rc" = 0 ]; then
    methods+=("$m")
  elif grep -q "^heat2d: run: $m: no CUDA device: " <<<"$err"; then
    skip "--initial with $m" "no GPU (${err#*no CUDA device: })"
  else
    ko "$m: runs here, or says there is no GPU: exit $rc, $err"
  fi
done
expect_eq "$([ ${#methods[@]} -ge 2 ] && echo yes)" yes "at least cpu and omp run here (${methods[*]})"

for p in f64 f32; do
  for shape in 41x29:13:17 64x37:7:1; do
    nx=${shape%%x*} rest=${shape#*x}
    ny=${rest%%:*} rest=${rest#*:}
    s=${rest%%:*} t=${rest#*:}
    "$h" run --method cpu --nx "$nx" --ny "$ny" --steps $((s + t)) --precision $p --save "$w/whole.dat" >/dev/null
    for m in "${methods[@]}"; do
      run "$h" run --method "$m" --nx "$nx" --ny "$ny" --steps "$s" --precision $p --save "$w/first.dat"
      expect_rc 0 "$m $p ${nx}x$ny: the first $s steps"
      run "$h" run --method "$m" --initial "$w/first.dat" --steps "$t" --precision $p --save "$w/rest.dat"
      expect_rc 0 "$m $p: $t more steps from --initial"
      expect_eq "$(key NX)x$(key NY)" "${nx}x$ny" "$m: --initial gives the run the file's shape"
      "$h" run --method "$m" --nx "$nx" --ny "$ny" --steps $((s + t)) --precision $p --save "$w/m_whole.dat" >/dev/null
      run "$h" compare "$w/m_whole.dat" "$w/rest.dat" --atol 0 --rtol 0
      expect_rc 0 "$m $p ${nx}x$ny: $s steps then $t from --initial equal $((s + t)) steps bit for bit"
    done
    run "$h" compare "$w/whole.dat" "$w/rest.dat" --atol 0 --rtol 0
    expect_rc 0 "$p ${nx}x$ny: the last method's split run equals cpu's $((s + t)) steps"
  done
done

# From a .nc field and from a record of a .nc series, where NetCDF is built.
if "$h" run --method cpu --nx 41 --ny 29 --steps 13 --save "$w/first.nc" >/dev/null 2>&1; then
  "$h" run --method cpu --nx 41 --ny 29 --steps 30 --save "$w/whole.dat" >/dev/null
  run "$h" run --method cpu --initial "$w/first.nc" --steps 17 --save "$w/rest.dat"
  expect_rc 0 "--initial FILE.nc"
  run "$h" compare "$w/whole.dat" "$w/rest.dat" --atol 0 --rtol 0
  expect_rc 0 "13 steps, then 17 from the .nc field, equal 30 steps bit for bit"
  "$h" run --method cpu --nx 41 --ny 29 --steps 20 --output-every 13 --save-every "$w/series.nc" >/dev/null
  run "$h" run --method cpu --initial "$w/series.nc:13" --steps 17 --save "$w/rest.dat"
  expect_rc 0 "--initial FILE.nc:STEP"
  run "$h" compare "$w/whole.dat" "$w/rest.dat" --atol 0 --rtol 0
  expect_rc 0 "step 13 of a series, then 17 more, equal 30 steps bit for bit"
else
  echo "test_initial: no NetCDF in this build; the .nc starts are not tried"
fi

# Snapshots from --initial: every K steps, checked, and written.
"$h" run --method cpu --nx 30 --ny 20 --steps 5 --save "$w/five.dat" >/dev/null
run "$h" run --method cpu --initial "$w/five.dat" --steps 9 --output-every 4 --save-every "$w/series"
expect_rc 0 "--initial with --output-every 4 --save-every"
expect_eq "$(key SNAPSHOTS)" 3 "three snapshots from --initial"
"$h" run --method cpu --nx 30 --ny 20 --steps 9 --save "$w/nine.dat" >/dev/null
run "$h" run --method cpu --nx 30 --ny 20 --steps 14 --save "$w/fourteen.dat"
run "$h" compare "$w/fourteen.dat" "$w/series/step_9.dat" --atol 0 --rtol 0
expect_rc 0 "the last snapshot from --initial (step 9 of the second run) is cpu's step 14"

# A field of the user's own: values up to 7 and below 0, held to its own
# bounds (the standard ones, [0, 1] and mass 1, would refuse it).
awk 'BEGIN { nx = 21; ny = 17; print nx, ny
  for (j = 0; j < ny; ++j) for (i = 0; i < nx; ++i) {
    v = 0; if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) v = (i == 10 && j == 8) ? 7 : ((i + j) % 5 == 0 ? -0.5 : 0.25)
    printf "%24.16E\n", v } }' >"$w/own.dat"
for m in "${methods[@]}"; do
  run "$h" run --method "$m" --initial "$w/own.dat" --steps 40
  expect_rc 0 "$m runs from a field of the user's own (max 7, negative cells)"
  expect_eq "$(key CHECK)" PASS "$m: the check holds it to its own bounds"
done
run "$h" run --method cpu --initial "$w/own.dat" --steps 40 --output-every 10
expect_rc 0 "each snapshot from the user's field is held to its bounds"
expect_eq "$(key SNAPSHOTS)" 4 "four snapshots from the user's field"

# A continuation of a long run (360x360, 2000 steps: mass 1 spread over
# thousands of cells) passes the snapshot check where the whole run does:
# its sums' rounding is the cell count's, not a fraction of the peak's.
long=(--method cpu --nx 360 --ny 360 --steps 2000)
nc_long=()
"$h" run --method cpu --nx 8 --ny 8 --steps 1 --save "$w/probe.nc" >/dev/null 2>&1 &&
  nc_long=(--output-every 2000 --save-every "$w/long.nc")
"$h" run "${long[@]}" "${nc_long[@]}" --save "$w/long.dat" >/dev/null
run "$h" run --method cpu --initial "$w/long.dat" --steps 1 --output-every 1
expect_eq "$rc/$(key CHECK)/$err" "0/PASS/" "a snapshot one step on from a 2000-step run's field"
if [ ${#nc_long[@]} -gt 0 ]; then
  run "$h" run --method cpu --initial "$w/long.nc:2000" --steps 2 --output-every 1 \
    --save-every "$w/long.nc" --append
  expect_eq "$rc/$(key CHECK)/$err" "0/PASS/" "--append to a 2000-step series"
fi

# Refusals, up front, in one line.
expect_failure 1 "heat2d: run: --initial $w/own.dat: the field is 21x17, the run 40x17" \
  "$h" run --method cpu --initial "$w/own.dat" --nx 40 --ny 17 --steps 3
sed '2s/.*/   1.0000000000000000E+00/' "$w/own.dat" >"$w/hot_edge.dat"
expect_failure 1 "heat2d: run: --initial $w/hot_edge.dat: cell (0, 0) on the boundary is 1, not 0 (the boundary is held at 0)" \
  "$h" run --method cpu --initial "$w/hot_edge.dat" --steps 3
expect_failure 1 "heat2d: run: --initial: cannot open field file '$w/none.dat': No such file or directory" \
  "$h" run --method cpu --initial "$w/none.dat" --steps 3
sed '30s/.*/nan/' "$w/own.dat" >"$w/nan.dat"
run "$h" run --method cpu --initial "$w/nan.dat" --steps 3
expect_rc 1 "a field with a NaN is refused"
expect_err_lines 1 "a field with a NaN: one line"
expect_err_has "heat2d: run: --initial: " "a field with a NaN: named as --initial's"
expect_failure 2 "heat2d: run: --initial needs a file name" "$h" run --method cpu --initial "" --steps 3
# Distributed restarts: mpi-cpu on 1 to 4 ranks from a field and from a
# series' record (--append), bit for bit cpu's one run, series included.
if have_method "$h" mpi-cpu "distributed restarts" && command -v mpirun >/dev/null &&
  "$h" info | grep -q '^NETCDF=NetCDF'; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launch=(env ${HEAT2D_MPI_LSAN_OPTIONS:+"LSAN_OPTIONS=$HEAT2D_MPI_LSAN_OPTIONS"} mpirun)
  mpirun --version 2>&1 | grep -qE 'Open MPI|OpenRTE' && launch+=(-q --oversubscribe)
  d=(--nx 30 --ny 20 --output-every 5 --dx 10 --dt 0.5 --diffusivity 2)
  "$h" run --method cpu "${d[@]}" --steps 20 --save-every "$w/full.nc" >/dev/null
  "$h" run --method cpu "${d[@]}" --steps 10 --save-every "$w/half.nc" >/dev/null
  "$h" run --method cpu --initial "$w/own.dat" --steps 9 --save "$w/own9.dat" >/dev/null
  for p in 1 2 3 4; do
    cp "$w/half.nc" "$w/half$p.nc"
    run timeout 60 "${launch[@]}" -np $p "$h" run --method mpi-cpu --steps 10 --output-every 5 \
      --initial "$w/half$p.nc:10" --save-every "$w/half$p.nc" --append
    expect_rc 0 "mpi-cpu on $p ranks continues a series with --append"
    same=0
    for k in 0 5 10 15 20; do
      "$h" compare "$w/full.nc:$k" "$w/half$p.nc:$k" --atol 0 --rtol 0 >/dev/null 2>&1 && same=$((same + 1))
    done
    expect_eq "$same" 5 "mpi-cpu on $p ranks, appended: every record cpu's one run's, bit for bit"
    run timeout 60 "${launch[@]}" -np $p "$h" run --method mpi-cpu --initial "$w/own.dat" --steps 9 \
      --save "$w/own9_$p.dat"
    expect_eq "$rc/$(cmp "$w/own9.dat" "$w/own9_$p.dat" && echo same)" "0/same" \
      "mpi-cpu on $p ranks from a field file: cpu's field, bit for bit"
  done
fi
finish
