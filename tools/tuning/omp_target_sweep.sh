#!/usr/bin/env bash
# omp-target-resident's variants on the GPU machine in one command, as
# acc_schedules.sh does for acc-resident: every schedule's field against
# cpu's, each schedule's loop against cuda-resident's, then num_teams and
# thread_limit around the schedules that lead, and the copies each makes
# besides the arrays.
#
#   tools/tuning/omp_target_sweep.sh                       # every stage
#   tools/tuning/omp_target_sweep.sh check timing          # some stages, in order
#   BUILD=build-gpu REPEATS=3 SCHEDULES="columns columns2" tools/tuning/omp_target_sweep.sh
#
# Needs a build with the OpenMP target methods offloaded (the default build
# where GCC's nvptx offload compiler is installed; docs/building.md);
# cuda-resident comes from the same build when it has CUDA. A build made on another machine can be carried along: its lib/
# holds GCC's OpenMP runtime and nvptx plugin, which this script puts on
# LD_LIBRARY_PATH. Each run is one `heat2d run` process of a second or so
# at 8192² (allocation, one upload, the loop, one download).
#
# Stages:
#   launch  how libgomp launches each schedule's regions (GOMP_DEBUG, GCC
#           builds): teams and threads
#   check   every schedule's field, and omp-target-each's, against cpu's at
#           25x21/7 and 1001x703/37, in f64 and f32, bit for bit
#           (--atol 0 --rtol 0); then test_kernels (every schedule, from a
#           garbage v, with teams and thread_limit asked for) on the GPU
#   copies  the copies that are not whole arrays (H2D_OTHER, D2H_OTHER: the
#           argument tables libgomp uploads a launch) of each schedule at
#           2048x2048:20, and the arrays' (1 and 1)
#   timing  GPU_LOOP_S of cuda-resident and of each schedule, REPEATS runs
#           each, interleaved, in each of PRECISIONS; medians as ms/step,
#           Gcell/s and % of cuda-resident's Gcell/s
#   shape   the same for SHAPE_SCHEDULES with num_teams in TEAMS (0: the
#           schedule's own) times thread_limit in THREADS
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
REPEATS=${REPEATS:-3}
SIZES=${SIZES:-8192x8192:200 2048x2048:500}
PRECISIONS=${PRECISIONS:-f64 f32}
SCHEDULES=${SCHEDULES:-seed collapse rows args-rows columns columns2}
SHAPE_SCHEDULES=${SHAPE_SCHEDULES:-columns columns2}
SHAPE_SIZES=${SHAPE_SIZES:-8192x8192:200}
# The schedule's own, and multiples of the H200's 132 SMs.
TEAMS=${TEAMS:-0 264 1056}
h=$BUILD/bin/heat2d
[ -x "$h" ] || { echo "omp_target_sweep: no $h (carry the OpenMP target offload build)" >&2; exit 1; }
"$h" methods | grep -q '^omp-target-resident ' ||
  { echo "omp_target_sweep: $h has no omp-target-resident (configure with -DHEAT2D_OMP_TARGET=ON to be told why)" >&2; exit 1; }
# thread_limit counts warps with GCC (an OpenMP thread is a warp, simd its
# lanes) and lanes with Clang: 64 to 256 lanes either way.
if "$h" info | grep -q '^C_COMPILER=GNU'; then
  THREADS=${THREADS:-2 4 8}
else
  THREADS=${THREADS:-64 128 256}
fi
export LD_LIBRARY_PATH="$PWD/$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The methods refuse the host themselves; nothing here asks for it.
unset OMP_TARGET_OFFLOAD
has_cuda=$("$h" methods | awk '$1 == "cuda-resident"' | wc -l)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

