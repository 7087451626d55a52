#!/usr/bin/env bash
# Installs what heat2d's build, tests and plots need, when it is missing and
# this user may install (root with apt-get); otherwise says what to install.
#   tools/setup.sh        the build, the tests, the plots
#   tools/setup.sh fuzz   and clang, for `make fuzz` (libFuzzer)
#   tools/setup.sh format and clang-format, for `make format-check`
set -euo pipefail

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
command -v gfortran >/dev/null || need+=(gfortran)       # the original, for the bit-exact tests
command -v python3 >/dev/null || need+=(python3)         # the original's tools
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || need+=(python3-matplotlib)  # plots
[ -f /usr/lib/gcc/x86_64-linux-gnu/12/include/openacc.h ] || need+=(gcc-12)
command -v valgrind >/dev/null || need+=(valgrind)       # the valgrind_cli test
command -v mpicc >/dev/null || need+=(libopenmpi-dev)    # mpi-cpu (MPI headers, library)
command -v mpirun >/dev/null || need+=(openmpi-bin)      # the mpi test's launcher
if [ "${1:-}" = format ]; then
  command -v clang-format >/dev/null || need+=(clang-format)
fi
if [ "${1:-}" = fuzz ]; then
  command -v clang >/dev/null || need+=(clang)            # libFuzzer, -fsanitize=fuzzer
  # libFuzzer's runtime is a package of its own, only recommended by clang.
  if ! command -v clang >/dev/null ||
    [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] &&
    [ ! -f "$(clang -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; then
    need+=(libclang-rt-14-dev)
  fi
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "setup: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "setup: missing ${need[*]}; install with: sudo apt-get install ${need[*]}" >&2
  # The build itself needs only cmake and a C compiler; fuzzing needs clang.
  command -v cmake >/dev/null && command -v cc >/dev/null || exit 1
  [ "${1:-}" != fuzz ] || command -v clang >/dev/null || exit 1
fi
