#!/bin/bash
set -u
cd "$(dirname "$0")/.."
R=$PWD/build-rev
export LD_LIBRARY_PATH=$R/b/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HEAT2D_PLOT_SCRIPT=$R/src/tools/plot_bench.py
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
H=$R/b/bin/heat2d
W=$OUT/w; mkdir -p $W
t0=$(date +%s)
$H check --gpu > $W/gpu_check.txt 2>&1; echo "check f64 rc=$? $(tail -1 $W/gpu_check.txt)"
$H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; echo "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt)"
echo "checks $(( $(date +%s) - t0 )) s"
for tool in memcheck racecheck; do for p in f64 f32; do
  HEAT2D_TRANSFER_TRACE=off timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-tb --nx 517 --ny 389 --steps 23 --precision $p > $W/sanitize_${tool}_$p.txt 2>&1
  echo "$tool $p rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/sanitize_${tool}_$p.txt)"
done; done
echo "sanitizer $(( $(date +%s) - t0 )) s"
$H bench --methods cuda-tb,cuda-resident,acc-resident --pinned-too --sizes 8192x8192:1000,2048x2048:500 --precision f64,f32 --out $W/tb_bench > $W/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 )) s"
sed -n '/## Headline/,/headline.png/p' $W/tb_bench/summary.md
grep -E "cuda-tb|acc-resident|cuda-resident" $W/tb_bench/summary.md | grep -i "gcell\|%" | head -30
cd $OUT && tar czf final.tgz w && rm -rf w
