#!/bin/bash
# Call 3: check --gpu, acc-resident's schedules and the bench of
# acc-resident against cuda-resident (issue 24), the NetCDF writer at K=100
# to tmpfs and to local disk (issue 23).
set -u
. build-rev/env.sh
$H check --gpu > $W/gpu_check.txt 2>&1; echo "check f64 rc=$? $(tail -1 $W/gpu_check.txt)"
$H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; echo "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt)"
grep -h "SNAPSHOTS method=acc" $W/gpu_check*.txt | head -2
(cd $R/src && SIZES=8192x8192:1000 SCHEDULES="columns2 columns2-16 columns4-8 columns" CHECKS="1001x703:37 7x300:9 515x21:6 258x18:5" BUILD=$R/run bash tools/tuning/acc_f32_sweep.sh > $W/acc_f32_sweep.txt 2>&1); echo "acc sweep rc=$? $(( $(date +%s) - t0 )) s"
tail -10 $W/acc_f32_sweep.txt
$H bench --methods cuda-resident,acc-resident --sizes 8192x8192:1000,2048x2048:500 --precision f64,f32 --repeats 5 --out $W/acc_bench > $W/acc_bench.log 2>&1; echo "acc bench rc=$? $(( $(date +%s) - t0 )) s"
grep -E "^\| (acc|cuda)-resident" $W/acc_bench/summary.md | grep -i "% \|gcell" | head -12
for where in tmpfs:/dev/shm disk:/var/tmp; do
  name=${where%%:*}; dir=${where#*:}
  TMPDIR=$dir $H bench --methods cuda-resident,cuda-tb --sizes 2048x2048:500,8192x8192:1000 --output-every 100 --snapshot-copy overlap --snapshot-writer none,netcdf --repeats 3 --budget 60 --out $W/writers_$name > $W/writers_$name.log 2>&1
  echo "netcdf $name rc=$? $(( $(date +%s) - t0 )) s"
  grep -A7 "^| method | copy | writer" $W/writers_$name/summary.md | grep "^| cuda"
done
cd $OUT && tar czf call3.tgz w && rm -rf w
