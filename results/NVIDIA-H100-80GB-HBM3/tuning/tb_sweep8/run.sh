#!/bin/bash
# cuda-tb's candidates in one call: the build, each candidate against cpu
# and against the variant it changes on odd, thin and uneven grids, loop
# rates at four sizes beside cuda-resident, compute-sanitizer on the new
# code paths, Nsight Compute before and after. Run in the source root.
set -u
export PATH=$PATH:/usr/local/cuda/bin
W=$OUT/s; mkdir -p $W
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $W/gpu.txt 2>&1; cat $W/gpu.txt
cp "$0" $W/ 2>/dev/null
{ cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF -DHEAT2D_OPENACC_OFFLOAD=OFF \
  -DHEAT2D_OMP_TARGET=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build b -j16 --target heat2d; } > $W/build.log 2>&1 \
  || { el build failed; tail -30 $W/build.log; exit 1; }
el built
H=$PWD/b/bin/heat2d
F64_BIG=${F64_BIG:-8r4qsd 8r4qsdg 8r6qsdh 8r6qsh 8r8qsdh 10r6qsh 7r4qs}
F32_BIG=${F32_BIG:-9r6qsp 9r6qspg 9r8qsph 9r12qsph 7r6qsp}
F64_SMALL=${F64_SMALL:-8r4qsd 8r4qsdg 8r6qsdh 8r8qsdh 7r4qs}
F32_SMALL=${F32_SMALL:-9r6qsp 9r6qspg 9r8qsph 7r6qsp}
key() { grep "^$1=" | head -1 | cut -d= -f2 | tr -d ' '; }
echo "method,variant,precision,nx,ny,steps,rep,gpu_loop_s,total_s" > $W/runs.csv
one() { # METHOD VARIANT PREC N STEPS REP
  local text
  text=$(env HEAT2D_CUDA_TB_VARIANT=$2 $H run --method $1 --nx $4 --ny $4 --steps $5 --precision $3 2>&1)
  echo "$1,$2,$3,$4,$4,$5,$6,$(key GPU_LOOP_S <<<"$text"),$(key TOTAL_S <<<"$text")" >> $W/runs.csv
  grep -q CHECK=PASS <<<"$text" || echo "FAILED: $*: $(tail -1 <<<"$text")"
}
for r in 1 2; do
  for v in $F64_BIG; do one cuda-tb $v f64 8192 1000 $r; done
  for v in $F32_BIG; do one cuda-tb $v f32 8192 1000 $r; done
  for n in 2048:500 1024:500 4096:1000; do
    for v in $F64_SMALL; do one cuda-tb $v f64 ${n%:*} ${n#*:} $r; done
    for v in $F32_SMALL; do one cuda-tb $v f32 ${n%:*} ${n#*:} $r; done
  done
  for p in f64 f32; do for n in 8192:1000 2048:500; do one cuda-resident - $p ${n%:*} ${n#*:} $r; done; done
done
awk -F, 'NR > 1 && $8 != "" { k = sprintf("%-13s %-9s %s %5dx%-5d x%-4d", $1, $2, $3, $4, $5, $6); g = $4 * $5 * $6 / $8 / 1e9
  if (!(k in b) || g > b[k]) b[k] = g } END { for (k in b) printf "%s %8.1f Gcell/s\n", k, b[k] }' $W/runs.csv | sort -k3,3 -k4,4 -k1,1 -k2,2 > $W/best.txt
el sweep
# Fields: each candidate against cpu (the original's tolerance in f64, the
# f32 bound in f32) and against its main variant bit for bit.
s=$(mktemp -d)
for shape in 5x5:7 8193x771:23 1001x703:31 130x98:9 33x2000:15 2000x33:15 517x389:23; do
  nx=${shape%%x*} rest=${shape#*x}; ny=${rest%%:*} steps=${rest#*:}
  $H run --method cpu --nx $nx --ny $ny --steps $steps --save $s/ref.dat > /dev/null
  for p in f64 f32; do
    tol=(); [ $p = f32 ] && tol=(--atol "$(awk -v s=$steps 'BEGIN { printf "%.6e", (1 + 7 * s) * 2^-24 }')" --rtol 0)
    [ $p = f64 ] && list="8r4qsd 8r4qsdg 8r6qsdh 8r6qsh 8r8qsdh 10r6qsh 7r4qs" || list="9r6qsp 9r6qspg 9r8qsph 9r12qsph 7r6qsp"
    main=${list%% *}
    for v in $list; do
      HEAT2D_CUDA_TB_VARIANT=$v $H run --method cuda-tb --nx $nx --ny $ny --steps $steps --precision $p --save $s/$v.dat > /dev/null 2>&1 || echo "FAILED: $v $shape $p"
      echo "$shape $p $v vs-cpu $($H compare "${tol[@]}" $s/ref.dat $s/$v.dat 2>&1 | grep -o 'MAX_ABS_DIFF=[^ ]*\|COMPARE=[A-Z]*' | tr '\n' ' ') vs-$main $($H compare --atol 0 --rtol 0 $s/$main.dat $s/$v.dat 2>&1 | grep -o 'COMPARE=[A-Z]*')" >> $W/compare.txt
    done
  done
done
rm -rf $s
el "compare: $(grep -c 'vs-cpu.*COMPARE=PASS' $W/compare.txt) of $(wc -l < $W/compare.txt) within tolerance, $(grep -c 'vs-[0-9a-z]* COMPARE=PASS$' $W/compare.txt) equal to main"
grep -v "vs-cpu.*COMPARE=PASS.*COMPARE=PASS" $W/compare.txt | head -20
for v in 8r4qsd 8r6qsdh; do
  HEAT2D_TRANSFER_TRACE=off HEAT2D_CUDA_TB_VARIANT=$v timeout 100 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    -k regex:tb_kernel -s 1 -c 1 $H run --method cuda-tb --nx 8192 --ny 8192 --steps 32 > $W/ncu_$v.txt 2>&1
  el "ncu $v rc=$?"
done
for tv in memcheck:f64:8r6qsdh racecheck:f64:8r6qsdh memcheck:f32:9r8qsph racecheck:f32:9r8qsph memcheck:f64:8r4qsdg racecheck:f64:8r4qsdg; do
  IFS=: read tool p v <<<"$tv"
  HEAT2D_TRANSFER_TRACE=off HEAT2D_CUDA_TB_VARIANT=$v timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-tb --nx 517 --ny 389 --steps 23 --precision $p > $W/san_${tool}_$v.txt 2>&1
  echo "$tool $v rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_${tool}_$v.txt)" | tee -a $W/san.txt
done
el sanitizer
cd $OUT && tar czf s.tgz s && rm -rf s
cat $OUT/../s_best 2>/dev/null
tar xzf $OUT/s.tgz -O s/best.txt
grep -hE "Registers Per|Achieved Occupancy|Issue Slots Busy|Theoretical Occupancy|DRAM Throughput|Duration" <(tar xzf $OUT/s.tgz -O s/ncu_8r4qsd.txt) <(tar xzf $OUT/s.tgz -O s/ncu_8r6qsdh.txt)
