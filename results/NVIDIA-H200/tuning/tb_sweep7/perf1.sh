#!/bin/bash
# cuda-tb's scaled (four-operation) variants: check --gpu in f64 and f32,
# the variant sweep at 8192^2 x 1000 and 2048^2 x 500 against the fused
# variants and cuda-resident, each candidate against cpu on odd grids at
# three alphas, compute-sanitizer on the main variants, Nsight Compute on
# the f64 main variant.
set -u
C=$PWD/gpu-carry; H=$C/bin/heat2d
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=$OUT/perf1; mkdir -p $W
cp $C/perf_revision.txt $C/perf1.sh $W/
t0=$(date +%s)
nvidia-smi > $W/nvidia-smi.txt 2>&1
timeout 120 $H check --gpu > $W/gpu_check.txt 2>&1; echo "check f64 rc=$? $(tail -1 $W/gpu_check.txt) $(( $(date +%s) - t0 )) s"
timeout 120 $H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; echo "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt) $(( $(date +%s) - t0 )) s"
TB_F64="8r4fsd 8r4qsd 8r4qspd 9r4qs 10r4qs 6r6qs" TB_F32="9r6fsp 9r6qsp 10r6qsp 11r6qsp 12r4qspd 16r4qspd" \
TB_F64_2048="8r4fsd 8r4qsd 6r6qs" TB_F32_2048="9r6fsp 9r6qsp" REPEATS=3 \
CHECK_F64="8r4qsd 8r4qspd 9r4qs 10r4qs 6r6qs" CHECK_F32="9r6qsp 10r6qsp 11r6qsp 12r4qspd 16r4qspd" \
  timeout 240 bash $C/tb_variants.sh $C $W/sweep > $W/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; cat $W/sweep/best.txt; grep -c PASS $W/sweep/compare.txt; grep -v "COMPARE=PASS" $W/sweep/compare.txt | head
REPEATS=1 CHECK_F64="8r4qsd" CHECK_F32="9r6qsp" ALPHAS="0.25 0.01" timeout 100 bash $C/tb_variants.sh $C $W/alphas > $W/alphas.log 2>&1
echo "alphas rc=$? $(( $(date +%s) - t0 )) s"; grep -c PASS $W/alphas/compare.txt; grep -v "COMPARE=PASS" $W/alphas/compare.txt | head
for tool in memcheck racecheck; do for pv in f64:8r4qsd f32:9r6qsp; do for g in 517x389 1000x600; do
  p=${pv%%:*}; v=${pv#*:}
  HEAT2D_TRANSFER_TRACE=off HEAT2D_CUDA_TB_VARIANT=$v timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-tb --nx ${g%x*} --ny ${g#*x} --steps 23 --precision $p > $W/sanitize_${tool}_${v}_$g.txt 2>&1
  echo "$tool $v $g rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/sanitize_${tool}_${v}_$g.txt)"
done; done; done
echo "sanitizer $(( $(date +%s) - t0 )) s"
HEAT2D_TRANSFER_TRACE=off HEAT2D_CUDA_TB_VARIANT=8r4qsd timeout 150 ncu --clock-control none --set full --import-source yes --page details -k regex:tb_kernel -c 1 $H run --method cuda-tb --nx 8192 --ny 8192 --steps 32 > $W/ncu_8r4qsd.txt 2>&1
echo "ncu rc=$? $(( $(date +%s) - t0 )) s"
grep -E "Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|DRAM Throughput|Duration" $W/ncu_8r4qsd.txt | head
cd $OUT && tar czf perf1.tgz perf1 && rm -rf perf1
