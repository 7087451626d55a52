#!/usr/bin/env bash
# The sweep behind cuda-tb's and acc-resident's choices on one GPU: each
# cuda-tb variant (HEAT2D_CUDA_TB_VARIANT) and acc-resident schedule
# (HEAT2D_ACC_SCHEDULE) against cuda-resident, loop rates of `heat2d run`
# in one process each; then each candidate against cpu on odd, thin and
# uneven grids (heat2d compare), and Nsight Compute on the kernels named.
#
#   tools/tuning/tb_variants.sh BUILD OUTDIR
#
# Lists (space-separated, from the environment; empty skips the part):
#   TB_F64, TB_F32          variants at 8192x8192, 1000 steps
#   TB_F64_2048, TB_F32_2048  variants at 2048x2048, 500 steps
#   ACC_SCHEDULES           acc-resident schedules, both sizes and precisions
#   CHECK_VARIANTS, CHECK_SCHEDULES  compared with cpu on the odd grids
#   CHECK_F64, CHECK_F32    cuda-tb variants compared in one precision only
#   ALPHAS                  the alphas of the comparisons (default 0.1)
#   NCU_VARIANTS            cuda-tb variants profiled (ncu --set full, f64)
#   REPEATS                 runs of each (default 2; the best is kept)
# Writes OUTDIR/runs.csv (every run), OUTDIR/best.txt (the best of each),
# OUTDIR/compare.txt and OUTDIR/ncu_*.txt.
set -u
build=${1:?usage: tb_variants.sh BUILD OUTDIR}
out=${2:?usage: tb_variants.sh BUILD OUTDIR}
mkdir -p "$out"
export LD_LIBRARY_PATH=$build/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=$PATH:/usr/local/cuda/bin
h=$build/bin/heat2d
repeats=${REPEATS:-2}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
{ git rev-parse HEAD; git status --short; } >"$out/revision.txt" 2>&1

key() { grep "^$1=" | head -1 | cut -d= -f2 | tr -d ' '; }
echo "what,variant,precision,nx,ny,steps,rep,gpu_loop_s,device_loop_s,total_s" >"$out/runs.csv"
# one WHAT NAME PRECISION N STEPS METHOD VAR=VALUE
one() {
    local what=$1 name=$2 prec=$3 n=$4 steps=$5 method=$6 setting=$7 r text
    for ((r = 1; r <= repeats; ++r)); do
        text=$(env "$setting" "$h" run --method "$method" --nx "$n" --ny "$n" --steps "$steps" \
            --precision "$prec" 2>&1)
        echo "$what,$name,$prec,$n,$n,$steps,$r,$(key GPU_LOOP_S <<<"$text"),$(key DEVICE_LOOP_S <<<"$text"),$(key TOTAL_S <<<"$text")" >>"$out/runs.csv"
        grep -q CHECK=PASS <<<"$text" || echo "FAILED: $what $name $prec $n: $(tail -1 <<<"$text")"
    done
}
for v in ${TB_F64:-}; do one tb "$v" f64 8192 1000 cuda-tb HEAT2D_CUDA_TB_VARIANT="$v"; done
for v in ${TB_F32:-}; do one tb "$v" f32 8192 1000 cuda-tb HEAT2D_CUDA_TB_VARIANT="$v"; done
for v in ${TB_F64_2048:-}; do one tb "$v" f64 2048 500 cuda-tb HEAT2D_CUDA_TB_VARIANT="$v"; done
for v in ${TB_F32_2048:-}; do one tb "$v" f32 2048 500 cuda-tb HEAT2D_CUDA_TB_VARIANT="$v"; done
for p in f64 f32; do
    one cuda cuda-resident $p 8192 1000 cuda-resident HEAT2D_UNUSED=1
    one cuda cuda-resident $p 2048 500 cuda-resident HEAT2D_UNUSED=1
    for s in ${ACC_SCHEDULES:-}; do
        one acc "$s" $p 8192 1000 acc-resident HEAT2D_ACC_SCHEDULE="$s"
        one acc "$s" $p 2048 500 acc-resident HEAT2D_ACC_SCHEDULE="$s"
    done
done
awk -F, 'NR > 1 && $8 != "" {
    k = $1 " " $2 " " $3 " " $4 "x" $5 "x" $6; g = $4 * $5 * $6 / $8 / 1e9
    if (!(k in best) || g > best[k]) best[k] = g
} END { for (k in best) printf "%-44s %8.1f Gcell/s\n", k, best[k] }' "$out/runs.csv" |
    sort >"$out/best.txt"

# Odd, thin and uneven grids: each candidate against cpu in each precision.
scratch=$(mktemp -d)
for shape in 5x5:7 8193x771:23 1001x703:31 130x98:9 33x2000:15 2000x33:15; do
    nx=${shape%%x*} rest=${shape#*x}
    ny=${rest%%:*} steps=${rest#*:}
    for a in ${ALPHAS:-0.1}; do
        # f32 against cpu in f64 within heat2d check's bound, (1 + 7 steps) 2^-24.
        "$h" run --method cpu --nx "$nx" --ny "$ny" --steps "$steps" --alpha "$a" \
            --save "$scratch/ref.dat" >/dev/null
        for p in f64 f32; do
            tol=()
            [ $p = f32 ] && tol=(--atol "$(awk -v s="$steps" 'BEGIN { printf "%.6e", (1 + 7 * s) * 2^-24 }')" --rtol 0)
            [ $p = f64 ] && only=${CHECK_F64:-} || only=${CHECK_F32:-}
            for spec in ${CHECK_VARIANTS:-} ${CHECK_SCHEDULES:-} $only; do
                case " ${CHECK_SCHEDULES:-} " in
                *" $spec "*) m=acc-resident setting=HEAT2D_ACC_SCHEDULE=$spec ;;
                *) m=cuda-tb setting=HEAT2D_CUDA_TB_VARIANT=$spec ;;
                esac
                env "$setting" "$h" run --method $m --nx "$nx" --ny "$ny" --steps "$steps" \
                    --precision $p --alpha "$a" --save "$scratch/c.dat" >/dev/null 2>&1 ||
                    echo "FAILED: $spec $shape $p alpha $a"
                echo "$shape $p alpha=$a $spec $("$h" compare "${tol[@]}" "$scratch/ref.dat" "$scratch/c.dat" 2>&1 | tr '\n' ' ')" >>"$out/compare.txt"
            done
        done
    done
done
rm -rf "$scratch"

for v in ${NCU_VARIANTS:-}; do
    HEAT2D_TRANSFER_TRACE=off HEAT2D_CUDA_TB_VARIANT=$v timeout 300 ncu --set full -k regex:tb_kernel -c 1 \
        "$h" run --method cuda-tb --nx 8192 --ny 8192 --steps 32 >"$out/ncu_$v.txt" 2>&1
done
for p in f64 f32; do
    for s in ${ACC_SCHEDULES:-}; do
        HEAT2D_TRANSFER_TRACE=off HEAT2D_ACC_SCHEDULE=$s timeout 120 ncu --section SpeedOfLight \
            --section LaunchStats --section Occupancy --section WarpStateStats \
            --section ComputeWorkloadAnalysis -k regex:columns -c 1 \
            "$h" run --method acc-resident --nx 8192 --ny 8192 --steps 3 --precision $p \
            >"$out/ncu_acc_${s}_$p.txt" 2>&1
    done
done
cat "$out/best.txt"
