#!/bin/bash
# cuda-tb with the choice by size: the build, the chosen variants against
# the ones they replace at 2048^2 (loop rates), check --gpu in f64 and f32,
# the bench beside cuda-resident (f64 and f32, 8192^2 x 1000 and
# 2048^2 x 500, with -pinned twins), each default against cpu on odd, thin
# and uneven grids (and the fused twin at alpha 1e-5), compute-sanitizer,
# Nsight Compute on the defaults. Run in the source root.
set -u
export PATH=$PATH:/usr/local/cuda/bin
W=$OUT/f; mkdir -p $W
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi > $W/nvidia-smi.txt 2>&1; nvidia-smi -L
cp "$0" $W/run.sh; echo "${HEAT2D_SOURCE_REVISION:-}" > $W/revision.txt
H=$PWD/bin/heat2d
if $H info > $W/info.txt 2>&1; then el "the carried build runs"; else
{ cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF -DHEAT2D_OPENACC_OFFLOAD=OFF \
  -DHEAT2D_OMP_TARGET=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build b -j16 --target heat2d; } > $W/build.log 2>&1 \
  || { el build failed; tail -30 $W/build.log; exit 1; }
H=$PWD/b/bin/heat2d; $H info > $W/info.txt 2>&1; el built; fi
key() { grep "^$1=" | head -1 | cut -d= -f2 | tr -d ' '; }
echo "variant,precision,nx,ny,steps,rep,gpu_loop_s" > $W/choice_runs.csv
for r in 1 2; do for pv in f32:7r6qspg f32:9r6qspg f32:9r6qsp f64:8r4qsdg f64:8r4qsd; do
  p=${pv%%:*} v=${pv#*:}
  t=$(HEAT2D_CUDA_TB_VARIANT=$v $H run --method cuda-tb --nx 2048 --ny 2048 --steps 500 --precision $p 2>&1)
  echo "$v,$p,2048,2048,500,$r,$(key GPU_LOOP_S <<<"$t")" >> $W/choice_runs.csv
done; done
el choice
timeout 60 $H check --gpu > $W/gpu_check.txt 2>&1; el "check f64 rc=$? $(tail -1 $W/gpu_check.txt)"
timeout 60 $H check --gpu --precision f32 > $W/gpu_check_f32.txt 2>&1; el "check f32 rc=$? $(tail -1 $W/gpu_check_f32.txt)"
s=$(mktemp -d)
for shape in 5x5:7:0.1 8193x771:23:0.1 1001x703:31:0.1 33x2000:15:0.1 2000x33:15:0.1 2048x2048:9:0.1 517x389:23:1e-5; do
  IFS=: read g steps a <<<"$shape"; nx=${g%x*} ny=${g#*x}
  $H run --method cpu --nx $nx --ny $ny --steps $steps --alpha $a --save $s/ref.dat > /dev/null
  for p in f64 f32; do
    tol=(); [ $p = f32 ] && tol=(--atol "$(awk -v s=$steps 'BEGIN { printf "%.6e", (1 + 7 * s) * 2^-24 }')" --rtol 0)
    $H run --method cuda-tb --nx $nx --ny $ny --steps $steps --alpha $a --precision $p --save $s/c.dat > $s/run.txt 2>&1 || echo "FAILED: $shape $p"
    echo "$g:$steps alpha=$a $p $(grep -o 'FP_OPS_PER_CELL=[^ ]*\|PASS_STEPS=[^ ]*' $s/run.txt | tr '\n' ' ')$($H compare "${tol[@]}" $s/ref.dat $s/c.dat 2>&1 | grep -o 'MAX_ABS_DIFF=[^ ]*\|COMPARE=[A-Z]*' | tr '\n' ' ')" >> $W/compare.txt
  done
done
rm -rf $s
el "compare: $(grep -c COMPARE=PASS $W/compare.txt) of $(wc -l < $W/compare.txt) pass"
for tool in memcheck racecheck; do for pg in f32:517x389 f64:517x389; do
  p=${pg%%:*} g=${pg#*:}
  HEAT2D_TRANSFER_TRACE=off timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H run --method cuda-tb --nx ${g%x*} --ny ${g#*x} --steps 23 --precision $p > $W/san_${tool}_${p}_$g.txt 2>&1
  echo "$tool $p $g rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_${tool}_${p}_$g.txt)" | tee -a $W/sanitizer.txt
done; done
el sanitizer
for pn in f64:2048 f32:2048; do
  p=${pn%%:*} n=${pn#*:}
  HEAT2D_TRANSFER_TRACE=off timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -k regex:tb_kernel -s 1 -c 1 \
    $H run --method cuda-tb --nx $n --ny $n --steps 36 --precision $p > $W/ncu_${p}_$n.txt 2>&1
  el "ncu $p $n rc=$?"
done
(cd $OUT && tar czf f.tgz f)
timeout 110 $H bench --methods cuda-tb,cuda-resident --pinned-too --sizes 8192x8192:1000,2048x2048:500 \
  --precision f64,f32 --repeats 2 --out $W/bench > $W/bench.log 2>&1; el "bench rc=$?"
(cd $OUT && tar czf f.tgz f)
cd $OUT && tar czf f.tgz f
awk -F, 'NR > 1 { k = $1 " " $2; g = $3 * $4 * $5 / $7 / 1e9; if (!(k in b) || g > b[k]) b[k] = g } END { for (k in b) printf "2048^2 %-10s %8.1f Gcell/s\n", k, b[k] }' f/choice_runs.csv | sort
grep -E "^\| (cuda-tb|cuda-resident)" f/bench/summary.md | head -40
for x in f/ncu_*.txt; do echo "$x $(grep -E 'Registers Per|Issue Slots Busy|DRAM Throughput|Achieved Occupancy' $x | awk '{print $NF}' | tr '\n' ' ')"; done