. tools/tuning/sweep_lib.sh
# size_parts SIZE: "nx ny steps" of NXxNY:STEPS.
size_parts() { local rest=${1#*x}; echo "${1%%x*} ${rest%%:*} ${1##*:}"; }

stage_launch() {
  echo "## launch configuration per schedule (GOMP_DEBUG=1, 2048x2048, 3 steps)"
  for s in $SCHEDULES; do
    echo "# $s"
    HEAT2D_OMP_TARGET_SCHEDULE=$s GOMP_DEBUG=1 "$h" run --method omp-target-resident --nx 2048 \
      --ny 2048 --steps 3 2>&1 | grep -E 'GOMP_OFFLOAD_run|launch|teams|threads' |
      sed 's/^ *//' | sort | uniq -c | head -n 12 || true
  done
}

stage_check() {
  echo "## fields against cpu, bit for bit"
  local bad=0 case nx ny steps s p
  for p in $PRECISIONS; do
    for case in 25x21:7 1001x703:37; do
      read -r nx ny steps <<<"$(size_parts "$case")"
      "$h" run --method cpu --nx "$nx" --ny "$ny" --steps "$steps" --precision "$p" \
        --save "$w/cpu.dat" >/dev/null
      for s in $SCHEDULES each; do
        if [ "$s" = each ]; then
          run_to "$w/run.txt" -- run --method omp-target-each --nx "$nx" --ny "$ny" \
            --steps "$steps" --precision "$p" --save "$w/c.dat"
        else
          run_to "$w/run.txt" HEAT2D_OMP_TARGET_SCHEDULE="$s" -- run --method omp-target-resident \
            --nx "$nx" --ny "$ny" --steps "$steps" --precision "$p" --save "$w/c.dat"
        fi
        exact=$("$h" compare "$w/cpu.dat" "$w/c.dat" --atol 0 --rtol 0 2>&1 | grep -c '^COMPARE=PASS' || true)
        printf '%-4s %-10s %-12s device=%s bit-identical:%s\n' "$p" "$s" "$case" \
          "$(key DEVICE "$w/run.txt")" "$([ "$exact" = 1 ] && echo PASS || echo FAIL)"
        [ "$exact" = 1 ] || bad=1
        rm -f "$w/c.dat"
      done
    done
  done
  echo "## test_kernels on the GPU"
  if [ -x "$BUILD/bin/test_kernels" ]; then
    "$BUILD/bin/test_kernels" | tail -n 3 || bad=1
  else
    echo "no $BUILD/bin/test_kernels (configure with BUILD_TESTING=ON)"
  fi
  [ "$bad" = 0 ] || echo "CHECK: some field differs from cpu's"
}

stage_copies() {
  echo "## copies per schedule at 2048x2048:20: arrays (count/bytes) and others (count/bytes)"
  local s
  for s in $SCHEDULES each; do
    if [ "$s" = each ]; then
      run_to "$w/run.txt" -- run --method omp-target-each --nx 2048 --ny 2048 --steps 20
    else
      run_to "$w/run.txt" HEAT2D_OMP_TARGET_SCHEDULE="$s" -- run --method omp-target-resident \
        --nx 2048 --ny 2048 --steps 20
    fi
    printf '%-10s H2D %s/%s D2H %s/%s other H2D %s/%s D2H %s/%s TRANSFERS=%s\n' "$s" \
      "$(key H2D_COUNT "$w/run.txt")" "$(key H2D_BYTES "$w/run.txt")" \
      "$(key D2H_COUNT "$w/run.txt")" "$(key D2H_BYTES "$w/run.txt")" \
      "$(key H2D_OTHER_COUNT "$w/run.txt")" "$(key H2D_OTHER_BYTES "$w/run.txt")" \
      "$(key D2H_OTHER_COUNT "$w/run.txt")" "$(key D2H_OTHER_BYTES "$w/run.txt")" \
      "$(key TRANSFERS "$w/run.txt")"
  done
}

# time_variants LOG SIZES VARIANT...: REPEATS interleaved runs of
# cuda-resident and of each VARIANT (NAME=SCHEDULE:TEAMS:THREADS, 0 for the
# schedule's own) at each size and precision, one line each into LOG.
time_variants() {
  local log=$1 sizes=$2 size nx ny steps p v name spec sched teams threads
  shift 2
  for p in $PRECISIONS; do
    for size in $sizes; do
      read -r nx ny steps <<<"$(size_parts "$size")"
      for _ in $(seq "$REPEATS"); do
        if [ "$has_cuda" = 1 ]; then
          run_to "$w/run.txt" -- run --method cuda-resident --nx "$nx" --ny "$ny" --steps "$steps" \
            --precision "$p"
          echo "cuda-resident $p $size $(key GPU_LOOP_S "$w/run.txt")" >>"$log"
        fi
        for v in "$@"; do
          name=${v%%=*} spec=${v#*=}
          IFS=: read -r sched teams threads <<<"$spec"
          local envs=(HEAT2D_OMP_TARGET_SCHEDULE="$sched")
          [ "$teams" = 0 ] || envs+=(HEAT2D_OMP_TARGET_TEAMS="$teams")
          [ "$threads" = 0 ] || envs+=(HEAT2D_OMP_TARGET_THREADS="$threads")
          run_to "$w/run.txt" "${envs[@]}" -- run --method omp-target-resident --nx "$nx" \
            --ny "$ny" --steps "$steps" --precision "$p"
          echo "$name $p $size $(key GPU_LOOP_S "$w/run.txt")" >>"$log"
        done
      done
    done
  done
}

stage_timing() {
  echo "## loop timing per schedule, $REPEATS runs each, medians"
  local log=$w/timing.txt s variants=()
  : >"$log"
  for s in $SCHEDULES; do variants+=("$s=$s:0:0"); done
  time_variants "$log" "$SIZES" "${variants[@]}"
  sweep_table "$log"
}

stage_shape() {
  echo "## num_teams x thread_limit for $SHAPE_SCHEDULES, $REPEATS runs each, medians"
  local log=$w/shape.txt s t n variants=()
  : >"$log"
  for s in $SHAPE_SCHEDULES; do
    for t in $TEAMS; do
      for n in $THREADS; do variants+=("$s/teams$t/threads$n=$s:$t:$n"); done
    done
  done
  time_variants "$log" "$SHAPE_SIZES" "${variants[@]}"
  sweep_table "$log"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$h" info | grep -E '^(GIT_REVISION|C_COMPILER|OMP_TARGET|OMP_TARGET_FLAGS|DIRECTIVE_OFFLOAD)=' || true
stages=${*:-launch check copies timing shape}
for stage in $stages; do
  case $stage in
    launch | check | copies | timing | shape) "stage_$stage" ;;
    *) echo "omp_target_sweep: unknown stage '$stage' (launch, check, copies, timing, shape)" >&2; exit 1 ;;
  esac
done
