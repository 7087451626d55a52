#!/usr/bin/env bash
# acc-resident's loop schedules on the GPU machine in one command (about 2-3
# minutes): each schedule against cuda-resident, each schedule's field
# against cpu's, and omp against the host's bandwidth.
#
#   tools/tuning/acc_schedules.sh                   # every stage
#   tools/tuning/acc_schedules.sh check timing      # some stages, in order
#   BUILD=build-gpu REPEATS=3 SCHEDULES="gang-vector columns" tools/tuning/acc_schedules.sh
#
# Needs an OpenACC offload build (tools/gpu_bench.sh makes one in build-gpu
# when GCC's nvptx compiler is installed). A build made on another machine
# can be carried along: its lib/ holds the OpenACC runtime and nvptx plugin,
# which this script puts on LD_LIBRARY_PATH.
# results/NVIDIA-H200/tuning/acc_schedules.txt holds one run's output.
#
# Stages:
#   launch  how libgomp launches each schedule's kernel (GOMP_DEBUG):
#           gangs, workers, vector lanes
#   check   every schedule's field, and acc-each's, against cpu's at 25x21/7
#           and 1001x703/37: within the original's tolerance (heat2d
#           compare) and bit for bit (--atol 0 --rtol 0); then test_kernels,
#           the unit test that starts v as garbage, on the GPU
#   timing  GPU_LOOP_S of cuda-resident and of acc-resident with each
#           schedule, REPEATS runs each, interleaved; medians as ms/step,
#           Gcell/s and % of cuda-resident's Gcell/s
#   omp     tools/tuning/omp_vs_host_bandwidth.sh on this host's cores
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-gpu}
REPEATS=${REPEATS:-3}
SIZES=${SIZES:-2048x2048:500 8192x8192:200}
SCHEDULES=${SCHEDULES:-seed collapse gang-vector gang-worker args-gang-vector columns}
h=$BUILD/bin/heat2d
[ -x "$h" ] || { echo "acc_schedules: no $h (carry the offload build)" >&2; exit 1; }
# The OpenACC runtime and its nvptx plugin, copied into the build.
export LD_LIBRARY_PATH="$PWD/$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A missing device is an error, never a silent fall-back to the host.
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-nvidia}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

. tools/tuning/sweep_lib.sh

stage_launch() {
  echo "## launch configuration per schedule (GOMP_DEBUG=1, 2048x2048, 3 steps)"
  for s in $SCHEDULES; do
    echo "# $s"
    HEAT2D_ACC_SCHEDULE=$s GOMP_DEBUG=1 "$h" run --method acc-resident --nx 2048 --ny 2048 \
      --steps 3 2>&1 | grep -E 'kernel .*: launch gangs|cuOccupancyMaxPotentialBlockSize' |
      sed 's/^ *//' | sort | uniq -c || true
  done
}

stage_check() {
  echo "## fields against cpu"
  local bad=0 case nx ny steps s
  for case in 25x21:7 1001x703:37; do
    nx=${case%%x*} ny=${case#*x} ny=${ny%%:*} steps=${case##*:}
    "$h" run --method cpu --nx "$nx" --ny "$ny" --steps "$steps" --save "$w/cpu.dat" >/dev/null
    for s in $SCHEDULES each; do
      if [ "$s" = each ]; then
        run_to "$w/run.txt" -- run --method acc-each --nx "$nx" --ny "$ny" --steps "$steps" \
          --save "$w/c.dat"
      else
        run_to "$w/run.txt" HEAT2D_ACC_SCHEDULE="$s" -- run --method acc-resident --nx "$nx" \
          --ny "$ny" --steps "$steps" --save "$w/c.dat"
      fi
      "$h" compare "$w/cpu.dat" "$w/c.dat" >"$w/tol.txt" 2>&1 || true
      "$h" compare "$w/cpu.dat" "$w/c.dat" --atol 0 --rtol 0 >"$w/exact.txt" 2>&1 || true
      tol=$(grep -c '^COMPARE=PASS' "$w/tol.txt" || true)
      exact=$(grep -c '^COMPARE=PASS' "$w/exact.txt" || true)
      diff=$(sed -n 's/.*MAX_ABS_DIFF=\([^ ]*\).*/\1/p' "$w/tol.txt" | head -n 1)
      printf '%-12s %-12s device=%s tolerance:%s bit-identical:%s max_abs_diff=%s\n' "$s" "$case" \
        "$(key DEVICE "$w/run.txt")" "$([ "$tol" = 1 ] && echo PASS || echo FAIL)" \
        "$([ "$exact" = 1 ] && echo PASS || echo FAIL)" "$diff"
      [ "$tol" = 1 ] || bad=1
      rm -f "$w/c.dat"
    done
  done
  echo "## test_kernels on the GPU"
  "$BUILD/bin/test_kernels" | tail -n 3 || bad=1
  [ "$bad" = 0 ] || echo "CHECK: some field is outside the original's tolerance"
}

stage_timing() {
  echo "## loop timing, $REPEATS runs each, medians"
  local log=$w/timing.txt size nx ny steps r s
  : >"$log"
  for size in $SIZES; do
    nx=${size%%x*} ny=${size#*x} ny=${ny%%:*} steps=${size##*:}
    for r in $(seq "$REPEATS"); do
      run_to "$w/run.txt" -- run --method cuda-resident --nx "$nx" --ny "$ny" --steps "$steps"
      echo "cuda-resident $size $(key GPU_LOOP_S "$w/run.txt") $(key TOTAL_S "$w/run.txt")" >>"$log"
      for s in $SCHEDULES; do
        run_to "$w/run.txt" HEAT2D_ACC_SCHEDULE="$s" -- run --method acc-resident --nx "$nx" \
          --ny "$ny" --steps "$steps"
        echo "acc-$s $size $(key GPU_LOOP_S "$w/run.txt") $(key TOTAL_S "$w/run.txt")" >>"$log"
      done
    done
  done
  awk '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  NF == 4 {
    key = $1 " " $2
    if (!(key in seen)) { order[++n] = key; seen[key] = 1 }
    loop[key] = loop[key] " " $3; total[key] = total[key] " " $4
  }
  END {
    printf "%-18s %-15s %12s %10s %10s %12s\n", "method", "size", "loop ms/step", "Gcell/s", "% of cuda", "TOTAL_S"
    for (k = 1; k <= n; k++) {
      split(order[k], p, " "); split(p[2], d, /[x:]/)
      g = d[1] * d[2] * d[3] / median(loop[order[k]]) / 1e9
      if (p[1] == "cuda-resident") cuda[p[2]] = g
      printf "%-18s %-15s %12.4f %10.2f %9s %12.4f\n", p[1], p[2],
        1e3 * median(loop[order[k]]) / d[3], g,
        (p[2] in cuda) ? sprintf("%.0f%%", 100 * g / cuda[p[2]]) : "-", median(total[order[k]])
    }
  }' "$log"
}

stage_omp() {
  echo "## omp against the host copy bandwidth"
  REPEATS=${OMP_REPEATS:-3} SIZES=${OMP_SIZES:-4096x4096:50 8192x8192:20} \
    tools/tuning/omp_vs_host_bandwidth.sh "$BUILD/bin"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$h" info | grep -E '^(GIT_REVISION|OPENACC_FLAGS|C_COMPILER)=' || true
stages=${*:-launch check timing omp}
for stage in $stages; do
  case $stage in
    launch | check | timing | omp) "stage_$stage" ;;
    *) echo "acc_schedules: unknown stage '$stage' (launch, check, timing, omp)" >&2; exit 1 ;;
  esac
done
