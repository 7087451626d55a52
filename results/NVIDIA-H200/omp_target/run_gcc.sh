#!/bin/bash
# Branch omp-target (REV in gpu-carry/both): one GCC 12 build that offloads
# OpenACC and OpenMP target (its own library) beside CUDA, on the H200.
#   gpu-carry/both.sh STAGE...   (tools/gpu_omp_target.sh's: check sanitize sweep bench)
#   gpu-carry/both.sh teams      (GOMP_DEBUG: the teams libgomp launches)
set -u
R=$PWD
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
B=$R/gpu-carry/both/build
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64
export HEAT2D_PLOT_SCRIPT=$R/tools/plot_bench.py HEAT2D_RUN_OPTIONS=$B/share/heat2d/run_options.json
W=$OUT/both; mkdir -p $W; cp gpu-carry/both/REV $W/revision.txt; cp $0 $W/run.sh
cd gpu-carry/both
t0=$(date +%s)
if [ "$1" = teams ]; then
  for s in columns columns2; do
    GOMP_DEBUG=1 HEAT2D_OMP_TARGET_SCHEDULE=$s $B/bin/heat2d run --method omp-target-resident --nx 8192 --ny 8192 --steps 20 2>&1 |
      grep -iE "teams|launch|GOMP_OFFLOAD_run|num_teams|threads|TIME|LOOP" | sort | uniq -c | head -20 | tee -a $W/teams_$s.txt
  done
else
  OUT=$W BUILD=$B tools/gpu_omp_target.sh "$@" 2>&1 | tee -a $W/log.txt
fi
echo "both $* rc=${PIPESTATUS[0]} $(( $(date +%s) - t0 )) s" | tee -a $W/log.txt
cd $OUT && tar czf both_${TAG:-$(echo "$*" | tr ' ' _)}.tgz both && rm -rf both
