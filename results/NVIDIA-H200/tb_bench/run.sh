#!/bin/bash
# Session call 5 (issue 24), at the revision in REV: check --gpu in f64 and
# f32, compute-sanitizer on cuda-tb's main variants (odd and aligned grids),
# then the bench of cuda-tb, cuda-resident and acc-resident at issue 24's
# sizes, f64 and f32, with their -pinned twins.
set -u
. build-rev/env.sh
cat $R/REV > $W/revision.txt
$H check --gpu > $W/gpu_check.txt 2>&1; echo "check f64 rc=$? $(tail -1 $W/gpu_check.txt)"
$H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; echo "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt)"
echo "checks $(( $(date +%s) - t0 )) s"
for tool in memcheck racecheck; do for p in f64 f32; do for g in 517x389 1000x600; do
  HEAT2D_TRANSFER_TRACE=off timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-tb --nx ${g%x*} --ny ${g#*x} --steps 23 --precision $p > $W/sanitize_${tool}_${p}_$g.txt 2>&1
  echo "$tool $p $g rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/sanitize_${tool}_${p}_$g.txt)"
done; done; done
echo "sanitizer $(( $(date +%s) - t0 )) s"
$H bench --methods cuda-tb,cuda-resident,acc-resident --pinned-too --sizes 8192x8192:1000,2048x2048:500 --precision f64,f32 --out $W/tb_bench > $W/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 )) s"
mv $W/bench.log $W/tb_bench/ 2>/dev/null
cp build-rev/call5.sh $W/tb_bench/run.sh
sed -n '/## Headline/,/headline.png/p' $W/tb_bench/summary.md | grep "^| cuda-tb"
grep -E "^\| (cuda-tb|acc-resident|cuda-resident)" $W/tb_bench/summary.md | grep -v "NVIDIA H200 |" | head -30
cd $OUT && tar czf call5.tgz w && rm -rf w
