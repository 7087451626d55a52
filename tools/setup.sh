#!/usr/bin/env bash
# Installs what heat2d needs, when it is missing and this user may install
# (root with apt-get: Debian, Ubuntu); otherwise says what to install. With
# an NVIDIA GPU (nvidia-smi lists one) it also installs GCC's nvptx offload
# compiler for the distribution's GCC, so that OpenACC runs on the GPU.
# Without a package registry it says what is missing and lets the build go
# on with what is here.
#   tools/setup.sh        what `make bench` needs: the build (cmake, a C
#                         compiler, MPI, NetCDF), mpirun, and the plots
#   tools/setup.sh test   and what only the tests use: gfortran and python3
#                         (the original), valgrind, ncdump and Python's
#                         netCDF4 (test_netcdf), docker-compose (the container
#                         recipe's test), the offload compiler they build with,
#                         and the programs test_netcdf_clients opens series with
#                         (xarray, CDO, NCO, GDAL, ParaView's pvpython under xvfb-run)
#   tools/setup.sh fuzz   and clang, for `make fuzz` (libFuzzer)
#   tools/setup.sh format and clang-format, for `make format-check`
#   tools/setup.sh offload  and GCC's nvptx offload compiler even with no GPU
#                         visible (an image built for GPU hosts: Dockerfile)
set -uo pipefail

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
# has_python_module M: any python3 on PATH, or Debian's, imports M (the
# bench's search for matplotlib, the tests' for netCDF4)
has_python_module() {
  local IFS=: dir
  for dir in $PATH /usr/bin; do
    [ -x "$dir/python3" ] && "$dir/python3" -c "import $1" 2>/dev/null && return 0
  done
  return 1
}
has_python_module matplotlib || need+=(python3-matplotlib) # the bench's plots
command -v mpicc >/dev/null || need+=(libopenmpi-dev)    # mpi-cpu (MPI headers, library)
command -v mpirun >/dev/null || need+=(openmpi-bin)      # its launcher (the check runs mpi-cpu)
# .nc fields and series (HEAT2D_NETCDF): the NetCDF-C library, found by
# pkg-config or its own nc-config.
command -v nc-config >/dev/null || pkg-config --exists netcdf 2>/dev/null || need+=(libnetcdf-dev)
# HDF5's headers (libnetcdf-dev brings them): the NetCDF reader asks HDF5's
# index whether a record's field was written.
pkg-config --exists hdf5 2>/dev/null || [ -f /usr/include/hdf5/serial/hdf5.h ] || need+=(libhdf5-dev)
# What only the tests use; `make test` asks for it, `make bench` does not.
if [ "${1:-}" = test ]; then
  command -v gfortran >/dev/null || need+=(gfortran)     # the original, for the bit-exact tests
  command -v python3 >/dev/null || need+=(python3)       # the original's tools
  command -v valgrind >/dev/null || need+=(valgrind)     # the valgrind_cli test
  command -v ncdump >/dev/null || need+=(netcdf-bin)     # test_netcdf reads with ncdump
  has_python_module netCDF4 || need+=(python3-netcdf4)   # and with Python's netCDF4
  command -v docker-compose >/dev/null || need+=(docker-compose) # the container recipe's test
  # The modellers' own programs, as the distribution ships them
  # (tests/test_netcdf_clients.sh); make bench needs none of them.
  has_python_module xarray || need+=(python3-xarray)
  command -v cdo >/dev/null || need+=(cdo)
  command -v ncks >/dev/null || need+=(nco)
  command -v pvpython >/dev/null || need+=(paraview python3-paraview)
  command -v xvfb-run >/dev/null || need+=(xvfb)
  command -v gdal_translate >/dev/null || need+=(gdal-bin)
fi

# The C compiler the build will use (CMake takes CC, else cc), when it is
# the distribution's GCC: its OpenACC header, and with a GPU its offload
# compiler and the runtime's plugin (gcc-12-offload-nvptx on Debian 12,
# gcc-13-offload-nvptx on Ubuntu 24.04).
compiler=${CC:-cc}
gcc_major=""
if "$compiler" -v 2>&1 | grep -q '^gcc version'; then
  gcc_major=$("$compiler" -dumpversion 2>/dev/null | cut -d. -f1)
