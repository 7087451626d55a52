#!/bin/bash
# Call 4 (issue 23): the snapshot sweep with no writer (K = 1, 10, 100,
# overlapped copies, each method and its -pinned twin), then the NetCDF
# writer at K=100 to tmpfs and to local disk.
set -u
. build-rev/env.sh
M=cuda-resident,cuda-tb; S=2048x2048:500,8192x8192:1000
$H bench --methods $M --pinned-too --sizes $S --output-every 1,10,100 --snapshot-copy overlap --repeats 3 --budget 45 --out $W/snapshots > $W/snapshots.log 2>&1
echo "none rc=$? $(( $(date +%s) - t0 )) s"
grep -A12 "^| method | copy | writer" $W/snapshots/summary.md | grep "^| cuda"
for where in tmpfs:/dev/shm disk:/var/tmp; do
  name=${where%%:*}; dir=${where#*:}
  TMPDIR=$dir $H bench --methods $M --sizes $S --output-every 100 --snapshot-copy overlap --snapshot-writer none,netcdf --repeats 3 --budget 45 --out $W/writers_$name > $W/writers_$name.log 2>&1
  echo "netcdf $name rc=$? $(( $(date +%s) - t0 )) s $(grep -E '^SCRATCH_(FS|WRITE_GBS)=' $W/writers_$name/bandwidth.txt | tr '\n' ' ')"
  grep -A7 "^| method | copy | writer" $W/writers_$name/summary.md | grep "^| cuda"
done
cd $OUT && tar czf call4.tgz w && rm -rf w
