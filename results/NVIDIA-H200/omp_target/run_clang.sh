#!/bin/bash
# The Clang 19 build (OpenMP target offload through libomptarget, carried
# from Debian with its libraries in clangrt.tar.xz) on the H200.
#   gpu-carry/clang.sh STAGE...   (tools/gpu_omp_target.sh's) | timing
set -u
R=$PWD
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
[ -d /tmp/clangrt/lib ] || { mkdir -p /tmp/clangrt && tar xJf gpu-carry/clang/clangrt.tar.xz -C /tmp/clangrt; }
# libomptarget 19 opens libcuda.so, the driver's unversioned name: link it to the driver's libcuda.so.1.
[ -e /tmp/clangrt/lib/libcuda.so ] || ln -s "$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')" /tmp/clangrt/lib/libcuda.so
ls -l /tmp/clangrt/lib/libcuda.so; ls -l /usr/lib/x86_64-linux-gnu/libcuda.so* 2>&1 | head -3
B=$R/gpu-carry/clang/build
export LD_LIBRARY_PATH=$B/lib:/tmp/clangrt/lib:/usr/local/cuda/lib64
export HEAT2D_PLOT_SCRIPT=$R/gpu-carry/both/tools/plot_bench.py HEAT2D_RUN_OPTIONS=$B/share/heat2d/run_options.json
W=$OUT/clang; mkdir -p $W; cp gpu-carry/clang/REV $W/revision.txt; cp $0 $W/run.sh
cd gpu-carry/both
t0=$(date +%s)
if [ "$1" = timing ]; then
  BUILD=$B REPEATS=1 SIZES="8192x8192:100 2048x2048:200" SCHEDULES="columns2 columns args-rows collapse" \
    tools/tuning/omp_target_sweep.sh timing 2>&1 | tee -a $W/timing.txt
else
  OUT=$W BUILD=$B tools/gpu_omp_target.sh "$@" 2>&1 | tee -a $W/log.txt
fi
echo "clang $* rc=${PIPESTATUS[0]} $(( $(date +%s) - t0 )) s" | tee -a $W/log.txt
cd $OUT && tar czf clang_${TAG:-$(echo "$*" | tr ' ' _)}.tgz clang && rm -rf clang