fi
if [ -n "$gcc_major" ] && [ ! -f "$("$compiler" -print-file-name=include/openacc.h)" ]; then
  need+=("gcc-$gcc_major")
fi
# Only a program with an OpenACC region needs the offload compiler: an
# empty one links without it. A CUDA newer than GCC's default ISA refuses
# it (CUDA 13's ptxas starts at sm_75), so sm_80 is tried too.
acc_test='int main(void){int a[4];
#pragma acc parallel loop copyout(a)
for(int i=0;i<4;i++)a[i]=i;
return a[3]-3;}'
if [ -n "$gcc_major" ] && { [ "${1:-}" = offload ] || [ "${1:-}" = test ] ||
  nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }; then
  scratch=$(mktemp -d)
  if ! printf '%s\n' "$acc_test" >"$scratch/t.c" ||
    ! { "$compiler" -fopenacc -foffload=nvptx-none "$scratch/t.c" -o "$scratch/t" ||
      "$compiler" -fopenacc -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 \
        "$scratch/t.c" -o "$scratch/t"; } 2>/dev/null; then
    need+=("gcc-$gcc_major-offload-nvptx")
  fi
  rm -rf "$scratch"
  # -print-file-name answers with the bare name when it finds nothing.
  if [ ! -f "$("$compiler" -print-file-name=libgomp-plugin-nvptx.so.1)" ] &&
    ! ldconfig -p 2>/dev/null | grep -q libgomp-plugin-nvptx.so.1; then
    need+=(libgomp-plugin-nvptx1)
  fi
fi

case "${1:-}" in
format)
  command -v clang-format >/dev/null || need+=(clang-format)
  ;;
fuzz)
  command -v clang >/dev/null || need+=(clang)            # libFuzzer, -fsanitize=fuzzer
  # libFuzzer's runtime is a package of its own, only recommended by clang.
  if ! command -v clang >/dev/null ||
    [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] &&
    [ ! -f "$(clang -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; then
    need+=("libclang-rt-$(clang --version 2>/dev/null | sed -n 's/.*version \([0-9]*\).*/\1/p' | head -n 1 | sed 's/^$/14/')-dev")
  fi
  ;;
esac

# What cannot be done without: the build needs cmake and a C compiler,
# fuzzing clang, the format check clang-format.
essential() {
  command -v cmake >/dev/null && command -v cc >/dev/null || return 1
  [ "${1:-}" != fuzz ] || command -v clang >/dev/null || return 1
  [ "${1:-}" != format ] || command -v clang-format >/dev/null || return 1
}

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
# Without root or without apt-get nothing is installed: say what would be,
# and how, and let the build go on with what is here (each missing part is
# left out, and configure says so).
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  if command -v apt-get >/dev/null; then
    how="sudo apt-get install ${need[*]}"
  else
    how="your distribution's packages for: ${need[*]}"
  fi
  if [ "$(id -u)" != 0 ]; then why="not root"; else why="no apt-get"; fi
  echo "setup: missing ${need[*]} ($why: nothing installed); install with: $how; the build goes on with what is here" >&2
  essential "${1:-}"
  exit
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup: installing ${need[*]}" >&2
# A machine without a network can take minutes to say so: two at most.
limit=()
command -v timeout >/dev/null && limit=(timeout 120)
if ! "${limit[@]}" apt-get update -qq >/dev/null 2>&1; then
  echo "setup: no package registry reachable (apt-get update failed); missing ${need[*]}; install with: apt-get install ${need[*]} where a registry is reachable; the build goes on with what is here" >&2
  essential "${1:-}"
  exit
fi
if ! apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1; then
  # One at a time, so that a package this distribution lacks does not keep
  # the others out; say which.
  failed=()
  for p in "${need[@]}"; do
    apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 || failed+=("$p")
  done
  echo "setup: could not install ${failed[*]}; the build goes on with what is here" >&2
fi
essential "${1:-}"
