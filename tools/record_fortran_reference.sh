#!/usr/bin/env bash
# Records, as data, what the original reference program (reference_cpu.f90,
# built with gfortran -O3 as its README says) prints and writes for the test
# sizes: each summary value as printed (17 significant digits) and the
# SHA-256 of each field file it writes validly. tests/test_seed_recorded.sh
# holds heat2d's cpu_reference to these on a checkout without the original;
# tests/test_seed_vs_fortran.sh checks that they still match it.
#   usage: tools/record_fortran_reference.sh [SEED_DIR] > tests/data/fortran_reference.txt
set -euo pipefail
seed=$(cd "${1:-$(dirname "$0")/../../shared/seed/fortran-reference}" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
(cd "$w" && gfortran -O3 -std=f2018 -J. "$seed/diffusion_common.f90" "$seed/reference_cpu.f90" -o f_cpu)
echo "# What the original reference_cpu (gfortran -O3) printed and wrote, one case a line:"
echo "# NX NY STEPS MASS CENTRE MIN MAX FIELD_SHA256 (invalid: the original's file drops the E of"
echo "# three-digit exponents). Recorded by tools/record_fortran_reference.sh; gfortran $(gfortran -dumpversion)."
for c in $(cat "$(dirname "$0")/../tests/data/fortran_cases.txt"); do
  IFS=: read -r nx ny steps <<<"$c"
  out=$("$w/f_cpu" "$nx" "$ny" "$steps" "$w/f.dat")
  v() { sed -n "s/^$1= *//p" <<<"$out"; }
  if grep -qE '[0-9][-+][0-9]{3}$' "$w/f.dat"; then hash=invalid; else hash=$(sha256sum "$w/f.dat" | cut -d' ' -f1); fi
  echo "$nx $ny $steps $(v MASS) $(v CENTRE) $(v MIN) $(v MAX) $hash"
done
