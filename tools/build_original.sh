#!/usr/bin/env bash
# The article's three Fortran programs (reference_cpu, acc_each_step,
# acc_persistent) from the user's copy of its sources, built with gfortran:
# the OpenACC two offloaded to the GPU where GCC's offload compiler can build
# them (-fopenacc -foffload=nvptx-none), for the host otherwise, and said
# which. heat2d ships none of the original's sources; `make original
# ORIGINAL=DIR` and `make bench ORIGINAL=DIR` call this.
#   usage: tools/build_original.sh SOURCE_DIR OUT_DIR [HEAT2D_BUILD_DIR]
# Prints ORIGINAL_BUILD=offload (...) or host (why), then one
# PROGRAM=NAME=PATH line a program, as heat2d bench --program takes them.
# The programs find the runtimes they were built with (libgomp and its nvptx
# plugin, libgfortran) through their run path: HEAT2D_BUILD_DIR/lib first
# where an offload build of heat2d copied GCC's OpenACC runtime there, then
# the compiler's own folders; no LD_LIBRARY_PATH is needed.
set -euo pipefail
fail() { echo "build_original: $*" >&2; exit 1; }
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: tools/build_original.sh SOURCE_DIR OUT_DIR [HEAT2D_BUILD_DIR]" >&2; exit 2; }
src=$1 out=$2 build=${3:-}
[ -d "$src" ] || fail "$src is not a folder (ORIGINAL= names the folder of the article's Fortran sources)"
src=$(cd "$src" && pwd)
for f in diffusion_common.f90 reference_cpu.f90 acc_each_step.f90 acc_persistent.f90; do
  [ -f "$src/$f" ] || fail "$src has no $f (the article's sources: diffusion_common.f90 and the three programs)"
done
fc=${FC:-gfortran}
command -v "$fc" >/dev/null || fail "$fc not found (Debian: apt-get install gfortran; FC= names another)"
mkdir -p "$out" || fail "cannot make $out"
out=$(cd "$out" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# The run path: where the programs' runtimes lie. With DT_RPATH (not
# RUNPATH) it also serves libgomp's own dlopen of its nvptx plugin.
rpath=()
if [ -n "$build" ] && [ -e "$build/lib/libgomp.so.1" ]; then
  rpath+=("$(cd "$build/lib" && pwd)")
fi
for lib in libgomp.so.1 libgomp-plugin-nvptx.so.1 libgfortran.so.5; do
  path=$("$fc" -print-file-name="$lib")
  if [ "${path#/}" != "$path" ] && [ -e "$path" ]; then
    dir=$(cd "$(dirname "$path")" && pwd -P)
    case " ${rpath[*]} " in *" $dir "*) ;; *) rpath+=("$dir") ;; esac
  fi
done
link=(-Wl,--disable-new-dtags)
for dir in "${rpath[@]}"; do link+=("-Wl,-rpath,$dir"); done

base=(-O3 -std=f2018)
# GCC 12's offload table object is not position-independent: no PIE.
offload=(-fopenacc -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -no-pie)
host=(-fopenacc -foffload=disable)
# compile NAME FLAGS...: the program NAME.f90 with the common module into
# $w/NAME; the compiler's messages in $w/NAME.log. stdin closed: the nvptx
# assembler's ptxas waits on an open one.
compile() {
  local name=$1
  shift
  mkdir -p "$w/$name.mod"
  "$fc" "${base[@]}" "$@" -J"$w/$name.mod" "$src/diffusion_common.f90" "$src/$name.f90" \
    "${link[@]}" -o "$w/$name" </dev/null >"$w/$name.log" 2>&1
}

mode="offload (-foffload=nvptx-none, sm_80: OpenACC on the GPU)"
if ! compile acc_each_step "${offload[@]}"; then
  why=$(grep -v '^[[:space:]]*$' "$w/acc_each_step.log" | tail -n 1)
  mode="host (-foffload=disable: the offload compiler could not build them: ${why:-no reason given})"
  compile acc_each_step "${host[@]}" || fail "acc_each_step: $(tail -n 3 "$w/acc_each_step.log")"
  compile acc_persistent "${host[@]}" || fail "acc_persistent: $(tail -n 3 "$w/acc_persistent.log")"
else
  compile acc_persistent "${offload[@]}" || fail "acc_persistent: $(tail -n 3 "$w/acc_persistent.log")"
fi
compile reference_cpu || fail "reference_cpu: $(tail -n 3 "$w/reference_cpu.log")"
for name in reference_cpu acc_each_step acc_persistent; do
  mv -f "$w/$name" "$out/$name"
done
echo "ORIGINAL_BUILD=$mode"
echo "RPATH=$(IFS=:; echo "${rpath[*]}")"
echo "PROGRAM=f-cpu=$out/reference_cpu"
echo "PROGRAM=f-acc-each=$out/acc_each_step"
echo "PROGRAM=f-acc-persistent=$out/acc_persistent"
