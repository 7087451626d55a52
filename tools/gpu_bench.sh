#!/usr/bin/env bash
# The GPU run: build (unless a build is already there), prove every GPU
# method right on the GPU, then benchmark the article's size ladder plus
# 8192^2, and write results/<gpu-name>/gpu_bench/ (the machine's folder, this
# run's own).
#
#   tools/gpu_bench.sh                     # every stage
#   tools/gpu_bench.sh check ladder        # some stages, in order
#   BUILD=build-gpu REPEATS=5 tools/gpu_bench.sh
#
# Stages: check (heat2d check --gpu, in f64 and in f32), ladder (the
# article's sizes, every method), big_resident (8192^2 x 1000, the resident
# methods in f64 and f32: the single-step and temporal-blocking targets),
# big_slow (8192^2, the per-step and host methods, fewer steps), snapshots
# (the resident methods with the field on the host every K steps), sanitize
# (compute-sanitizer), profiles (Nsight Compute's summary of the main
# kernels). Stages append to the same results folder; the summary and plots
# are rebuilt from all trials.
#
# A build made on another machine (for example with GCC's offload compiler,
# which the GPU machine may lack) can be carried along: its lib/ holds the
# OpenACC runtime that this script puts on LD_LIBRARY_PATH. Stage
# portability runs tools/gpu_portability.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
REPEATS=${REPEATS:-5}
LADDER=${LADDER:-128x128:50,512x512:200,1024x1024:300,2048x2048:500}
BIG=${BIG:-8192x8192:1000}
BIG_SLOW=${BIG_SLOW:-8192x8192:50}
PRECISIONS=${PRECISIONS:-f64,f32}

