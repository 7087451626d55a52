#!/usr/bin/env bash
# heat2d against the original: the Fortran programs built with gfortran from
# shared/seed, run side by side with heat2d's seed-compatible programs.
#   cpu_reference: same summary text and bit-identical fields;
#   acc_each_step, acc_persistent: within the original's default tolerance;
#   the original's compare_fields.py and benchmark.py run unchanged on ours.
#   the record of the original's outputs (tests/data) is still what it prints.
# usage: test_seed_vs_fortran.sh BIN_DIR SEED_DIR SOURCE_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
seed=$2
src=$3
if [ ! -f "$seed/reference_cpu.f90" ]; then
  echo "SKIP: the original's sources are not at $seed"; exit 77
fi
if ! command -v gfortran >/dev/null; then
  echo "SKIP: gfortran is not installed (tools/setup.sh installs it)"; exit 77
fi
python=${PYTHON:-python3}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# The original, built as its README says.
(cd "$w" && gfortran -O3 -std=f2018 -J. "$seed/diffusion_common.f90" "$seed/reference_cpu.f90" -o f_cpu \
  && gfortran -O3 -std=f2018 -fopenacc -foffload=disable -J. "$seed/diffusion_common.f90" "$seed/acc_each_step.f90" -o f_each \
  && gfortran -O3 -std=f2018 -fopenacc -foffload=disable -J. "$seed/diffusion_common.f90" "$seed/acc_persistent.f90" -o f_res)

summary() { grep -E '^(NX|NY|MASS|CENTRE|MIN|MAX|CHECK)=' <<<"$1"; }

# Odd and even, square and not, tiny and large; 400x400/400 reaches the
# three-digit exponents that the original writes without an 'E'.
cases=$(cat "$src/tests/data/fortran_cases.txt")
seed_programs_of "$bin/heat2d" "the OpenACC programs against the original's"
for c in $cases; do
  IFS=: read -r nx ny steps <<<"$c"
  tag="${nx}x${ny}/${steps}"
  run "$w/f_cpu" "$nx" "$ny" "$steps" "$w/f.dat"; f_out=$out
  expect_rc 0 "original cpu_reference $tag"
  run "$bin/cpu_reference" "$nx" "$ny" "$steps" "$w/c.dat"
  expect_rc 0 "cpu_reference $tag"
  expect_eq "$(summary "$out")" "$(summary "$f_out")" "cpu_reference summary $tag"
  expect_out_has "FIELD_FILE=$w/c.dat" "FIELD_FILE $tag"
  run "$bin/heat2d" compare "$w/f.dat" "$w/c.dat" --atol 0 --rtol 0
  expect_rc 0 "cpu_reference field bit-identical $tag"
  expect_out_has "MAX_ABS_DIFF=0.000000e+00 WORST_INDEX=0 FAILURES=0" "zero difference $tag"
  if ! grep -qE '[0-9][-+][0-9]{3}$' "$w/f.dat"; then
    # Where the original's text is valid, ours is the same bytes.
    if cmp -s "$w/f.dat" "$w/c.dat"; then ok; else ko "field file bytes $tag"; fi
  else
    # Ours writes the three-digit exponents the original garbles.
    if grep -qE 'E-[0-9]{3}$' "$w/c.dat"; then ok; else ko "three-digit exponents $tag"; fi
  fi
  for prog in "${seed_programs[@]:1}"; do
    run "$bin/$prog" "$nx" "$ny" "$steps" "$w/$prog.dat"
    expect_rc 0 "$prog $tag"
    run "$bin/heat2d" compare "$w/f.dat" "$w/$prog.dat"
    expect_rc 0 "$prog within tolerance $tag"
  done
done

# The record that test_seed_recorded.sh holds heat2d to is what the original
# prints and writes today.
run "$src/tools/record_fortran_reference.sh" "$seed"
expect_rc 0 "record the original's outputs"
expect_eq "$(grep -v '^#' <<<"$out")" "$(grep -v '^#' "$src/tests/data/fortran_reference.txt")" \
  "tests/data/fortran_reference.txt is the original's output"

# The original's phase keys, each program its own.
run "$w/f_res" 25 21 7; f_keys=$(grep -oE '^[A-Z_]+=' <<<"$out" | tr -d '\n')
run "$bin/acc_persistent" 25 21 7; c_keys=$(grep -oE '^[A-Z_]+=' <<<"$out" | head -n 13 | tr -d '\n')
expect_eq "$c_keys" "$f_keys" "acc_persistent prints the original's keys in its order"
run "$w/f_each" 25 21 7; f_keys=$(grep -oE '^[A-Z_]+=' <<<"$out" | tr -d '\n')
run "$bin/acc_each_step" 25 21 7; c_keys=$(grep -oE '^[A-Z_]+=' <<<"$out" | head -n 10 | tr -d '\n')
expect_eq "$c_keys" "$f_keys" "acc_each_step prints the original's keys in its order"

# The original's tools, unchanged, on heat2d's programs and files.
if command -v "$python" >/dev/null; then
  "$bin/cpu_reference" 33 29 17 "$w/a.dat" >/dev/null
  "$bin/acc_each_step" 33 29 17 "$w/b.dat" >/dev/null
  "$bin/acc_persistent" 33 29 17 "$w/d.dat" >/dev/null
  run "$python" "$seed/compare_fields.py" "$w/a.dat" "$w/b.dat" "$w/d.dat"
  expect_rc 0 "compare_fields.py on heat2d's fields"
  expect_out_has "COMPARE=PASS" "compare_fields.py verdict"
  run "$python" "$seed/benchmark.py" --build-dir "$bin" --nx 64 --ny 48 --steps 20 \
      --warmups 1 --repeats 3 --output "$w/bench.csv"
  expect_rc 0 "benchmark.py on heat2d's programs"
  expect_out_has "CPU_OVER_RESIDENT_SPEEDUP=" "benchmark.py speedups"
  expect_eq "$(wc -l <"$w/bench.csv" | tr -d ' ')" "10" "benchmark.py wrote 9 trials"
else
  ko "python3 is needed to run the original's tools"
fi

finish
