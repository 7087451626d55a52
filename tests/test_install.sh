#!/usr/bin/env bash
# cmake --install to a prefix, then the installed heat2d benchmarks from a
# folder that has nothing to do with the source tree: it finds its plot
# script under PREFIX/share/heat2d and writes the plots.
# usage: test_install.sh BUILD_DIR
set -e
build=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
py=$(matplotlib_python)
[ -n "$py" ] || { echo "SKIP: no python with matplotlib (tools/setup.sh installs it)"; exit 77; }
run cmake --install "$build" --prefix "$w/prefix"
expect_rc 0 "cmake --install"
for f in bin/heat2d bin/cpu_reference share/heat2d/plot_bench.py share/heat2d/run_options.json; do
  expect_eq "$(test -e "$w/prefix/$f" && echo there)" there "installed: $f"
done
# The OpenMP target methods' library, where the build has them: installed
# in PREFIX/lib, and the one the installed heat2d loads, even with the
# build's lib folder on LD_LIBRARY_PATH (as make test has it).
if "$build/bin/heat2d" info | grep -q '^OMP_TARGET=nvptx offload$'; then
  expect_eq "$(env LD_LIBRARY_PATH="$build/lib" ldd "$w/prefix/bin/heat2d" | awk '$1 == "libheat2d_omp_target.so" {print $3}' | xargs -r realpath)" \
    "$w/prefix/lib/libheat2d_omp_target.so" "installed: heat2d loads the installed OpenMP target library"
fi
# The plotting script's package, every module of it.
src=$(cd "$(dirname "$0")/.." && pwd)
expect_eq "$(cd "$w/prefix/share/heat2d/plots" 2>/dev/null && ls ./*.py | sort)" \
  "$(cd "$src/tools/plots" && ls ./*.py | sort)" "installed: share/heat2d/plots/, every module"
mkdir "$w/elsewhere"
cd "$w/elsewhere"
run "$w/prefix/bin/heat2d" bench --methods cpu --sizes 16x16:3,24x20:5 --repeats 1 --warmups 0 --out out
expect_rc 0 "the installed heat2d benchmarks from an unrelated folder ($err)"
for png in time_per_step headline phases field; do
  expect_out_has "PLOT=out/$png.png" "installed bench: $png.png made"
  expect_eq "$(head -c 8 "out/$png.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" "89504e470d0a1a0a" \
    "installed bench: $png.png is a PNG"
done
"$w/prefix/bin/heat2d" run --method cpu --nx 16 --ny 12 --steps 5 --save f.dat >/dev/null
run "$w/prefix/bin/heat2d" plot f.dat
expect_eq "$rc/$(grep -c '^PLOT=f.png$' <<<"$out")" 0/1 "the installed heat2d plot from an unrelated folder ($err)"
rm f.dat f.png
expect_eq "$(ls -A "$w/elsewhere")" "out" "nothing but the results folder written there"
finish
