#!/bin/bash
# The OpenMP target methods (branch omp-target, REV in gpu-carry/ot) on the
# H200: tools/gpu_omp_target.sh's stages with the carried GCC 12 nvptx build
# (build-omp-target) and the OpenACC build of main (build-acc).
#   gpu-carry/ot.sh STAGE... ; SIZES=, METHODS=, PRECISIONS= as the script takes
set -u
R=$PWD
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
export LD_LIBRARY_PATH=$R/gpu-carry/ot/build-omp-target/lib:/usr/local/cuda/lib64
export HEAT2D_PLOT_SCRIPT=$R/tools/plot_bench.py HEAT2D_RUN_OPTIONS=$R/gpu-carry/ot/build-omp-target/share/heat2d/run_options.json
W=$OUT/ot; mkdir -p $W; cp gpu-carry/ot/REV $W/revision.txt; cp $0 $W/run.sh
cd gpu-carry/ot
t0=$(date +%s)
OUT=$W BUILD=build-omp-target ACC_BUILD=build-acc tools/gpu_omp_target.sh "$@" 2>&1 | tee -a $W/log.txt
echo "ot $* rc=${PIPESTATUS[0]} $(( $(date +%s) - t0 )) s" | tee -a $W/log.txt
cd $OUT && tar czf ot_$(echo "$*" | tr ' ' _).tgz ot && rm -rf ot
