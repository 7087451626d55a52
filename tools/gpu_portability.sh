#!/usr/bin/env bash
# The CUDA code a build carries, on this machine's GPU: a build for compute_75
# PTX alone (the driver JIT-compiles it; heat2d info says so, and heat2d check
# --gpu passes in f64 and f32), and one with SASS for sm_86 alone, whose
# first CUDA method refuses with one line naming the architecture to build
# for. Writes DIR/portability.txt (default results/<gpu name>/).
#   usage: tools/gpu_portability.sh [DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr ' ' '-')
[ -n "$gpu" ] || { echo "gpu_portability: no GPU (nvidia-smi lists none)" >&2; exit 1; }
dir=${1:-results/$gpu}
mkdir -p "$dir"
log=$dir/portability.txt
jobs=$(nproc)
status=0
{
  echo "# tools/gpu_portability.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), revision ${HEAT2D_SOURCE_REVISION:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}"
  for build in "ptx75 75-virtual" "sass86 86-real"; do
    read -r name archs <<<"$build"
    b=build-$name
    echo "## CMAKE_CUDA_ARCHITECTURES=$archs"
    if ! cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
      -DHEAT2D_OPENACC=OFF -DHEAT2D_MPI=OFF -DBUILD_TESTING=OFF >"$b.log" 2>&1 </dev/null ||
      ! cmake --build "$b" -j "$jobs" --target heat2d >>"$b.log" 2>&1 </dev/null; then
      echo "BUILD=FAIL (see $b.log)"; tail -n 5 "$b.log"; status=1; continue
    fi
    "$b/bin/heat2d" info | grep -E '^(CUDA_COMPILER|CUDA_SASS|CUDA_PTX|GPU_DEVICE|GPU_COMPUTE_CAPABILITY|CUDA_CODE)='
    if [ "$name" = ptx75 ]; then
      for p in ${PORTABILITY_PRECISIONS:-f64 f32}; do
        "$b/bin/heat2d" check --gpu --precision "$p" >"$b.check-$p.log" 2>&1
        rc=$?
        echo "CHECK_GPU_$p: exit $rc, $(grep -c ' PASS$' "$b.check-$p.log") PASS lines, $(grep -E '^GPU_CHECK=' "$b.check-$p.log" | tail -n 1)"
        [ "$rc" = 0 ] || { status=1; grep -E 'FAIL' "$b.check-$p.log" | head -n 5; }
      done
    else
      "$b/bin/heat2d" run --method cuda-resident --nx 64 --ny 64 --steps 10 >"$b.run.out" 2>"$b.run.err"
      rc=$?
      echo "RUN_CUDA_RESIDENT: exit $rc, stderr lines $(wc -l <"$b.run.err")"
      sed 's/^/STDERR: /' "$b.run.err"
      [ "$rc" = 1 ] && [ "$(wc -l <"$b.run.err")" = 1 ] && grep -q 'no code for' "$b.run.err" || status=1
    fi
  done
  echo "PORTABILITY=$([ "$status" = 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$log"
exit "$status"
