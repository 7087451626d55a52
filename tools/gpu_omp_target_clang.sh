#!/usr/bin/env bash
# A Clang build's OpenMP target methods on a GPU machine that has the
# NVIDIA driver and CUDA but no Clang: packed on the build machine, run on
# the GPU machine, everything there under /tmp (nothing into its system
# folders).
#
#   tools/gpu_omp_target_clang.sh pack BUILD DIR   # on the build machine
#   tools/gpu_omp_target_clang.sh run DIR          # on the GPU machine
#
# pack writes into DIR: build.tar.xz (BUILD's bin/heat2d, lib/ and share/:
# a build configured with CC=clang-19, CUDA, and a ptxas whose cubins
# libomptarget reads; docs/building.md, "OpenMP target with GCC and with
# Clang"), clangrt.tar.xz (libomptarget, libomp, libLLVM and what libLLVM
# links, as BUILD's heat2d finds them here), the plot script, and this
# script. run unpacks them, links libcuda.so (libomptarget opens the
# driver by that unversioned name) and writes into $OUT (default
# DIR/out): info; check --gpu in f64 and f32; the bench of
# omp-target-resident beside cuda-resident at 8192x8192:1000 and
# 2048x2048:500, f64 and f32; compute-sanitizer memcheck and racecheck on
# both methods; omp-target-resident's schedules at 8192^2 and the launch
# cost at 130^2 and 2048^2 against cuda-resident (runs.txt).
set -u
die() { echo "gpu_omp_target_clang: $*" >&2; exit 1; }

pack() {
  local build=$1 dir=$2 lib
  [ -x "$build/bin/heat2d" ] || die "no $build/bin/heat2d"
  "$build/bin/heat2d" info | grep -q '^OMP_TARGET_COMPILER=Clang' || die "$build is not a Clang build"
  mkdir -p "$dir/rt/lib" "$dir/tools"
  # The runtime's libraries, but the C library's and those every Linux has.
  for lib in $(ldd "$build/bin/heat2d" "$build/lib/libheat2d_omp_target.so" |
    awk '$3 ~ /^\// { print $3 }' | sort -u); do
    case ${lib##*/} in
      libc.so* | libm.so* | libdl.so* | librt.so* | libpthread.so* | libutil.so* | libgcc_s.so* | \
        libstdc++.so* | libz.so* | liblzma.so* | libzstd.so* | libtinfo.so* | libcud* | libcupti* | \
        libheat2d*) ;;
      *) cp -L "$lib" "$dir/rt/lib/" ;;
    esac
  done
  (cd "$dir/rt/lib" && ln -sf libomptarget.so.* libomptarget.so)
  (cd "$dir/rt" && tar cf - lib | xz -T0 -6 >../clangrt.tar.xz) && rm -rf "$dir/rt"
  (cd "$build" && tar cf - bin/heat2d lib share | xz -T0 -6 >"$dir/build.tar.xz")
  cp -r "$(dirname "$0")/plot_bench.py" "$(dirname "$0")/plots" "$dir/tools/"
  cp "$0" "$dir/"
  du -sh "$dir"
}

# S TOOL LABEL RUN-ARGS...: compute-sanitizer's TOOL on one heat2d run,
# the transfer trace off (the sanitizer holds the driver's callbacks).
S() {
  local tool=$1 label=$2
  shift 2
  HEAT2D_TRANSFER_TRACE=off timeout 60 compute-sanitizer --tool "$tool" --target-processes all \
    --error-exitcode 86 $wrap "$h" run "$@" >"$o/san_${tool}_$label.txt" 2>&1
  echo "$tool $label rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|initialized before' \
    "$o/san_${tool}_$label.txt" | tr '\n' ' ')" | tee -a "$o/log.txt"
}

# R LABEL [VAR=VALUE...] -- RUN-ARGS...: one heat2d run, its loop into runs.txt.
R() {
  local label=$1 envs=()
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout 60 "$h" run "$@" >"$o/run_$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(GPU_LOOP_S|STEPS|DEVICE)=' "$o/run_$label.txt" | tr -s ' ' |
    tr '\n' ' ')" | tee -a "$o/runs.txt"
}

