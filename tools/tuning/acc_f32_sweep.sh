#!/usr/bin/env bash
# acc-resident's column schedules against cuda-resident on one GPU, in f32
# and f64 (issue #24, item 4: f32 at 0.85 of cuda-resident or better), in
# about 2 minutes on an H200:
#   1. each schedule's field against cpu's, bit for bit (--atol 0 --rtol 0),
#      on the GPU, at 1001x703/37 and on odd and thin grids, both precisions;
#   2. GPU_LOOP_S of cuda-resident and of acc-resident with each schedule,
#      REPEATS runs each, interleaved, at each size and precision; medians as
#      ms/step, Gcell/s and the ratio to cuda-resident's Gcell/s.
# The table comes last.
#
#   BUILD=build-gpu tools/tuning/acc_f32_sweep.sh
#   BUILD=/path/to/build REPEATS=5 SCHEDULES="columns columns2" tools/tuning/acc_f32_sweep.sh
#
# BUILD (default build-gpu) is an offload build, made here or carried along:
# $BUILD/bin/heat2d, and $BUILD/lib with GCC's libgomp and its nvptx plugin,
# which this script puts on LD_LIBRARY_PATH (with /usr/local/cuda/lib64).
# Settings (environment):
#   SCHEDULES  acc-resident schedules (default: columns columns2)
#   SIZES      NXxNY:STEPS (default: 8192x8192:1000 2048x2048:500)
#   PRECISIONS (default: f32 f64)
#   REPEATS    runs of each (default 3)
#   CHECKS     NXxNY:STEPS compared with cpu (default: 1001x703:37 and five odd grids)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build-gpu}
REPEATS=${REPEATS:-3}
SIZES=${SIZES:-8192x8192:1000 2048x2048:500}
PRECISIONS=${PRECISIONS:-f32 f64}
SCHEDULES=${SCHEDULES:-columns columns2}
CHECKS=${CHECKS:-1001x703:37 5x5:7 7x300:9 300x7:9 129x131:11 515x21:6}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
h=$BUILD/bin/heat2d
[ -x "$h" ] || { echo "acc_f32_sweep: no $h (carry the offload build)" >&2; exit 1; }
export LD_LIBRARY_PATH="$BUILD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A missing device is an error, never a silent fall-back to the host
# (ACC_DEVICE_TYPE=host makes a dry run of the script on a machine without a
# GPU, which its checks then flag).
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-nvidia}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
start=$SECONDS

. tools/tuning/sweep_lib.sh
# split NXxNY:STEPS into nx ny steps
split() { nx=${1%%x*} ny=${1#*x} ny=${ny%%:*} steps=${1##*:}; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
"$h" info | grep -E '^(GIT_REVISION|OPENACC_FLAGS|C_COMPILER)=' || true

echo "## fields against cpu, bit for bit, on the GPU"
bad=0
for case in $CHECKS; do
  split "$case"
  for p in $PRECISIONS; do
    "$h" run --method cpu --nx "$nx" --ny "$ny" --steps "$steps" --precision "$p" \
      --save "$w/cpu.dat" >/dev/null || { echo "FAILED: cpu $case $p"; bad=1; continue; }
    for s in $SCHEDULES; do
      rm -f "$w/acc.dat"
      run_to "$w/run.txt" HEAT2D_ACC_SCHEDULE="$s" -- run --method acc-resident --nx "$nx" \
        --ny "$ny" --steps "$steps" --precision "$p" --save "$w/acc.dat"
      if [ -s "$w/acc.dat" ] && "$h" compare "$w/cpu.dat" "$w/acc.dat" --atol 0 --rtol 0 \
        >"$w/cmp.txt" 2>&1; then
        verdict=PASS
      else
        verdict="FAIL $(sed -n 's/.*\(MAX_ABS_DIFF=[^ ]*\).*/\1/p' "$w/cmp.txt" 2>/dev/null | head -n 1)"
        bad=1
      fi
      case $(key DEVICE "$w/run.txt") in
        "" | host*) verdict="$verdict (not on the GPU: $(key DEVICE "$w/run.txt"))"; bad=1 ;;
      esac
      printf '%-10s %-12s %s bit-identical: %s\n' "$s" "$case" "$p" "$verdict"
    done
  done
done
[ "$bad" = 0 ] || echo "CHECK: some schedule is not bit-identical to cpu (or did not run on the GPU)"
echo "# checks took $((SECONDS - start)) s"

echo "## loop timing, $REPEATS runs each, interleaved, medians"
log=$w/timing.txt
: >"$log"
for size in $SIZES; do
  split "$size"
  for p in $PRECISIONS; do
    for _ in $(seq "$REPEATS"); do
      run_to "$w/run.txt" -- run --method cuda-resident --nx "$nx" --ny "$ny" --steps "$steps" \
        --precision "$p"
      echo "cuda-resident $p $size $(key GPU_LOOP_S "$w/run.txt")" >>"$log"
      for s in $SCHEDULES; do
        run_to "$w/run.txt" HEAT2D_ACC_SCHEDULE="$s" -- run --method acc-resident --nx "$nx" \
          --ny "$ny" --steps "$steps" --precision "$p"
        echo "acc-$s $p $size $(key GPU_LOOP_S "$w/run.txt")" >>"$log"
      done
    done
  done
done
echo "# all took $((SECONDS - start)) s"
sweep_table "$log"