die() { echo "gpu_bench: $*" >&2; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script needs an NVIDIA GPU"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr -c 'A-Za-z0-9._\n-' '-')
[ -n "$gpu" ] || die "no GPU reported by nvidia-smi"

if [ ! -x "$BUILD/bin/heat2d" ]; then
  # The default configure: CUDA for this machine's GPU, OpenACC offloaded
  # when GCC's nvptx compiler works here.
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$BUILD" -j "$(nproc)"
fi
export LD_LIBRARY_PATH="$PWD/$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A missing device is an error, never a silent fall-back to the host.
export ACC_DEVICE_TYPE=nvidia
h=$BUILD/bin/heat2d

out=${OUT_DIR:-results/$gpu/gpu_bench}
mkdir -p "$out"

stage_check() {
  "$h" check --gpu | tee "$out/gpu_check.txt" | grep -E '^(GPU_CHECK|CPU_CHECK)='
  grep -q '^GPU_CHECK=PASS$' "$out/gpu_check.txt" || die "GPU_CHECK failed: no benchmark"
  "$h" check --gpu --precision f32 | tee "$out/gpu_check_f32.txt" | grep -E '^(GPU_CHECK|CPU_CHECK)='
  grep -q '^GPU_CHECK=PASS$' "$out/gpu_check_f32.txt" || die "GPU_CHECK (f32) failed: no benchmark"
}
stage_ladder() {
  "$h" bench --out "$out" --sizes "$LADDER" --repeats "$REPEATS" --warmups 1
}
# At 8192^2 the resident methods get the full repeats; the methods that
# touch the host every step (or compute on it) move or compute ~1 GB per
# step, so one trial of each says what many would and keeps the run short.
stage_big_resident() {
  local methods
  methods=$("$h" methods | awk '$3 == "resident" {print $1}' | paste -sd, -)
  "$h" bench --out "$out" --sizes "$BIG" --repeats "$REPEATS" --warmups 1 --methods "$methods" \
    --precision "$PRECISIONS"
}
stage_big_slow() {
  local methods
  methods=$("$h" methods | awk '$3 != "resident" {print $1}' | paste -sd, -)
  "$h" bench --out "$out" --sizes "$BIG_SLOW" --repeats 1 --warmups 0 --methods "$methods" \
    --pinned-too
}

# compute-sanitizer's memcheck and racecheck on every CUDA method, at an odd
# grid and step count; any report fails the stage.
stage_sanitize() {
  command -v compute-sanitizer >/dev/null || die "compute-sanitizer not found"
  local log=$out/sanitizer.txt m tool
  : >"$log"
  for m in $("$h" methods | awk '$1 ~ /^cuda/ {print $1}'); do
    for tool in memcheck racecheck; do
      echo "## $tool $m 67x45/13" >>"$log"
      compute-sanitizer --tool "$tool" --error-exitcode 86 \
        "$h" run --method "$m" --nx 67 --ny 45 --steps 13 >>"$log" 2>&1 ||
        die "compute-sanitizer $tool found errors in $m (see $log)"
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1
    done
  done
  compute-sanitizer --tool memcheck --error-exitcode 86 \
    "$h" run --method cuda-each --pinned --nx 67 --ny 45 --steps 13 >>"$log" 2>&1 ||
    die "compute-sanitizer memcheck found errors in cuda-each --pinned"
  # Snapshots every 3 steps of 13 (the last one off the beat), copied plain
  # and overlapped, from pinned host arrays too.
  for m in cuda-resident cuda-graph cuda-tb; do
    for copy in plain overlap; do
      for tool in memcheck racecheck; do
        echo "## $tool $m --pinned --output-every 3 --snapshot-copy $copy 67x45/13" >>"$log"
        compute-sanitizer --tool "$tool" --error-exitcode 86 "$h" run --method "$m" --pinned \
          --output-every 3 --snapshot-copy "$copy" --nx 67 --ny 45 --steps 13 >>"$log" 2>&1 ||
          die "compute-sanitizer $tool found errors in $m snapshots ($copy)"
      done
    done
  done
  # f32: each kernel: odd nx (one float a thread), nx a multiple of 4
  # (float4 quads) and nx even but not (float2 pairs).
  for m in $("$h" methods | awk '$1 ~ /^cuda/ {print $1}'); do
    for grid in 67x45 68x45 70x45; do
      echo "## memcheck $m f32 $grid/13" >>"$log"
      compute-sanitizer --tool memcheck --error-exitcode 86 "$h" run --method "$m" --precision f32 \
        --nx "${grid%x*}" --ny "${grid#*x}" --steps 13 >>"$log" 2>&1 ||
        die "compute-sanitizer memcheck found errors in $m f32 $grid"
    done
  done
  echo "SANITIZE=PASS" | tee -a "$log"
}

# The field on the host every K steps: the resident methods at the
# headline sizes, each K with plain and overlapped copies, beside the run
# without snapshots.
SNAPSHOT_SIZES=${SNAPSHOT_SIZES:-2048x2048:500,8192x8192:1000}
SNAPSHOT_EVERY=${SNAPSHOT_EVERY:-1,10,100}
SNAPSHOT_METHODS=${SNAPSHOT_METHODS:-cuda-resident,cuda-graph,cuda-tb,acc-resident}
stage_snapshots() {
  "$h" bench --out "$out" --sizes "$SNAPSHOT_SIZES" --repeats "$REPEATS" --warmups 1 \
    --methods "$SNAPSHOT_METHODS" --output-every "$SNAPSHOT_EVERY" --snapshot-copy plain,overlap \
    ${SNAPSHOT_BUDGET:+--budget "$SNAPSHOT_BUDGET"}
}

# Nsight Compute's view of each main kernel at 8192^2 (one launch after a
# few warm ones, clocks left alone): how close to DRAM bandwidth the
# single-step kernels run, and what limits the temporal-blocking one. The
# OpenACC run leaves CUPTI to ncu (HEAT2D_TRANSFER_TRACE=off).
stage_profiles() {
  command -v ncu >/dev/null || die "ncu not found"
  local log=$out/profiles.txt m prec sections
  : >"$log"
  for spec in cuda-resident:f64:200 cuda-resident:f32:200 cuda-tb:f64:70 cuda-tb:f32:70 \
    acc-resident:f64:30; do
    IFS=: read -r m prec steps <<<"$spec"
    sections=(--section SpeedOfLight --section Occupancy --section LaunchStats)
    [ "$m" = cuda-tb ] && sections+=(--section WarpStateStats --section ComputeWorkloadAnalysis)
    # acc-resident's default step kernel, not the edge-zeroing or set-up ones.
    [ "$m" = acc-resident ] && sections+=(--kernel-name regex:args_columns)
    echo "## $m $prec 8192x8192, launch 4" >>"$log"
    HEAT2D_TRANSFER_TRACE=off ncu --clock-control none "${sections[@]}" --launch-skip 3 \
      --launch-count 1 "$h" run --method "$m" --precision "$prec" --nx 8192 --ny 8192 \
      --steps "$steps" 2>&1 | grep -vE '^(==PROF==|METHOD=|NX=|NY=|MASS=|CENTRE=|MIN=|MAX=)' >>"$log" ||
      die "ncu failed on $m $prec (see $log)"
  done
  grep -E '^## |DRAM Throughput|Duration|Achieved Occupancy|Registers Per Thread' "$log"
}

stage_portability() {
  tools/gpu_portability.sh "$out"
}

stages=${*:-check ladder big_resident big_slow snapshots sanitize profiles}
for stage in $stages; do
  case $stage in
    check | ladder | big_resident | big_slow | snapshots | sanitize | profiles | portability) "stage_$stage" ;;
    *) die "unknown stage '$stage' (check, ladder, big_resident, big_slow, snapshots, sanitize, profiles, portability)" ;;
  esac
done
echo "gpu_bench: results in $out"