sanitize() {
  # libomptarget 19 starts CUDA in a constructor, before main and before
  # the sanitizer's preloaded library is set up ("CUDA initialized before
  # the Sanitizer"): where it says so, heat2d's OpenMP target library is
  # preloaded ahead of the sanitizer's, whose constructor then runs first.
  wrap=""
  S memcheck probe --method omp-target-resident --nx 67 --ny 45 --steps 13
  if grep -qi 'initialized before' "$o/san_memcheck_probe.txt"; then
    printf '%s\n' 'LD_PRELOAD="$HEAT2D_OMP_LIB${LD_PRELOAD:+:$LD_PRELOAD}" exec "$@"' >/tmp/preload_first.sh
    export HEAT2D_OMP_LIB=/tmp/heat2d-clang/b/lib/libheat2d_omp_target.so
    wrap="bash /tmp/preload_first.sh"
    S memcheck probe_preload --method omp-target-resident --nx 67 --ny 45 --steps 13
  fi
  local p
  for p in f64 f32; do
    S memcheck each_$p --method omp-target-each --precision $p --nx 67 --ny 45 --steps 13
    S memcheck resident_$p --method omp-target-resident --precision $p --nx 257 --ny 129 --steps 6
    S racecheck each_$p --method omp-target-each --precision $p --nx 67 --ny 45 --steps 5
    S racecheck resident_$p --method omp-target-resident --precision $p --nx 257 --ny 129 --steps 5
  done
  S memcheck resident_f32_odd --method omp-target-resident --precision f32 --nx 67 --ny 45 --steps 7
  S memcheck resident_snapshots --method omp-target-resident --output-every 3 --nx 67 --ny 45 --steps 13
}

run() {
  local dir=$1 p s n
  local r=/tmp/heat2d-clang
  o=${OUT:-$dir/out}
  mkdir -p "$o" "$r/rt" "$r/b"
  nvidia-smi -L | tee "$o/gpu.txt" || die "no NVIDIA GPU here"
  tar xJf "$dir/clangrt.tar.xz" -C "$r/rt" && tar xJf "$dir/build.tar.xz" -C "$r/b" || die "unpack failed"
  ln -sf "$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')" "$r/rt/lib/libcuda.so"
  local cupti
  cupti=$(dirname "$(find /usr/local/cuda/ -name 'libcupti.so.*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH=$r/b/lib:$r/rt/lib:/usr/local/cuda/lib64:$cupti
  export HEAT2D_RUN_OPTIONS=$r/b/share/heat2d/run_options.json
  export HEAT2D_PLOT_SCRIPT=$dir/tools/plot_bench.py
  unset OMP_TARGET_OFFLOAD
  h=$r/b/bin/heat2d
  "$h" info >"$o/info.txt" 2>&1
  grep -E '^(GIT_REVISION|OMP_TARGET_|GPU_NAME)' "$o/info.txt" | tee -a "$o/log.txt"
  for p in f64 f32; do
    timeout 150 "$h" check --gpu --precision $p >"$o/check_$p.txt" 2>&1
    echo "check $p rc=$? $(grep -E '^GPU_CHECK=' "$o/check_$p.txt")" | tee -a "$o/log.txt"
    grep -E '^TRANSFERS method=omp-target' "$o/check_$p.txt" | head -n 4 | tee -a "$o/log.txt"
  done
  timeout 200 "$h" bench --out "$o/bench" --methods omp-target-resident,cuda-resident \
    --sizes 8192x8192:1000,2048x2048:500 --precision f64,f32 --budget 6 >"$o/bench_log.txt" 2>&1
  echo "bench rc=$?" | tee -a "$o/log.txt"
  sanitize
  for p in f64 f32; do
    for s in bare columns columns2; do
      R ${s}_8192_$p HEAT2D_OMP_TARGET_SCHEDULE=$s -- --method omp-target-resident --precision $p \
        --nx 8192 --ny 8192 --steps 1000
    done
    R cuda_8192_$p X=1 -- --method cuda-resident --precision $p --nx 8192 --ny 8192 --steps 1000
  done
  for n in 130 2048; do
    R bare_$n X=1 -- --method omp-target-resident --nx $n --ny $n --steps 1000
    R cuda_$n X=1 -- --method cuda-resident --nx $n --ny $n --steps 1000
  done
}

case ${1:-} in
  pack)
    [ $# -eq 3 ] || die "usage: $0 pack BUILD DIR"
    mkdir -p "$3" && pack "$(cd "$2" && pwd)" "$(cd "$3" && pwd)"
    ;;
  run) [ $# -eq 2 ] || die "usage: $0 run DIR"; run "$(cd "$2" && pwd)" ;;
  *) die "usage: $0 pack BUILD DIR | run DIR" ;;
esac
