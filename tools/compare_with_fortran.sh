#!/usr/bin/env bash
# heat2d against the original on this machine, side by side in one run:
#   - the cpu method against the original Fortran reference (gfortran -O3)
#     at 1024x1024/300, alternating, 5 runs each, median TOTAL_S;
#   - heat2d compare against the original compare_fields.py on two
#     2048x2048 fields.
# Writes OUT_FILE (default results/compare_with_fortran-<host>.txt; the
# development VM's run is results/dev-vm/compare_with_fortran.txt). Needs gfortran, python3 and the original's sources (default
# ../shared/seed/fortran-reference).
#   usage: tools/compare_with_fortran.sh [BUILD_DIR] [SEED_DIR] [OUT_FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seed=$(cd "${2:-../shared/seed/fortran-reference}" 2>/dev/null && pwd) || { echo "compare_with_fortran: original sources not found" >&2; exit 1; }
bin=$build/bin
[ -x "$bin/cpu_reference" ] || { echo "compare_with_fortran: build first (make build)" >&2; exit 1; }
[ -f "$seed/reference_cpu.f90" ] || { echo "compare_with_fortran: original sources not found at $seed" >&2; exit 1; }
command -v gfortran >/dev/null || { echo "compare_with_fortran: gfortran not found" >&2; exit 1; }

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
out=${3:-results/compare_with_fortran-$(hostname -s).txt}
mkdir -p "$(dirname "$out")"
(cd "$w" && gfortran -O3 -std=f2018 -J. "$seed/diffusion_common.f90" "$seed/reference_cpu.f90" -o f_cpu)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
total() { sed -n 's/^TOTAL_S= *//p'; }

{
  echo "# heat2d baseline against the original, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "HOST=$(hostname -s)"
  echo "CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
  echo "CPU_CORES=$(nproc)"
  echo "GFORTRAN=$(gfortran --version | head -n 1)"
  "$bin/heat2d" info | grep -E '^(GIT_REVISION|C_COMPILER|C_FLAGS)='

  echo
  echo "## cpu method vs the original reference_cpu, 1024x1024/300, 5 runs each, alternating"
  : >"$w/f" ; : >"$w/c"
  for _ in 1 2 3 4 5; do
    "$w/f_cpu" 1024 1024 300 | total >>"$w/f"
    "$bin/cpu_reference" 1024 1024 300 | total >>"$w/c"
  done
  f=$(median <"$w/f"); c=$(median <"$w/c")
  echo "ORIGINAL_TOTAL_S_RUNS=$(paste -sd' ' "$w/f")"
  echo "HEAT2D_CPU_TOTAL_S_RUNS=$(paste -sd' ' "$w/c")"
  echo "ORIGINAL_MEDIAN_S=$f"
  echo "HEAT2D_CPU_MEDIAN_S=$c"
  echo "CPU_SPEEDUP_OVER_ORIGINAL=$(awk -v f="$f" -v c="$c" 'BEGIN {printf "%.2f", f / c}')"

  echo
  echo "## heat2d compare vs the original compare_fields.py, two 2048x2048 fields"
  "$bin/cpu_reference" 2048 2048 500 "$w/a.dat" >/dev/null
  "$bin/cpu_reference" 2048 2048 501 "$w/b.dat" >/dev/null
  : >"$w/tp"; : >"$w/th"
  for _ in 1 2 3; do
    t0=$(date +%s.%N); python3 "$seed/compare_fields.py" "$w/a.dat" "$w/b.dat" >"$w/py.txt" 2>&1 || true
    t1=$(date +%s.%N); "$bin/heat2d" compare "$w/a.dat" "$w/b.dat" >"$w/c.txt" 2>&1 || true
    t2=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}' >>"$w/tp"
    awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.3f\n", b - a}' >>"$w/th"
  done
  py=$(median <"$w/tp"); hc=$(median <"$w/th")
  echo "PYTHON_COMPARE: $(head -n 1 "$w/py.txt")"
  echo "HEAT2D_COMPARE: $(head -n 1 "$w/c.txt")"
  echo "PYTHON_COMPARE_S_RUNS=$(paste -sd' ' "$w/tp")"
  echo "HEAT2D_COMPARE_S_RUNS=$(paste -sd' ' "$w/th")"
  echo "PYTHON_COMPARE_MEDIAN_S=$py"
  echo "HEAT2D_COMPARE_MEDIAN_S=$hc"
  echo "COMPARE_SPEEDUP=$(awk -v p="$py" -v h="$hc" 'BEGIN {printf "%.1f", p / h}')"
} | tee "$out"
