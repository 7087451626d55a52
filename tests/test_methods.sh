#!/usr/bin/env bash
# Each method is declared once, in its backend's methods.cmake: heat2d
# methods and heat2d info's METHODS= list exactly the declared methods this
# build holds, in the declared order (so a method's file and its declaration
# cannot disagree on its name), and each declared method this build lacks is
# named by a LEFT_OUT= line (but the test doubles, which are no part of a
# build for use).
# usage: test_methods.sh BUILD_DIR
set -e
shopt -s extglob
. "$(dirname "$0")/lib.sh"
build=$1
declared=$build/methods.txt
built=$(awk '!/^#/ && $2 == "yes" { print $1 }' "$declared")
absent=$(awk '!/^#/ && $2 == "no" && !/TEST_DOUBLES/ { print $1 }' "$declared")
expect_eq "$(head -n 1 <<<"$built")" cpu "methods.txt: cpu first, always built"

run "$build/bin/heat2d" methods
expect_rc 0 "heat2d methods"
expect_eq "$(awk '{ print $1 }' <<<"$out")" "$built" \
  "heat2d methods lists the declared methods this build holds, in order"

# Whether each runs here: what a run of it says. A single-process method
# that runs reads "here" (on the host, where it is put there); one that
# cannot, "not here:" and the run's own reason.
listing=$out
while read -r m _ _ here; do
  case " $(awk -v m="$m" '!/^#/ && $1 == m' "$declared") " in *" MPI "*) continue ;; esac
  parts=" $(awk -v m="$m" '!/^#/ && $1 == m' "$declared") "
  run "$build/bin/heat2d" run --method "$m" --nx 8 --ny 8 --steps 1
  if [ "$rc" = 0 ]; then
    # A device model's method on the host says so; cpu and omp are host
    # methods, "here" whatever their device line adds (omp's threads).
    case $parts:$(key DEVICE) in
    *" "@(OPENACC|OMP_TARGET|CUDA)" "*:host*) want="here, on the $(sed -n 's/^DEVICE=//p' <<<"$out")" ;;
    *) want=here ;;
    esac
  else
    want="not here: ${err#heat2d: run: $m: }"
  fi
  expect_eq "$here" "$want" "heat2d methods: whether $m runs here"
done <<<"$listing"
expect_eq "$(awk '$1 == "cpu" {print $4}' <<<"$listing")" here "heat2d methods: cpu runs here"
if grep -q '^mpi-cpu ' <<<"$listing"; then
  expect_eq "$(awk '$1 == "mpi-cpu" {$1 = $2 = $3 = ""; print}' <<<"$listing" | sed 's/^ *//')" \
    "here, under mpirun -np P (docs/mpi.md)" "heat2d methods: mpi-cpu runs under mpirun"
fi

run "$build/bin/heat2d" info
expect_rc 0 "heat2d info"
expect_eq "$(key METHODS)" "$(paste -sd, <<<"$built")" "heat2d info's METHODS= is the same list"
left_out=$(grep '^LEFT_OUT=' <<<"$out" || true)
for m in $absent; do
  if grep -qE "[(, ]$m[,)]" <<<"$left_out"; then ok; else ko "$m is declared, not built, and no LEFT_OUT= line names it"; fi
done
finish
