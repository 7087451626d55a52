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

key() { sed -n "s/^$1= *//p" "$2" | head -n 1; }
# split NXxNY:STEPS into nx ny steps
split() { nx=${1%%x*} ny=${1#*x} ny=${ny%%:*} steps=${1##*:}; }
# run_to FILE ENV... -- ARGS...: heat2d ARGS with the environment ENV, output
# in FILE; a failed run says so and leaves FILE empty, a gap in the table.
run_to() {
  local file=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$h" "$@" >"$file" 2>"$file.err" ||
    { echo "FAILED: ${envs[*]} $* ($(tail -n 1 "$file.err"))"; : >"$file"; }
}

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
awk '
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NF == 4 {
  k = $1 " " $2 " " $3
  if (!(k in seen)) { order[++n] = k; seen[k] = 1 }
  loop[k] = loop[k] " " $4
}
END {
  printf "%-16s %-4s %-15s %12s %9s %9s %5s\n", "method", "prec", "size", "loop ms/step", "Gcell/s", "vs cuda", "runs"
  for (i = 1; i <= n; i++) {
    split(order[i], f, " "); split(f[3], d, /[x:]/)
    runs = split(loop[order[i]], tmp, " ")
    g = d[1] * d[2] * d[3] / median(loop[order[i]]) / 1e9
    if (f[1] == "cuda-resident") cuda[f[2] " " f[3]] = g
    ratio = (f[2] " " f[3]) in cuda ? sprintf("%.3f", g / cuda[f[2] " " f[3]]) : "-"
    printf "%-16s %-4s %-15s %12.4f %9.1f %9s %5d\n", f[1], f[2], f[3], 1e3 * median(loop[order[i]]) / d[3], g, ratio, runs
  }
}' "$log"
