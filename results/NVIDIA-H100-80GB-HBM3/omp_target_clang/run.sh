#!/usr/bin/env bash
# The device call that wrote this folder (one NVIDIA H100 80GB HBM3):
# tools/gpu_omp_target_clang.sh pack BUILD .gpu/clang was run on the
# development VM on a Clang 19 build of revision.txt's revision
# (CC=clang-19, HEAT2D_OMP_TARGET_CUDA_PATH at Debian 12's CUDA 11.8
# unpacked with dpkg -x, nvcc 13 for the CUDA methods), then, there:
o=$OUT
(OUT=/tmp/o timeout 430 bash .gpu/clang/gpu_omp_target_clang.sh run .gpu/clang)
tar czf "$o/clang.tgz" -C /tmp o
