#!/usr/bin/env bash
# The layer check at work: injects, one at a time, a call or an include that
# goes up a layer (lib's rooms, lib, kernels, probes, backends, bench; the
# CUDA kernels opening the device, which is the probes'), builds only what it
# touches in BUILD_DIR, and expects the build to refuse it. Each file is
# restored after its try, and on any exit. Needs a configured build; the CUDA
# rows need CUDA.
# usage: tools/layer_violations.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -f "$build/CMakeCache.txt" ] || { echo "layer_violations: $build is not a configured build" >&2; exit 2; }
saved=$(mktemp)
log=$(mktemp)
file=""
restore() { if [ -n "$file" ]; then cp "$saved" "$file"; touch "$file"; file=""; fi; }
trap 'restore; rm -f "$saved" "$log"' EXIT
refused=0 tried=0

# inject DESCRIPTION FILE TARGET TEXT: TEXT appended to FILE; TARGET built.
inject() {
  local what=$1 target=$3 text=$4
  if ! grep -q "^$target:" <(cmake --build "$build" --target help 2>/dev/null | sed -n 's/^\.\.\. \([^ ]*\).*/\1:/p'); then
    echo "skipped  $what: no target $target in this build"
    return
  fi
  file=$2
  cp "$file" "$saved"
  printf '\n%s\n' "$text" >>"$file"
  tried=$((tried + 1))
  if cmake --build "$build" --target "$target" -j 2 </dev/null >"$log" 2>&1; then
    echo "ACCEPTED $what ($target)"
  else
    refused=$((refused + 1))
    echo "refused  $what ($target): $(grep -m1 -oE '(error: .*|undefined reference to .*)' "$log" | cut -c1-90)"
  fi
  restore
}

registry='size_t heat2d_method_count(void); size_t layer_violation(void); size_t layer_violation(void) { return heat2d_method_count(); }'
inject "lib includes the backends' methods.h" src/lib/io/field_write.c heat2d_io '#include "methods.h"'
inject "lib calls the registry" src/lib/io/field_write.c layer_check_heat2d_io "$registry"
# lib's rooms: io -> sys -> core -> numbers, nothing back up.
calls() { printf 'int %s(); int layer_violation(void); int layer_violation(void) { return %s(); }' "$1" "$1"; }
inject "numbers includes a core header" src/lib/numbers/pow5_table.c heat2d_numbers '#include "heat2d_error.h"'
inject "numbers calls core" src/lib/numbers/pow5_table.c layer_check_heat2d_numbers "$(calls heat2d_fail)"
inject "core includes a sys header" src/lib/core/error.c heat2d_core '#include "process_guard.h"'
inject "core calls sys" src/lib/core/error.c layer_check_heat2d_core "$(calls heat2d_cleanup_file)"
inject "core includes an io header" src/lib/core/error.c heat2d_core '#include "heat2d_field.h"'
inject "core calls io" src/lib/core/error.c layer_check_heat2d_core "$(calls heat2d_field_write)"
inject "sys includes an io header" src/lib/sys/cleanup.c heat2d_sys '#include "field_netcdf.h"'
inject "sys calls io" src/lib/sys/cleanup.c layer_check_heat2d_sys "$(calls heat2d_field_load)"
inject "host kernels include a probe's header" src/kernels/cpu/stencil_cpu.c heat2d_kernels_cpu '#include "host_bandwidth.h"'
inject "host kernels call a probe" src/kernels/cpu/stencil_cpu.c layer_check_heat2d_kernels_cpu \
  'int heat2d_host_bandwidth(void *, heat2d_error *); int layer_violation(void); int layer_violation(void) { return heat2d_host_bandwidth(0, 0); }'
inject "CUDA kernels call the registry" src/kernels/cuda/cuda_kernels.cu layer_check_heat2d_kernels_cuda \
  'extern "C" size_t heat2d_method_count(void); extern "C" size_t layer_violation(void) { return heat2d_method_count(); }'
inject "CUDA kernels open the device (the probes')" src/kernels/cuda/cuda_kernels.cu layer_check_heat2d_kernels_cuda \
  'extern "C" int heat2d_cuda_capability(int, int *, int *, heat2d_error *); extern "C" int layer_violation(void) { return heat2d_cuda_capability(0, 0, 0, 0); }'
inject "probes include methods.h" src/probes/write_rate.c heat2d_probes '#include "methods.h"'
inject "probes call the registry" src/probes/write_rate.c layer_check_heat2d_probes "$registry"
inject "a backend calls the bench" src/backends/cpu/cpu.c layer_check_heat2d_backend_cpu \
  'int bench_command(int, char **); int layer_violation(void); int layer_violation(void) { return bench_command(0, 0); }'
inject "the registry includes the check's check.h" src/backends/registry.c heat2d_backends '#include "check.h"'
inject "the bench calls the driver" src/bench/plan.c layer_check_heat2d_bench \
  'int heat2d_cmd_run(int, char **); int layer_violation(void); int layer_violation(void) { return heat2d_cmd_run(0, 0); }'
inject "a method calls the registry above it" src/backends/cpu/cpu.c layer_check_heat2d_backend_cpu "$registry"
inject "the check calls the bench (a peer)" src/check/check_verdict.c layer_check_heat2d_check \
  'int bench_command(int, char **); int layer_violation(void); int layer_violation(void) { return bench_command(0, 0); }'
echo "layer_violations: $refused of $tried refused"
[ "$refused" -eq "$tried" ]
