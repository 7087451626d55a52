#!/bin/bash
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 60 bash gpu-carry/both.sh check 2>&1 | grep -E "CHECK|rc="
timeout 80 bash gpu-carry/both.sh sanitize 2>&1 | tail -2
METHODS=omp-target-resident,acc-resident,cuda-resident SIZES=8192x8192:1000,2048x2048:500 BENCH_BUDGET=8 TAG=bench_resident timeout 170 bash gpu-carry/both.sh bench 2>&1 | grep -E "^\| (omp|acc|cuda)|rc="
METHODS=omp-target-each,acc-each SIZES=2048x2048:500 BENCH_BUDGET=6 TAG=bench_each timeout 70 bash gpu-carry/both.sh bench 2>&1 | grep -E "^\| (omp|acc)|rc="
timeout 60 bash gpu-carry/clang.sh check 2>&1 | grep -E "CHECK|rc=|clang|error" | head
timeout 60 bash gpu-carry/clang.sh sanitize 2>&1 | tail -3
timeout 60 bash gpu-carry/clang.sh timing 2>&1 | grep -E "^(cuda|col|args|coll)|rc="
METHODS=omp-target-resident,cuda-resident SIZES=8192x8192:1000,2048x2048:500 BENCH_BUDGET=6 TAG=bench timeout 100 bash gpu-carry/clang.sh bench 2>&1 | grep -E "^\| (omp|cuda)|rc="
