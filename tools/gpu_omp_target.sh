#!/usr/bin/env bash
# The OpenMP target methods on a GPU machine, into one folder: both methods
# checked on the GPU against cpu in f64 and f32, compute-sanitizer's
# memcheck on both, omp-target-resident's variants (tools/tuning/
# omp_target_sweep.sh), and the bench of the directive models beside CUDA.
#
#   tools/gpu_omp_target.sh                        # every stage
#   tools/gpu_omp_target.sh check sanitize         # some stages, in order
#   BUILD=build-gpu OUT=results/NVIDIA-H200/omp_target tools/gpu_omp_target.sh bench
#
# BUILD holds both directive models' methods (a GCC build with its nvptx
# offload compiler: the OpenMP target methods are their own library, so
# they offload beside OpenACC's; docs/building.md, "Both directive models
# in one GCC build"), and CUDA's. A build made on another machine can be
# carried along (its lib/ holds GCC's OpenMP runtime and nvptx plugin, put
# on LD_LIBRARY_PATH here).
#
# Stages:
#   check     heat2d check --gpu, in f64 and f32 (BUILD): both methods on
#             the GPU, bit for bit cpu's, transfers measured against the model
#   sanitize  compute-sanitizer --tool memcheck on both methods, f64 and f32,
#             odd grids, and omp-target-resident with snapshots and with
#             each schedule
#   sweep     tools/tuning/omp_target_sweep.sh (every stage) into sweep.txt
#   bench     heat2d bench --methods METHODS --sizes SIZES --precision
#             PRECISIONS into OUT/bench: one table
# The per-step methods move 2 x 512 MiB a step at 8192^2 (about 0.1 s a step
# at the pageable rates): the bench's budget (BENCH_BUDGET seconds a method
# at a size) gives them one trial.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
METHODS=${METHODS:-omp-target-resident,acc-resident,cuda-resident,omp-target-each,acc-each}
SIZES=${SIZES:-8192x8192:1000,2048x2048:500}
PRECISIONS=${PRECISIONS:-f64,f32}
BENCH_BUDGET=${BENCH_BUDGET:-20}

die() { echo "gpu_omp_target: $*" >&2; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script needs an NVIDIA GPU"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr -c 'A-Za-z0-9._\n-' '-')
[ -n "$gpu" ] || die "no GPU reported by nvidia-smi"
h=$BUILD/bin/heat2d
[ -x "$h" ] || die "no $h: configure and build it as docs/building.md (\"OpenMP target\") says"
"$h" methods | grep -q '^omp-target-resident ' ||
  die "$h has no OpenMP target methods (configure with -DHEAT2D_OMP_TARGET=ON to be told why)"
out=${OUT:-results/$gpu/omp_target}
mkdir -p "$out"
# A missing device is an error, never a silent fall-back to the host.
unset OMP_TARGET_OFFLOAD
export ACC_DEVICE_TYPE=nvidia

# with_build BUILD CMD...: CMD with BUILD's runtime (its lib/) first.
with_build() {
  local b=$1
  shift
  LD_LIBRARY_PATH="$PWD/$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
}

stage_check() {
  local p file
  with_build "$BUILD" "$h" info >"$out/info.txt"
  for p in f64 f32; do
    file=$out/gpu_check_$p.txt
    with_build "$BUILD" "$h" check --gpu --precision "$p" >"$file" 2>&1 || true
    grep -E '^(GPU_CHECK|CPU_CHECK)=' "$file" | sed "s/^/$p: /"
    grep -E '^(FILE|TRANSFERS) .*omp-target-|^FILE=.*/omp-target-' "$file" | awk 'NR <= 4'
    grep -q '^GPU_CHECK=PASS$' "$file" || die "GPU_CHECK ($p) failed (see $file)"
    # Both methods on the GPU, not the host, in every case.
    if grep -E '^FILE=.*/omp-target-[^ ]* DEVICE=host' "$file" >/dev/null; then
      die "an OpenMP target method ran on the host ($file)"
    fi
  done
}

# memcheck RUN-ARGS...: one compute-sanitizer memcheck run (the CUPTI trace
# off: the sanitizer holds the driver's callbacks), appended to the log; a
# run with errors is named and counted in $failed, and the stage goes on.
# --report-api-errors no: libgomp's nvptx plugin asks the driver for
# optional symbols of each image (cuModuleGetGlobal), and a missing one is a
# CUDA_ERROR_NOT_FOUND it expects, not a memory error.
memcheck() {
  echo "## memcheck $*" >>"$log"
  if ! HEAT2D_TRANSFER_TRACE=off with_build "$BUILD" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 86 "$h" run "$@" >>"$log" 2>&1; then
    echo "MEMCHECK=FAIL $*" | tee -a "$log"
    failed=$((failed + 1))
  fi
  grep 'ERROR SUMMARY' "$log" | tail -n 1
}

stage_sanitize() {
  command -v compute-sanitizer >/dev/null || die "compute-sanitizer not found"
  local log=$out/sanitizer.txt m p s failed=0
  : >"$log"
  for m in omp-target-each omp-target-resident; do
    for p in f64 f32; do
      memcheck --method "$m" --precision "$p" --nx 67 --ny 45 --steps 13
      memcheck --method "$m" --precision "$p" --nx 257 --ny 129 --steps 6
    done
  done
  memcheck --method omp-target-resident --output-every 3 --nx 67 --ny 45 --steps 13
  for s in seed collapse rows args-rows columns columns2; do
    echo "## schedule $s" >>"$log"
    HEAT2D_OMP_TARGET_SCHEDULE=$s memcheck --method omp-target-resident --nx 131 --ny 19 --steps 5
  done
  [ "$failed" -eq 0 ] || die "compute-sanitizer memcheck: $failed run(s) with errors (MEMCHECK=FAIL lines in $log)"
  echo "SANITIZE=PASS" | tee -a "$log"
}

stage_sweep() {
  BUILD=$BUILD tools/tuning/omp_target_sweep.sh 2>&1 | tee "$out/sweep.txt"
}

stage_bench() {
  local m
  IFS=, read -ra wanted <<<"$METHODS"
  for m in "${wanted[@]}"; do
    "$h" methods | grep -q "^$m " || die "$h has no $m"
  done
  with_build "$BUILD" "$h" bench --out "$out/bench" --methods "$METHODS" --sizes "$SIZES" \
    --precision "$PRECISIONS" --budget "$BENCH_BUDGET"
}

stages=${*:-check sanitize sweep bench}
for stage in $stages; do
  case $stage in
    check | sanitize | sweep | bench) "stage_$stage" ;;
    *) die "unknown stage '$stage' (check, sanitize, sweep, bench)" ;;
  esac
done
echo "gpu_omp_target: results in $out"
