#!/usr/bin/env bash
# cuda-overlap on the GPU in one command: is it right, and is its step
# within 1.1 x max(S/H2D, S/D2H), the floor of a per-step method whose two
# copy directions overlap? And how do the chunk count and the link's
# concurrent bandwidth bear on that?
#
#   BUILD=build-gpu tools/tuning/overlap_floor.sh            # all stages
#   BUILD=build-gpu tools/tuning/overlap_floor.sh timing     # some stages, in order
#
# Stages: build (only when BUILD has no heat2d with cuda-overlap: then a
# CUDA-only build in build-overlap), limits (heat2d info --bandwidth and the
# concurrent-copy probe tools/tuning/bidir_copy_probe.cu), check (heat2d check
# --gpu, cuda-overlap's lines), fields (full fields against cpu with
# tolerance 0, several chunk counts), sanitize (compute-sanitizer memcheck
# and initcheck), timing (cuda-each --pinned against cuda-overlap,
# REPEATS fresh processes each, alternating), sweep (HEAT2D_OVERLAP_CHUNKS),
# summary (per step against the floor; OVERLAP_WITHIN_FLOOR=PASS when the
# median is within 1.1 x at both sizes). About 2-3 minutes on an H200 after
# the build. results/NVIDIA-H200/overlap/ holds one run's output.
#
# Logs and CSVs go to OUT_DIR (default: $OUT when set, else
# /tmp/heat2d-overlap); field files to a scratch folder that is removed at
# exit. Exit status 1 when a correctness stage failed; the timing verdict is
# printed, not turned into an exit status.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build-overlap}
OUT_DIR=${OUT_DIR:-${OUT:-/tmp/heat2d-overlap}}
REPEATS=${REPEATS:-3}
SIZES=${SIZES:-2048x2048:200 8192x8192:50}
mkdir -p "$OUT_DIR"
scratch=$(mktemp -d /tmp/heat2d-overlap-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
failures=0

die() {
  echo "overlap_floor: $*" >&2
  exit 1
}
bad() {
  echo "overlap_floor: FAIL: $*" | tee -a "$OUT_DIR/failures.txt" >&2
  failures=$((failures + 1))
}
# KEY=VALUE of a run's output file.
key() { sed -n "s/^$2=[[:space:]]*//p" "$1" | head -n 1; }
stamp() { echo "## $1 ($(date +%T), ${SECONDS}s in)"; }

h=$BUILD/bin/heat2d
# A carried offload build brings its OpenACC runtime in lib/: without it
# `heat2d check --gpu` finds its OpenACC methods on the host and fails them.
export LD_LIBRARY_PATH="$PWD/$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-nvidia}
stage_build() {
  stamp build
  if "$h" methods 2>/dev/null | grep -q '^cuda-overlap '; then
    echo "using $h"
    return
  fi
  # A build carried from another machine may not run here (other
  # libraries); build afresh, CUDA only, in a folder of its own.
  BUILD=build-overlap
  h=$BUILD/bin/heat2d
  rm -rf "$BUILD"
  if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHEAT2D_CUDA=ON -DHEAT2D_OPENACC=OFF \
    -DHEAT2D_MPI=OFF >"$OUT_DIR/build.log" 2>&1 ||
    ! cmake --build "$BUILD" -j "$(nproc)" >>"$OUT_DIR/build.log" 2>&1; then
    die "build failed: $OUT_DIR/build.log"
  fi
  "$h" methods | grep -q '^cuda-overlap ' || die "$h has no cuda-overlap"
  echo "built $h"
}

stage_limits() {
  stamp limits
  "$h" info --bandwidth >"$OUT_DIR/bandwidth.txt" 2>&1 || bad "heat2d info --bandwidth"
  grep -E '^(DEVICE_COPY|H2D_PINNED|D2H_PINNED|BOTH_PINNED)_GBS=' "$OUT_DIR/bandwidth.txt"
  if command -v nvcc >/dev/null; then
    if nvcc -O2 -arch=sm_90 -o "$scratch/bidir" tools/tuning/bidir_copy_probe.cu 2>"$OUT_DIR/bidir_build.log"; then
      "$scratch/bidir" | tee "$OUT_DIR/bidir.txt"
    else
      echo "overlap_floor: probe did not build ($OUT_DIR/bidir_build.log)"
    fi
  else
    echo "overlap_floor: no nvcc: concurrent-copy probe skipped"
  fi
}

stage_check() {
  stamp check
  "$h" check --gpu >"$OUT_DIR/check.txt" 2>&1
  local rc=$?
  grep -E 'cuda-overlap|^COMPARE=|GPU_CHECK' "$OUT_DIR/check.txt"
  if [ $rc -ne 0 ] || ! grep -q '^GPU_CHECK=PASS$' "$OUT_DIR/check.txt"; then
    bad "heat2d check --gpu (exit $rc; $OUT_DIR/check.txt)"
  fi
  # A check line ends in PASS or FAIL; FAILURES=0 on a passing line is not one.
  if grep 'cuda-overlap' "$OUT_DIR/check.txt" | grep -qE '(^| )FAIL$'; then
    bad "a cuda-overlap check line failed"
  fi
  if ! grep -q 'cuda-overlap' "$OUT_DIR/check.txt"; then
    bad "heat2d check --gpu did not run cuda-overlap"
  fi
}

# One grid: cpu's field, then cuda-overlap's with each chunk count ("" is the
# default), compared cell by cell with tolerance 0.
fields_case() {
  local nx=$1 ny=$2 steps=$3
  shift 3
  "$h" run --method cpu --nx "$nx" --ny "$ny" --steps "$steps" --save "$scratch/cpu.dat" \
    >/dev/null || {
    bad "cpu ${nx}x${ny}/$steps"
    return
  }
  local chunks
  for chunks in "$@"; do
    local run=$scratch/run.txt cmp=$scratch/cmp.txt
    if ! HEAT2D_OVERLAP_CHUNKS=$chunks "$h" run --method cuda-overlap --nx "$nx" --ny "$ny" \
      --steps "$steps" --save "$scratch/ov.dat" >"$run" 2>&1; then
      bad "cuda-overlap ${nx}x${ny}/$steps chunks=${chunks:-default}: $(tail -n 1 "$run")"
      continue
    fi
    "$h" compare "$scratch/cpu.dat" "$scratch/ov.dat" --atol 0 --rtol 0 >"$cmp" 2>&1
    local rc=$?
    echo "FIELD ${nx}x${ny}/$steps chunks=${chunks:-default} CHUNKS_PER_STEP=$(printf '%.0f' "$(key "$run" CHUNKS_PER_STEP)") H2D_COUNT=$(key "$run" H2D_COUNT) D2H_COUNT=$(key "$run" D2H_COUNT) $(grep -o 'MAX_ABS_DIFF=[^ ]* WORST_INDEX=[^ ]* FAILURES=[0-9]*' "$cmp") $(grep '^COMPARE=' "$cmp")"
    if [ $rc -ne 0 ] || ! grep -q '^COMPARE=PASS$' "$cmp"; then
      bad "cuda-overlap ${nx}x${ny}/$steps chunks=${chunks:-default} differs from cpu"
    fi
    local s=$((nx * ny * 8 * steps))
    if [ "$(key "$run" H2D_COUNT)" != "$steps" ] || [ "$(key "$run" D2H_COUNT)" != "$steps" ] ||
      [ "$(key "$run" H2D_BYTES)" != "$s" ] || [ "$(key "$run" D2H_BYTES)" != "$s" ]; then
      bad "cuda-overlap ${nx}x${ny}/$steps chunks=${chunks:-default}: transfers differ from N, N*S"
    fi
  done
}

stage_fields() {
  stamp fields
  {
    # 5x5: fewer rows than most chunk counts; 1000 becomes one chunk per row.
    fields_case 5 5 3 "" 1 2 3 1000
    fields_case 25 21 7 "" 1 4 7 21
    fields_case 1001 703 37 "" 1 3 16 1000
    fields_case 4099 517 101 "" 7 517
    fields_case 2048 2048 11 "" 3
  } 2>&1 | tee "$OUT_DIR/fields.txt"
  # bad() ran in the pipe's subshell: its count is lost, failures.txt has it.
}

stage_sanitize() {
  stamp sanitize
  if ! command -v compute-sanitizer >/dev/null; then
    echo "overlap_floor: no compute-sanitizer: stage skipped"
    return
  fi
  local tool chunks log=$OUT_DIR/sanitizer.txt
  : >"$log"
  for tool in memcheck initcheck; do
    for chunks in 5 45; do
      echo "### $tool cuda-overlap 67x45/13 chunks=$chunks" >>"$log"
      HEAT2D_OVERLAP_CHUNKS=$chunks compute-sanitizer --tool "$tool" --error-exitcode 86 \
        "$h" run --method cuda-overlap --nx 67 --ny 45 --steps 13 >>"$log" 2>&1 ||
        bad "compute-sanitizer $tool cuda-overlap chunks=$chunks ($log)"
      echo "$tool chunks=$chunks: $(grep -E 'ERROR SUMMARY' "$log" | tail -n 1)"
    done
  done
}

# One run into timings.csv: label, size, repeat and the loop's numbers.
timed_run() {
  local label=$1 nx=$2 ny=$3 steps=$4 rep=$5 chunks=$6
  shift 6
  local run=$scratch/timed.txt
  if ! HEAT2D_OVERLAP_CHUNKS=$chunks "$h" run --nx "$nx" --ny "$ny" --steps "$steps" "$@" \
    >"$run" 2>&1; then
    bad "$label ${nx}x${ny}/$steps: $(tail -n 1 "$run")"
    return
  fi
  local c
  c=$(key "$run" CHUNKS_PER_STEP)
  [ -n "$c" ] && c=$(printf '%.0f' "$c")
  echo "$label,$nx,$ny,$steps,$rep,$c,$(key "$run" STEP_REGIONS_S),$(key "$run" DEVICE_LOOP_S),$(key "$run" TOTAL_S),$(key "$run" PIN_S)" |
    tr -d ' ' >>"$OUT_DIR/timings.csv"
}

stage_timing() {
  stamp timing
  local size nx ny steps rep
  for size in $SIZES; do
    nx=${size%%x*}
    ny=${size#*x}
    ny=${ny%%:*}
    steps=${size##*:}
    for rep in $(seq 1 "$REPEATS"); do
      # Alternate which goes first, so that neither always gets the warmer
      # machine.
      if [ $((rep % 2)) -eq 1 ]; then
        timed_run cuda-each-pinned "$nx" "$ny" "$steps" "$rep" "" --method cuda-each --pinned
        timed_run cuda-overlap "$nx" "$ny" "$steps" "$rep" "" --method cuda-overlap
      else
        timed_run cuda-overlap "$nx" "$ny" "$steps" "$rep" "" --method cuda-overlap
        timed_run cuda-each-pinned "$nx" "$ny" "$steps" "$rep" "" --method cuda-each --pinned
      fi
    done
  done
  echo "$(grep -c . "$OUT_DIR/timings.csv") rows in $OUT_DIR/timings.csv"
}

stage_sweep() {
  stamp sweep
  local c
  for c in 1 2 4 8 16 32 64; do
    timed_run "sweep-c$c" 2048 2048 200 1 "$c" --method cuda-overlap
  done
  for c in 4 8 16 32; do
    timed_run "sweep-c$c" 8192 8192 50 1 "$c" --method cuda-overlap
  done
}

# Medians per label and size, per step, against the floor.
stage_summary() {
  stamp summary
  local h2d d2h bi_h2d bi_d2h
  h2d=$(key "$OUT_DIR/bandwidth.txt" H2D_PINNED_GBS)
  d2h=$(key "$OUT_DIR/bandwidth.txt" D2H_PINNED_GBS)
  # The concurrent floor: heat2d's own measurement of both directions at
  # once (per direction), else the probe's.
  bi_h2d=$(key "$OUT_DIR/bandwidth.txt" BOTH_PINNED_GBS)
  bi_d2h=$bi_h2d
  if [ -z "$bi_h2d" ]; then
    bi_h2d=$(key "$OUT_DIR/bidir.txt" BIDIR_H2D_GBS 2>/dev/null)
    bi_d2h=$(key "$OUT_DIR/bidir.txt" BIDIR_D2H_GBS 2>/dev/null)
  fi
  if [ -z "$h2d" ] || [ -z "$d2h" ]; then
    bad "no pinned bandwidths in $OUT_DIR/bandwidth.txt: no verdict"
    return
  fi
  echo "floor: max(S/H2D, S/D2H) with H2D=$h2d D2H=$d2h GB/s (pinned, each alone); concurrent: H2D=${bi_h2d:-?} D2H=${bi_d2h:-?} GB/s"
  sort -t, -k1,1 -k2,2n -k3,3n "$OUT_DIR/timings.csv" |
    awk -F, -v h2d="$h2d" -v d2h="$d2h" -v bh="${bi_h2d:-0}" -v bd="${bi_d2h:-0}" '
      function median(list, n,   i, j, t, a) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      }
      { k = $1 "," $2 "," $3 "," $4; if (!(k in n)) order[++m] = k
        n[k]++; loop[k] = loop[k] " " $7; dev[k] = dev[k] " " $8; tot[k] = tot[k] " " $9; ch[k] = $6 }
      END {
        printf "%-18s %-12s %6s %5s %13s %13s %13s %12s %9s %12s\n", "method", "grid", "steps", "runs", "loop/step ms", "device ms", "total/step", "floor ms", "ratio", "vs concurrent"
        for (i = 1; i <= m; i++) {
          k = order[i]; split(k, f, ",")
          s = f[2] * f[3] * 8
          fl = (h2d < d2h ? s / (h2d * 1e9) : s / (d2h * 1e9)) * 1e3
          lo = bh < bd ? bh : bd
          fb = lo > 0 ? s / (lo * 1e9) * 1e3 : 0
          ps = median(loop[k]) / f[4] * 1e3
          dv = dev[k] ~ /[0-9]/ ? sprintf("%.4f", median(dev[k]) / f[4] * 1e3) : "-"
          r = ps / fl
          printf "%-18s %-12s %6d %5d %13.4f %13s %13.4f %12.4f %9.3f %12s\n", f[1] (ch[k] != "" ? "(c" ch[k] ")" : ""), f[2] "x" f[3], f[4], n[k], ps, dv, median(tot[k]) / f[4] * 1e3, fl, r, (fb > 0 ? sprintf("%.3f", ps / fb) : "-")
          if (f[1] == "cuda-overlap") { verdicts++; if (r <= 1.1) passes++ }
        }
        printf "\nratio: loop per step (STEP_REGIONS_S / steps, median) over max(S/H2D, S/D2H); goal <= 1.1\n"
        printf "vs concurrent: the same over S at the rate each direction keeps while the other runs too\n"
        if (verdicts > 0) print (passes == verdicts ? "OVERLAP_WITHIN_FLOOR=PASS" : "OVERLAP_WITHIN_FLOOR=FAIL") " (" passes + 0 "/" verdicts " sizes within 1.1x)"
      }' | tee "$OUT_DIR/summary.txt"
}

: >"$OUT_DIR/failures.txt"
stages=${*:-build limits check fields sanitize timing sweep summary}
case " $stages " in
  *" timing "* | *" sweep "*) : >"$OUT_DIR/timings.csv" ;;
esac
for stage in $stages; do
  case $stage in
    build | limits | check | fields | sanitize | timing | sweep | summary) "stage_$stage" ;;
    *) die "unknown stage '$stage'" ;;
  esac
done
stamp "done"
if [ "$failures" -gt 0 ] || [ -s "$OUT_DIR/failures.txt" ]; then
  echo "OVERLAP_CORRECTNESS=FAIL (see $OUT_DIR/failures.txt)"
  exit 1
fi
echo "OVERLAP_CORRECTNESS=PASS"
