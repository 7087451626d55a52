#!/usr/bin/env bash
# omp against the host's memory bandwidth, measured in the same run: the
# copy probe (heat2d info --bandwidth) and omp's loop, interleaved repeat by
# repeat so that a noisy machine disturbs both alike, then medians.
#
#   tools/tuning/omp_vs_host_bandwidth.sh [BIN_DIR]       # default build/bin
#   REPEATS=7 SIZES="4096x4096:50" tools/tuning/omp_vs_host_bandwidth.sh build-gpu/bin
#   BASE=/path/to/old/heat2d tools/tuning/omp_vs_host_bandwidth.sh   # omp of an older binary too
#
# Variants are NAME:VAR=VALUE,VAR=VALUE (environment of the run); the
# defaults compare ordinary stores with streaming stores, each with threads
# free and bound one per core, and on a host of several NUMA nodes node 0's
# cores alone.
#
# GB/s is nx*ny*16 bytes per step over CPU_LOOP_S (read u, write v, as the
# probe counts its copy); % is of the median HOST_COPY_GBS. The probe's copy
# uses ordinary stores, so it moves 24 bytes per 16 counted, as the plain
# kernel does; streaming stores move 16 and can pass 100%.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build/bin}
h=$BIN/heat2d
REPEATS=${REPEATS:-5}
SIZES=${SIZES:-4096x4096:50 8192x8192:20}
VARIANTS_SET=${VARIANTS:+1}
VARIANTS=${VARIANTS:-plain:HEAT2D_OMP_STORES=plain plain-bound:HEAT2D_OMP_STORES=plain,OMP_PROC_BIND=close,OMP_PLACES=cores stream:HEAT2D_OMP_STORES=stream stream-bound:HEAT2D_OMP_STORES=stream,OMP_PROC_BIND=close,OMP_PLACES=cores}
BASE=${BASE:-}
[ -x "$h" ] || { echo "omp_vs_host_bandwidth: no $h" >&2; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# loop_s BIN METHOD NX NY STEPS [VAR=VALUE...]: the loop's seconds.
loop_s() {
  local bin=$1 method=$2 nx=$3 ny=$4 steps=$5
  shift 5
  env "$@" "$bin" run --method "$method" --nx "$nx" --ny "$ny" --steps "$steps" |
    sed -n 's/^CPU_LOOP_S= *//p'
}

# On a host with several NUMA nodes, the arrays' pages all sit on the main
# thread's node (the library writes the initial state on it, see omp.c):
# a run on node 0's cores alone shows whether that node's memory is the
# limit (as fast as all cores: it is).
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -gt 1 ] && [ -z "${VARIANTS_SET:-}" ]; then
  # Node 0's first range of CPUs (its cores; hyperthreads, if listed
  # apart, come later) as OpenMP places {first}:count, which needs no comma.
  range=$(cut -d, -f1 /sys/devices/system/node/node0/cpulist)
  first=${range%-*} last=${range#*-}
  count=$((last - first + 1)) places="{$first}:$((last - first + 1))"
  VARIANTS="$VARIANTS plain-node0:HEAT2D_OMP_STORES=plain,OMP_NUM_THREADS=$count,OMP_PROC_BIND=close,OMP_PLACES=$places"
fi

echo "# $(date -u '+%F %T') $(nproc) cores, $(uname -n); $("$h" info | grep -E '^(GIT_REVISION|C_FLAGS)=' | tr '\n' ' ')"
grep -m1 'model name' /proc/cpuinfo || true
lscpu 2>/dev/null | grep -E '^(NUMA node|L3 cache|Socket|Thread|Core)' || true
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
for r in $(seq "$REPEATS"); do
  gbs=$("$h" info --bandwidth | sed -n 's/^HOST_COPY_GBS=//p')
  echo "probe - - $gbs" >>"$log"
  for size in $SIZES; do
    nx=${size%%x*} rest=${size#*x} ny=${rest%%:*} steps=${size##*:}
    for v in $VARIANTS; do
      name=${v%%:*} vars=${v#*:}
      s=$(loop_s "$h" omp "$nx" "$ny" "$steps" ${vars//,/ })
      echo "omp-$name $size $s" >>"$log"
    done
    if [ -n "$BASE" ]; then
      echo "base-omp $size $(loop_s "$BASE" omp "$nx" "$ny" "$steps")" >>"$log"
    fi
  done
  echo "repeat $r/$REPEATS done" >&2
done

awk '
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "probe" { probe = probe " " $4; next }
{
  split($2, d, /[x:]/)
  gb = d[1] * d[2] * 16 * d[3] / $3 / 1e9
  key = $1 " " $2
  if (!(key in seen)) { order[++n] = key; seen[key] = 1 }
  rates[key] = rates[key] " " gb
  cells[key] = d[1] * d[2] * d[3]
}
END {
  bw = median(probe)
  printf "HOST_COPY_GBS median %.2f (runs:%s)\n\n", bw, probe
  printf "%-22s %-14s %9s %9s %7s   runs [GB/s]\n", "variant", "size", "GB/s", "Gcell/s", "% copy"
  for (k = 1; k <= n; k++) {
    key = order[k]; split(key, p, " ")
    m = median(rates[key])
    printf "%-22s %-14s %9.2f %9.3f %6.0f%%  %s\n", p[1], p[2], m, m / 16, 100 * m / bw, rates[key]
  }
}' "$log"
