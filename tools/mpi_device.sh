#!/usr/bin/env bash
# mpi-cuda on a machine with GPUs, in one command: build with MPI and CUDA
# against that machine's own MPI, prove mpi-cuda right (and mpi-cpu on its
# cores), then measure weak and strong scaling over 1..P GPUs with the bench.
#
#   tools/mpi_device.sh                    # every stage
#   tools/mpi_device.sh test bench         # some stages, in order
#   RANKS=1,2 STRONG=16384x16384:1000 WEAK=8192x8192:500 tools/mpi_device.sh
#
# Stages: build (BUILD, default build-mpi-gpu: MPI comes from the machine's
# mpicc, so a build carried from elsewhere would link another MPI), test
# (tests/test_mpi.sh for mpi-cuda with CUDA-aware halos if the MPI has them,
# then with HEAT2D_MPI_CUDA_AWARE=0, then mpi-cpu), bench (heat2d bench
# --ranks RANKS --sizes STRONG --weak WEAK into OUT_DIR, default
# results/<gpu>-x<count>/mpi_device/: the machine's folder, this run's own).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-mpi-gpu}
RANKS=${RANKS:-1,2}
STRONG=${STRONG:-16384x16384:1000}
WEAK=${WEAK:-8192x8192:500}
REPEATS=${REPEATS:-3}

die() {
  echo "mpi_device: $*" >&2
  exit 1
}
stamp() { echo "## $1 ($(date +%T), ${SECONDS}s in)"; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script needs NVIDIA GPUs"
command -v mpirun >/dev/null || die "mpirun not found: this script needs an MPI"
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr -c 'A-Za-z0-9._\n-' '-')
out=${OUT_DIR:-results/$gpu-x$gpus/mpi_device}
h=$BUILD/bin/heat2d
# OpenMPI refuses root unless told; the device machines run commands as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

stage_build() {
  stamp build
  mkdir -p "$out"
  # HEAT2D_SOURCE_REVISION: the revision of a tree exported without .git.
  if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHEAT2D_CUDA=ON -DHEAT2D_OPENACC=OFF \
    -DHEAT2D_MPI=ON ${HEAT2D_SOURCE_REVISION:+-DHEAT2D_SOURCE_REVISION=$HEAT2D_SOURCE_REVISION} \
    >"$BUILD.log" 2>&1 || ! cmake --build "$BUILD" -j "$(nproc)" >>"$BUILD.log" 2>&1; then
    tail -n 30 "$BUILD.log" >&2
    die "build failed (log: $BUILD.log)"
  fi
  "$h" methods | grep -q '^mpi-cuda ' || die "$h has no mpi-cuda"
  mpirun --version 2>&1 | head -n 1
  "$h" info | grep -E '^(MPI|CUDA|DEVICE)' || true
}

stage_test() {
  stamp "test mpi-cuda"
  bash tests/test_mpi.sh "$BUILD/bin" mpirun mpi-cuda
  stamp "test mpi-cuda, halos staged through pinned host memory"
  HEAT2D_MPI_CUDA_AWARE=0 bash tests/test_mpi.sh "$BUILD/bin" mpirun mpi-cuda
  stamp "test mpi-cpu"
  bash tests/test_mpi.sh "$BUILD/bin" mpirun mpi-cpu
}

stage_bench() {
  stamp bench
  "$h" bench --out "$out" --methods mpi-cuda --ranks "$RANKS" --sizes "$STRONG" --weak "$WEAK" \
    --repeats "$REPEATS" --warmups 1
}

stages=${*:-build test bench}
for stage in $stages; do
  case $stage in
    build | test | bench) "stage_$stage" ;;
    *) die "unknown stage '$stage' (build, test, bench)" ;;
  esac
done
stamp done
echo "mpi_device: results in $out"
