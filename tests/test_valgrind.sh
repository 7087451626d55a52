#!/usr/bin/env bash
# The command-line programs under valgrind's memcheck on small runs: no
# invalid access, no use of uninitialised memory, no leak, on success and on
# failure paths, the NetCDF reader's child process included. Memcheck exits
# 99 on any finding.
# usage: test_valgrind.sh BIN_DIR SUPPRESSIONS
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
supp=$2
if ! command -v valgrind >/dev/null; then
  echo "SKIP: valgrind is not installed (tools/setup.sh installs it)"; exit 77
fi
if is_sanitized "$bin/heat2d"; then
  echo "SKIP: this is a sanitizer build; valgrind cannot run AddressSanitizer programs"; exit 77
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# Deep stacks: OpenMPI's start-up allocations are suppressed by the frame
# MPI_Init (valgrind.supp), which lies below valgrind's default 12 frames.
# No --track-origins: it finds nothing more and costs a third of the time;
# give it by hand to see where a reported uninitialised value came from.
vg=(valgrind --num-callers=50 --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
    --suppressions="$supp" -q)

# Those that run without a GPU: not cuda-*, not mpi-cuda.
methods=$("$bin/heat2d" methods | awk '$1 !~ /cuda/ {print $1}')
for m in $methods; do
  run "${vg[@]}" "$bin/heat2d" run --method "$m" --nx 25 --ny 21 --steps 8 --save "$w/$m.dat"
  expect_rc 0 "valgrind heat2d run --method $m"
  expect_eq "$(tail -n 1 <<<"$out")" "FIELD_FILE=$w/$m.dat" "$m saved its field under valgrind"
done
# shellcheck disable=SC2046
run "${vg[@]}" "$bin/heat2d" compare $(for m in $methods; do echo "$w/$m.dat"; done)
expect_rc 0 "valgrind heat2d compare"
expect_out_has "COMPARE=PASS" "compare under valgrind"
run "${vg[@]}" "$bin/cpu_reference" 25 21 8 "$w/seed.dat"
expect_rc 0 "valgrind cpu_reference"
expect_eq "$(cmp "$w/seed.dat" "$w/cpu.dat" && echo same)" "same" "cpu_reference field equals heat2d run's"
run "${vg[@]}" "$bin/heat2d" check
expect_rc 0 "valgrind heat2d check"
expect_eq "$(tail -n 1 <<<"$out")" "CPU_CHECK=PASS" "check under valgrind"

# Failure paths free what they allocated, too: exit 1 (not 99) and one line.
run "${vg[@]}" "$bin/heat2d" compare "$w/cpu.dat" "$w/missing.dat"
expect_rc 1 "valgrind compare with a missing file"
expect_err_lines 1 "compare with a missing file: one line, no valgrind report"
fault_methods="cpu omp"
if grep -qx mpi-cpu <<<"$methods"; then
  fault_methods="$fault_methods mpi-cpu"
  # hwloc (under OpenMPI's MPI_Init) says on stderr that its x86 backend
  # cannot work under valgrind; without that backend it says nothing.
  export HWLOC_COMPONENTS=-x86
else
  skip "mpi-cpu's NaN fault under valgrind" "this build has no mpi-cpu"
fi
for m in $fault_methods; do
  run env HEAT2D_FAULT_NAN_AT_STEP=3 "${vg[@]}" "$bin/heat2d" run --method "$m" --nx 25 --ny 21 --steps 8
  expect_rc 1 "valgrind $m with a NaN at step 3"
  expect_err_lines 1 "$m NaN fault: one line, no valgrind report"
done
# The NetCDF reader, in its child process too (valgrind follows a fork),
# on valid and crafted files (tests/fuzz/corpus/netcdf): a valid record
# read, a crafted one of each kind (a step beyond the record count, a torn
# record, a torn classic file) refused in one line, nothing found in
# either. (Every crafted file is replayed under the sanitizers.)
if "$bin/heat2d" info | grep -q '^NETCDF=NetCDF'; then
  corpus=$(cd "$(dirname "$0")/fuzz/corpus/netcdf" && pwd)
  run "${vg[@]}" "$bin/heat2d" compare "$corpus/series_f64.nc:2" "$corpus/field_f64.nc"
  expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "valgrind compare of a NetCDF-4 record and field"
  run "${vg[@]}" "$bin/heat2d" compare "$corpus/series_cdf5.nc:2" "$corpus/torn.nc:1"
  expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "valgrind compare of a CDF5 record and a whole one of a torn series"
  for spec in records_2p61.nc:2 torn.nc:2 torn_classic.nc:2; do
    run "${vg[@]}" "$bin/heat2d" compare "$corpus/$spec" "$corpus/$spec"
    expect_rc 1 "valgrind compare $spec"
    expect_err_lines 1 "compare $spec: one line, no valgrind report"
  done
fi
if [ -c /dev/full ]; then
  run "${vg[@]}" "$bin/heat2d" run --method cpu --nx 25 --ny 21 --steps 8 --save /dev/full
  expect_rc 1 "valgrind run --save /dev/full"
  expect_err_lines 1 "write failure: one line, no valgrind report"
else
  skip "a failing write under valgrind" "no /dev/full device here"
fi

finish
