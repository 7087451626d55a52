#!/bin/bash
# The article's own programs on the H200: the three Fortran programs built
# by gfortran 12 with its nvptx offload compiler on the development VM
# (tools/build_original.sh, carried with libgomp, its plugin and
# libgfortran), checked against cpu (check --program) and benched beside
# heat2d's methods with their copies counted by the injection library;
# check --gpu of the same carried heat2d build (OpenACC offloaded).
set -u
C=$PWD/gpu-carry/pb
export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export HEAT2D_PLOT_SCRIPT=$PWD/tools/plot_bench.py HEAT2D_RUN_OPTIONS=$C/share/heat2d/run_options.json
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
H=$C/bin/heat2d; W=$OUT/pb; mkdir -p $W; t0=$(date +%s)
cp $C/REV $W/revision.txt; cp $0 $W/run.sh
P=(--program f-cpu=$C/fort/reference_cpu --program f-acc-each=$C/fort/acc_each_step --program f-acc-persistent=$C/fort/acc_persistent)
$H check --gpu > $W/gpu_check.txt 2>&1; echo "check --gpu rc=$? $(tail -1 $W/gpu_check.txt) $(( $(date +%s) - t0 )) s"
for p in f-cpu=$C/fort/reference_cpu f-acc-each=$C/fort/acc_each_step f-acc-persistent=$C/fort/acc_persistent; do
  $H check --program $p > $W/check_${p%%=*}.txt 2>&1; echo "check --program ${p%%=*} rc=$? $(tail -1 $W/check_${p%%=*}.txt)"
done
echo "checks $(( $(date +%s) - t0 )) s"
$H bench --methods cpu,acc-each,acc-resident,cuda-each,cuda-resident "${P[@]}" --sizes 2048x2048:500 --repeats 3 --warmups 1 --budget 25 --out $W/programs_2048 > $W/bench_2048.log 2>&1
echo "bench 2048 rc=$? $(( $(date +%s) - t0 )) s"; tail -3 $W/bench_2048.log
: skip 8192 --program f-acc-each=$C/fort/acc_each_step --program f-acc-persistent=$C/fort/acc_persistent --sizes 8192x8192:100 --repeats 3 --warmups 1 --budget 25 --out $W/programs_8192 > $W/bench_8192.log 2>&1
echo "bench 8192 rc=$? $(( $(date +%s) - t0 )) s"; tail -3 $W/bench_8192.log
grep -iE "^\| (f-|acc-each|acc-resident)" $W/programs_2048/summary.md | head -20
cd $OUT && tar czf pb.tgz pb && rm -rf pb
