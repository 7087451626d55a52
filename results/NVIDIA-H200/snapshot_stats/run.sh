#!/bin/bash
# Call 1: the device's snapshot invariants on the H200 (a carried build).
set -u
R=$PWD/build-rev
mkdir -p /tmp/nc /tmp/ncl && tar xJf $R/ncdeps.tar.xz -C /tmp/nc
for f in /tmp/nc/ncdeps/*; do n=$(basename $f); ldconfig -p | grep -q " $n " || cp $f /tmp/ncl/; done
echo "carried libs used: $(ls /tmp/ncl | tr '\n' ' ')"
export LD_LIBRARY_PATH=$R/run/lib:/tmp/ncl:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HEAT2D_PLOT_SCRIPT=$R/src/tools/plot_bench.py
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
export ACC_DEVICE_TYPE=nvidia
H=$R/run/bin/heat2d; W=$OUT/w; mkdir -p $W
ldd $H | grep "not found"
t0=$(date +%s)
$H info > $W/info.txt 2>&1; echo "info rc=$?"
$R/run/bin/test_snapshot_stats > $W/test_snapshot_stats.txt 2>&1; echo "stats rc=$? $(tail -1 $W/test_snapshot_stats.txt)"
$H check --gpu > $W/gpu_check.txt 2>&1; echo "check f64 rc=$? $(tail -1 $W/gpu_check.txt)"
$H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; echo "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt)"
grep -c "DEVICE_STATS=[1-9]" $W/gpu_check.txt
echo "checks $(( $(date +%s) - t0 )) s"
for tool in memcheck racecheck; do for c in plain overlap; do
  HEAT2D_TRANSFER_TRACE=off timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-resident --nx 517 --ny 389 --steps 23 --output-every 5 --snapshot-copy $c > $W/sanitize_${tool}_$c.txt 2>&1
  echo "$tool $c rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/sanitize_${tool}_$c.txt)"
done; done
echo "sanitizer $(( $(date +%s) - t0 )) s"
for m in cuda-resident cuda-tb; do for k in 0 1 10 100; do
  a=""; [ $k -gt 0 ] && a="--output-every $k --snapshot-copy overlap"
  $H run --method $m --nx 8192 --ny 8192 --steps 1000 $a > $W/run_${m}_$k.txt 2>&1
  echo "$m K=$k rc=$? $(grep -E '^(TOTAL_S|GPU_LOOP_S|READBACK_S|SNAPSHOT_WAIT_S|SNAPSHOT_CALLBACK_S)=' $W/run_${m}_$k.txt | tr '\n' ' ')"
done; done
echo "total $(( $(date +%s) - t0 )) s"
cd $OUT && tar czf call1.tgz w && rm -rf w
