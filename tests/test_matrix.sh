#!/usr/bin/env bash
# The main job on the machines a machine without a GPU can stand in for:
# each configuration is configured and built, then checked and benchmarked
# at small sizes as `make bench` does, and must end with exit 0 and the notes
# its summary should carry.
#   default       this build (the project's default configure here)
#   offload       GCC's nvptx offload compiler installed, no GPU: OpenACC
#                 and OpenMP target offloaded in one build, skipped with the
#                 note, and on the host when asked, both in one process
#   clang         Clang 19 with its OpenMP offload runtime, no GPU: the OpenMP
#                 target methods offloaded, on the host when asked; and
#                 Clang without that runtime: left out, with the fix
#   no-acc-link   a C compiler that cannot link -fopenacc programs, nor
#                 OpenMP target ones; with the test doubles, which join every
#                 list from their declaration
#   parts-off     OpenACC, CUDA and MPI off, no matplotlib, no MPI, no
#                 gfortran, no package registry: plain `make bench` through
#                 the Makefile; with GCC's nvptx offload compiler installed,
#                 OpenMP target offloaded there (no GPU): skipped with the note
#   mpi-down      this build where MPI cannot start (OpenMPI without ssh or
#                 rsh): the MPI methods skipped, with the note and its fix
#   login-shell   `make bench` on a fresh clone as a user without root, in a
#                 login shell: none of the environment of the test's user;
#                 with the original's sources (SEED_DIR) and gfortran, `make
#                 bench ORIGINAL=...`: its three programs checked and in the table
# usage: test_matrix.sh SOURCE_DIR BUILD_DIR [SEED_DIR]
set -e
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
seed=${3:-$src/../shared/seed/fortran-reference}
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
chmod 755 "$w"
trap 'rm -rf "$w"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
sizes="--sizes 24x24:5,40x32:8 --repeats 1 --warmups 0"
# The tests of an offload build run with ACC_DEVICE_TYPE=host or
# OMP_TARGET_OFFLOAD=DISABLED; the machines stood in for here have no such
# setting.
unset ACC_DEVICE_TYPE OMP_TARGET_OFFLOAD

# configure NAME [CMAKE ARGS...]: a build of heat2d alone in $w/NAME; its
# configure output in $w/NAME.cfg; configure prints no warning.
configure() {
  local name=$1
  shift
  run cmake -S "$src" -B "$w/$name" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF "$@"
  printf '%s\n' "$out" >"$w/$name.cfg"
  expect_rc 0 "$name: configure ($err)"
  expect_eq "$(grep -m 3 -A 3 'CMake Warning' <<<"$err" || true)" "" "$name: configure warns of nothing"
  run cmake --build "$w/$name" -j "$jobs" --target heat2d
  expect_rc 0 "$name: build ($(tail -n 5 <<<"$out") $err)"
}

# main_job NAME BIN [ENV...]: what `make bench` runs (the check, then the
# bench), at small sizes into $w/NAME-out, with env's ENV arguments; the
# check's output in $check_out, the summary in $summary.
main_job() {
  local name=$1 bin=$2
  shift 2
  run env "$@" "$bin/heat2d" check
  expect_rc 0 "$name: heat2d check ($err)"
  expect_out_has "CPU_CHECK=PASS" "$name: the check passes"
  check_out=$out
  run env "$@" "$bin/heat2d" bench $sizes --out "$w/$name-out"
  expect_rc 0 "$name: heat2d bench ($err)"
  summary=$(cat "$w/$name-out/summary.md" 2>/dev/null || true)
}

# expect_summary_has TEXT DESCRIPTION
expect_summary_has() {
  if grep -qF -- "$1" <<<"$summary"; then ok; else ko "$2: summary.md lacks '$1'"; fi
}

# The method lists come from the backends' declarations (methods.txt, which
# configure writes), never typed here.
# declared_needing PART: the declared methods that need PART, ", " between.
declared_needing() {
  awk -v part="$1" '!/^#/ { for (i = 3; i <= NF; i++) if ($i == part) { printf "%s%s", n++ ? ", " : "", $1 } }' \
    "$build/methods.txt"
}
# methods_of BIN STYLE...: a build's methods (heat2d methods) of those
# styles (host, each, resident), ", " between.
methods_of() {
  local bin=$1
  shift
  "$bin/heat2d" methods | awk -v styles=" $* " 'index(styles, " " $3 " ") { printf "%s%s", n++ ? ", " : "", $1 }'
}
# expect_line_names LINE NAMES DESCRIPTION: LINE names each of NAMES (", "
# between) as a whole item of its list.
expect_line_names() {
  local m
  local -a names
  IFS=, read -ra names <<<"${2// /}"
  for m in "${names[@]}"; do
    if grep -qE "[ ,]$m([,:) ]|\$)" <<<"$1"; then ok; else ko "$3: '$1' does not name $m"; fi
  done
}

# ---- default -------------------------------------------------------------
main_job default "$build/bin"
expect_summary_has "**No GPU method was measured here**" "default: no GPU here, said first"
# Each GPU method of the build is skipped with a note; the distributed ones
# (the MPI methods) are left to a run over ranks, with theirs.
gpu=$(methods_of "$build/bin" each resident)
mpi=$(declared_needing MPI)
skipped_note=$(grep -E '^- Skipped .*: no usable GPU here' <<<"$summary" || true)
over_ranks=$(grep -E '^- Not run by default: ' <<<"$summary" || true)
for m in ${gpu//,/}; do
  if [[ ", $mpi, " == *", $m, "* ]]; then line=$over_ranks; else line=$skipped_note; fi
  expect_line_names "$line" "$m" "default: the GPU method $m skipped, with a note"
done
if have_method "$build/bin/heat2d" cuda-each "default: the CUDA code of a build without a GPU"; then
  # Configured where no GPU was visible and no architecture was asked for:
  # PTX alone, for the oldest GPU CUDA supports (any later one JIT-compiles it).
  choice=$(sed -n 's/^HEAT2D_CUDA_ARCH_CHOICE:INTERNAL=//p' "$build/CMakeCache.txt")
  if [ "$choice" = "as set" ] || [ "$choice" = "this machine's GPU" ]; then
    skip "default: the CUDA code of a build without a GPU" "the architectures were $choice"
  else
    run "$build/bin/heat2d" info
    expect_eq "$(sed -n 's/^CUDA_SASS=//p' <<<"$out")/$(key CUDA_PTX)" "/75" \
      "default: no GPU when configured: PTX for compute_75 alone, no SASS"
  fi
fi
headline=$(grep -n '^## Headline' <<<"$summary" | cut -d: -f1)
first_size=$(grep -n '^## [0-9]' <<<"$summary" | head -n 1 | cut -d: -f1)
expect_eq "$([ -n "$headline" ] && [ -n "$first_size" ] && [ "$headline" -lt "$first_size" ] && echo first)" \
  first "default: the headline table comes before the ladder"

# ---- mpi-down: MPI cannot start ---------------------------------------------
# As a machine without ssh or rsh is (a container, a new user's login shell
# where OMPI_MCA_plm=isolated is not set): OpenMPI's singleton daemon needs
# its remote launcher's agent. The main job goes on without the MPI methods
# and says why, with the fix.
mpi_host=$(methods_of "$build/bin" host | tr -d ' ' | tr , '\n' |
  grep -Fx -f <(declared_needing MPI | tr -d ' ' | tr , '\n') | paste -sd, | sed 's/,/, /g' || true)
if [ -n "$mpi_host" ] && "$build/bin/heat2d" info | grep -q '^MPI=.*OpenRTE'; then
  main_job mpi-down "$build/bin" -u OMPI_MCA_plm OMPI_MCA_plm_rsh_agent=/nonexistent/agent
  fix="are skipped; with OpenMPI and no ssh/rsh, set OMPI_MCA_plm=isolated"
  note=$(grep '^NOTE: check: MPI could not start (' <<<"$check_out" || true)
  reason=${note#NOTE: check: MPI could not start (}
  reason=${reason%%): the MPI methods (*}
  if [ -n "$reason" ] && [ "$note" = "NOTE: check: MPI could not start ($reason): the MPI methods ($mpi_host) $fix" ]
  then ok; else ko "mpi-down: the check's note '$note' lacks its reason or '$fix'"; fi
  # The bench names every MPI method of the build (mpi-cuda too, with CUDA).
  line=$(grep '^- MPI could not start (' <<<"$summary" || true)
  if [[ $line == "- MPI could not start ($reason): the MPI methods ($mpi_host"*") $fix." ]]; then ok
  else ko "mpi-down: summary.md's note '$line' lacks the check's reason or '$fix'"; fi
  expect_eq "$(grep -c 'Not run by default: mpi-' <<<"$summary" || true)" 0 \
    "mpi-down: the MPI methods are not offered to run over ranks"
else
  echo "SKIP mpi-down: this build has no MPI method for the host with OpenMPI"
fi

# omp_target_offloaded BUILD: the OpenMP target methods, offloaded (their
# own library) in a GCC build that offloads OpenACC's too, on this machine
# without a GPU: refused without OMP_TARGET_OFFLOAD=DISABLED, saying how to
# ask for the host; on the host when asked, where they pass the check and
# the kernel tests bit for bit, in one process with the OpenACC methods on
# the host too; their PTX as the GPU would run it.
omp_target_offloaded() {
  local b=$1 omp_target acc m
  omp_target=$(declared_needing OMP_TARGET)
  acc=$(declared_needing OPENACC)
  for m in ${omp_target//,/}; do
    run "$b/bin/heat2d" run --method "$m" --nx 8 --ny 8 --steps 1
    expect_rc 1 "offload: $m refuses the host nobody asked for"
    expect_err_has "set OMP_TARGET_OFFLOAD=DISABLED to run the OpenMP target methods on the host" \
      "offload: $m's refusal says how to ask for the host"
  done
  run env OMP_TARGET_OFFLOAD=DISABLED ACC_DEVICE_TYPE=host "$b/bin/heat2d" check
  expect_rc 0 "offload: the check with both models on the host, asked for ($err)"
  for m in ${omp_target//,/}; do
    expect_eq "$(grep -cE "^FILE=.*/${m}_25x21_[0-9]+\.dat DEVICE=host \(OMP_TARGET_OFFLOAD=DISABLED\) MAX_ABS_DIFF=0\.000000e\+00 .*FAILURES=0\$" <<<"$out")" 4 \
      "offload: $m on the host, bit for bit cpu's in the four cases, and says why it ran there"
    expect_eq "$(grep -cE "^TRANSFERS method=$m .* PASS\$" <<<"$out")" 4 "offload: $m's transfers, the model's"
  done
  for m in ${acc//,/}; do
    expect_eq "$(grep -cE "^FILE=.*/${m}_25x21_[0-9]+\.dat DEVICE=host \(ACC_DEVICE_TYPE=host\) MAX_ABS_DIFF=0\.000000e\+00 .*FAILURES=0\$" <<<"$out")" 4 \
      "offload: $m on the host beside the OpenMP target methods, bit for bit cpu's"
  done
  expect_out_has "CPU_CHECK=PASS" "offload: the check passes with both directive models on the host"
  run "$src/tests/test_omp_target_ptx.sh" "$b/lib/libheat2d_omp_target.so"
  expect_rc 0 "offload: the OpenMP target regions' PTX ($(tail -n 2 <<<"$out"))"
  # The kernel tests, every schedule from a garbage v, on the host.
  run cmake -S "$src" -B "$b" -DBUILD_TESTING=ON
  expect_rc 0 "offload: reconfigured with the tests ($err)"
  run cmake --build "$b" -j "$jobs" --target test_kernels
  expect_rc 0 "offload: test_kernels built ($(tail -n 3 <<<"$out"))"
  run env OMP_TARGET_OFFLOAD=DISABLED ACC_DEVICE_TYPE=host "$b/bin/test_kernels"
  expect_rc 0 "offload: test_kernels on the host ($(grep FAIL <<<"$out" | head -n 3))"
  expect_eq "$(grep -c 'this build has no omp-target' <<<"$out")" 0 "offload: test_kernels ran the OpenMP target methods"
}

# ---- offload: GCC's nvptx compiler, no GPU ----------------------------------
printf 'int main(void){int a[4];\n#pragma acc parallel loop copyout(a)\nfor(int i=0;i<4;i++)a[i]=i;\nreturn a[3]-3;}\n' >"$w/acc.c"
if gcc -fopenacc -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 "$w/acc.c" \
  -o "$w/acc" 2>/dev/null; then
  configure offload -DHEAT2D_OPENACC_OFFLOAD=ON -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF
  expect_eq "$(grep -c 'heat2d: OpenACC offloaded to NVIDIA GPUs' "$w/offload.cfg")" 1 \
    "offload: configure offloads OpenACC"
  main_job offload "$w/offload/bin"
  acc=$(declared_needing OPENACC)
  for m in ${acc//,/}; do
    expect_out_lacks "method=$m " "offload: the CPU check leaves $m to a GPU"
  done
  # A note for each model, each saying how to ask for its host.
  note=$(grep -F -- "- Skipped $acc: no usable GPU here (" <<<"$summary" || true)
  expect_eq "$(grep -c "set ACC_DEVICE_TYPE=host to run the OpenACC methods on the host" <<<"$note")" 1 \
    "offload: the acc methods skipped like the CUDA methods, the note saying how to ask for the host"
  note=$(grep -F -- "- Skipped $(declared_needing OMP_TARGET): no usable GPU here (" <<<"$summary" || true)
  expect_eq "$(grep -c "set OMP_TARGET_OFFLOAD=DISABLED to run the OpenMP target methods on the host" <<<"$note")" 1 \
    "offload: the OpenMP target methods skipped, their own note saying how to ask for the host"
  expect_summary_has "**No GPU method was measured here**" "offload: no GPU here, said first"
  acc_last=${acc##*, }
  run "$w/offload/bin/heat2d" run --method "$acc_last" --nx 8 --ny 8 --steps 1
  expect_rc 1 "offload: a seed-style run refuses the host"
  expect_err_has "set ACC_DEVICE_TYPE=host to run the OpenACC methods on the host" \
    "offload: the refusal says how to ask for the host"
  run env ACC_DEVICE_TYPE=host "$w/offload/bin/heat2d" run --method "$acc_last" --nx 8 --ny 8 --steps 1
  expect_rc 0 "offload: ACC_DEVICE_TYPE=host runs on the host"
  expect_out_has "DEVICE=host (ACC_DEVICE_TYPE=host)" "offload: the host, asked for, says so"
  # Both directive models offload in one GCC build: OpenMP target's
  # methods in a library of their own, whose offload link is its own.
  expect_eq "$(grep -c 'heat2d: OpenMP target offloaded to NVIDIA GPUs' "$w/offload.cfg")" 1 \
    "offload: configure offloads OpenMP target too"
  run "$w/offload/bin/heat2d" info
  expect_eq "$(key DIRECTIVE_OFFLOAD)/$(key OMP_TARGET)" "OpenACC,OpenMPtarget/nvptxoffload" \
    "offload: info says both models offload"
  omp_target_offloaded "$w/offload"
elif [ "${CI:-}" = true ]; then
  ko "offload: GCC's nvptx offload compiler is not installed (.ci/run installs it)"
else
  skip offload "GCC's nvptx offload compiler is not installed (tools/setup.sh offload)"
fi

# ---- clang: Clang's OpenMP offload (libomptarget), no GPU ---------------------
# Clang 19 with its offload runtime (Debian: clang-19, libomp-19-dev): the
# OpenMP target methods offloaded, refused here without
# OMP_TARGET_OFFLOAD=DISABLED and bit for bit cpu's with it; heat2d info
# names the compiler, runtime and ptxas; a CUDA folder for Clang's ptxas
# that has none, or whose cubins libomptarget cannot read, is said so at
# configure. Then Clang without its offload runtime: left out, with the fix.
clang_cc=$(command -v clang-19 || true)
if [ -n "$clang_cc" ] && [[ $("$clang_cc" -print-file-name=libomptarget.so) == /* ]]; then
  clang_version=$("$clang_cc" --version | sed -n 's/.*clang version \([0-9.]*\).*/\1/p')
  CC=$clang_cc configure clang -DHEAT2D_OMP_TARGET=ON -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF \
    -DHEAT2D_NETCDF=OFF
  expect_eq "$(grep -c 'heat2d: OpenMP target offloaded to NVIDIA GPUs' "$w/clang.cfg")" 1 \
    "clang: configure offloads OpenMP target"
  run "$w/clang/bin/heat2d" info
  expect_eq "$(sed -n 's/^OMP_TARGET_COMPILER=//p' <<<"$out")" "Clang $clang_version" "clang: info names the compiler"
  expect_eq "$(grep -c "^OMP_TARGET_RUNTIME=libomptarget $clang_version (/" <<<"$out")" 1 \
    "clang: info names the runtime and its folder"
  expect_eq "$(grep -cE '^OMP_TARGET_PTXAS=(/.*/bin/ptxas \(CUDA [0-9.]+\)|none found)' <<<"$out")" 1 \
    "clang: info names the ptxas"
  omp_target=$(declared_needing OMP_TARGET)
  for m in ${omp_target//,/}; do
    run "$w/clang/bin/heat2d" run --method "$m" --nx 8 --ny 8 --steps 1
    expect_rc 1 "clang: $m refuses the host nobody asked for"
    expect_err_has "set OMP_TARGET_OFFLOAD=DISABLED to run the OpenMP target methods on the host" \
      "clang: $m's refusal says how to ask for the host"
  done
  run env OMP_TARGET_OFFLOAD=DISABLED "$w/clang/bin/heat2d" check
  expect_rc 0 "clang: the check on the host, asked for ($err)"
  for m in ${omp_target//,/}; do
    expect_eq "$(grep -cE "^FILE=.*/${m}_25x21_[0-9]+\.dat DEVICE=host \(OMP_TARGET_OFFLOAD=DISABLED\) MAX_ABS_DIFF=0\.000000e\+00 .*FAILURES=0\$" <<<"$out")" 4 \
      "clang: $m on the host, bit for bit cpu's in the four cases"
  done
  run env OMP_TARGET_OFFLOAD=DISABLED HEAT2D_OMP_TARGET_SCHEDULE=bare "$w/clang/bin/heat2d" run \
    --method omp-target-resident --nx 8 --ny 8 --steps 1
  expect_rc 1 "clang: the bare schedule refuses the host"
  expect_err_has "HEAT2D_OMP_TARGET_SCHEDULE=bare runs on a GPU only" "clang: the refusal says why"
  # A CUDA folder for Clang's ptxas: none there, or one whose cubins
  # libomptarget cannot read (CUDA 13's, where nvcc is CUDA 13).
  run env CC="$clang_cc" cmake -S "$src" -B "$w/clang-cuda" -DBUILD_TESTING=OFF -DHEAT2D_CUDA=OFF \
    -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF -DHEAT2D_OMP_TARGET_CUDA_PATH="$w/no-cuda"
  expect_rc 1 "clang: a CUDA folder without ptxas is refused"
  # (CMake wraps the lines of its errors.)
  expect_eq "$(tr -s ' \n' '  ' <<<"$err" | grep -cF "HEAT2D_OMP_TARGET_CUDA_PATH=$w/no-cuda has no bin/ptxas. Fix: name a CUDA folder")" 1 \
    "clang: the refusal names the folder and the fix"
  # A folder of wrapper scripts (bin/ptxas and no libdevice) is no CUDA folder.
  mkdir -p "$w/ptxas-only/bin" && ln -sf "$(type -P true)" "$w/ptxas-only/bin/ptxas"
  run env CC="$clang_cc" cmake -S "$src" -B "$w/clang-cuda" -DBUILD_TESTING=OFF -DHEAT2D_CUDA=OFF \
    -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF -DHEAT2D_OMP_TARGET_CUDA_PATH="$w/ptxas-only"
  expect_rc 1 "clang: a CUDA folder without libdevice is refused"
  expect_eq "$(tr -s ' \n' '  ' <<<"$err" | grep -cF "HEAT2D_OMP_TARGET_CUDA_PATH=$w/ptxas-only has no nvvm/libdevice. Fix: name a CUDA folder")" 1 \
    "clang: the refusal names the missing libdevice"
  # (nvcc on PATH may be a wrapper script outside its folder: the CUDA 13
  # folder is looked for where toolkits are installed.)
  cuda13=""
  for d in /usr/local/cuda /usr/local/cuda-* /opt/cuda*; do
    if [ -x "$d/bin/ptxas" ] && [ -d "$d/nvvm/libdevice" ] &&
      "$d/bin/ptxas" --version | grep -q 'release 1[3-9]\.'; then
      cuda13=$d
      break
    fi
  done
  if [ -n "$cuda13" ]; then
    run env CC="$clang_cc" cmake -S "$src" -B "$w/clang-cuda" -DBUILD_TESTING=OFF -DHEAT2D_CUDA=OFF \
      -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF -DHEAT2D_OMP_TARGET_CUDA_PATH="$cuda13"
    expect_rc 0 "clang: configure with CUDA 13's ptxas ($err)"
    expect_out_has "heat2d: OpenMP target: the ptxas of $cuda13/bin/ptxas (CUDA 1" \
      "clang: configure says CUDA 13's cubins will be refused"
    expect_out_has "Fix: -DHEAT2D_OMP_TARGET_CUDA_PATH=DIR, a CUDA 11 or 12 folder" "clang: with the fix"
  else
    skip "clang: CUDA 13's ptxas" "no CUDA 13 folder (bin/ptxas and nvvm/libdevice) in /usr/local or /opt"
  fi
  # Without its offload runtime: a clang-19 that finds neither
  # libomptarget nor its device bitcode (libomp-19-dev not installed).
  printf '#!/bin/sh\nfor a in "$@"; do case "$a" in -print-file-name=libomptarget*) echo "${a#-print-file-name=}"; exit 0 ;; esac; done\nexec %s --libomptarget-nvptx-bc-path=/nonexistent "$@"\n' \
    "$clang_cc" >"$w/clang-no-runtime"
  chmod +x "$w/clang-no-runtime"
  run env CC="$w/clang-no-runtime" cmake -S "$src" -B "$w/clang-no-runtime-build" -DBUILD_TESTING=OFF \
    -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF -DHEAT2D_NETCDF=OFF
  expect_rc 0 "clang-no-runtime: configure goes on ($err)"
  line=$(grep 'heat2d: OpenMP target left out' <<<"$out" || true)
  expect_eq "$(grep -c . <<<"$line")" 1 "clang-no-runtime: one configure line says OpenMP target is left out"
  expect_eq "$(grep -cF "Fix: install libomp-${clang_version%%.*}-dev (libomptarget and its nvptx device runtime)" <<<"$line")" 1 \
    "clang-no-runtime: the line names the package that fixes it"
else
  skip clang "clang-19 with libomp-19-dev is not installed (apt-get install clang-19 libomp-19-dev)"
fi

# ---- a C compiler that cannot link -fopenacc programs ------------------------
CC="$src/tests/tools/cc_no_openacc_link" configure no-acc-link -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF \
  -DHEAT2D_TEST_DOUBLES=ON
line=$(grep 'heat2d: OpenACC left out' "$w/no-acc-link.cfg" || true)
expect_eq "$(grep -c . <<<"$line")" 1 "no-acc-link: one configure line says OpenACC is left out"
expect_eq "$(grep -cF "cannot build an OpenACC program (/usr/bin/ld: error: could not run lto-wrapper). Fix: configure with CC=" <<<"$line")" 1 \
  "no-acc-link: the line says what failed and the fix"
line=$(grep 'heat2d: OpenMP target left out' "$w/no-acc-link.cfg" || true)
expect_eq "$(grep -c . <<<"$line")" 1 "no-acc-link: one configure line says OpenMP target is left out"
expect_eq "$(grep -cF "does not offload an OpenMP target program (/usr/bin/ld: error: could not run lto-wrapper). Fix: configure with CC=" <<<"$line")" 1 \
  "no-acc-link: the OpenMP target line says what failed and the fix"
main_job no-acc-link "$w/no-acc-link/bin"
expect_summary_has "Not in this build: OpenACC ($(declared_needing OPENACC)): " \
  "no-acc-link: the summary says the acc methods are not built, and why"
expect_summary_has "Not in this build: OpenMP target ($(declared_needing OMP_TARGET)): " \
  "no-acc-link: the summary says the OpenMP target methods are not built, and why"
run "$w/no-acc-link/bin/heat2d" methods
acc=$(declared_needing OPENACC)
for m in ${acc//,/}; do
  expect_eq "$(awk -v m="$m" '$1 == m' <<<"$out")" "" "no-acc-link: $m not in the build"
done

# The test doubles: declared in methods.cmake and nowhere else, in the
# build's lists, checked against cpu and benchmarked like any method.
doubles=$(awk '!/^#/ && /TEST_DOUBLES/ { print $1 }' "$build/methods.txt")
expect_eq "$(grep -c . <<<"$doubles")" 1 "no-acc-link: one test double declared"
expect_eq "$(awk '$2 == "yes" && /TEST_DOUBLES/ { print $1 }' "$w/no-acc-link/methods.txt")" "$doubles" \
  "no-acc-link: the test double built"
expect_eq "$(awk -v m="$doubles" '$1 == m { print $1 }' <<<"$out")" "$doubles" \
  "no-acc-link: heat2d methods lists the test double"
expect_eq "$(grep -c "^INVARIANT=[a-z-]* method=$doubles .* PASS$" <<<"$check_out" || true)" 4 \
  "no-acc-link: the check holds the test double to the invariants, and it passes"
expect_eq "$(grep -c "method=$doubles .* FAIL\$" <<<"$check_out" || true)" 0 \
  "no-acc-link: no check of the test double fails"
expect_summary_has "$doubles" "no-acc-link: the bench measures the test double"
# The test double format (tests/doubles/format_double.c): its file and its
# line in the table of formats make --save write it, the check of a file
# already there know it, and every reader of fields read it.
d=$w/no-acc-link/bin/heat2d
run "$d" run --method cpu --nx 9 --ny 7 --steps 4 --save "$w/field.dbl"
expect_rc 0 "double format: run --save FILE.dbl"
expect_eq "$(head -n 2 "$w/field.dbl")" "heat2d test double field
9 7" "double format: --save FILE.dbl writes the test double's lines"
run "$d" run --method cpu --nx 9 --ny 7 --steps 4 --save "$w/field.txt"
run "$d" compare "$w/field.dbl" "$w/field.txt" --atol 0 --rtol 0
expect_rc 0 "double format: compare reads it back, the text field's values bit for bit"
expect_out_has "MAX_ABS_DIFF=0.000000e+00 " "double format: no cell differs"
expect_failure 1 "heat2d: run: --save $w/field.txt.dbl: it holds text, not a heat2d test double field; give --force to replace it" \
  sh -c 'cp "$1" "$1.dbl" && exec "$2" run --method cpu --nx 9 --ny 7 --steps 4 --save "$1.dbl"' sh "$w/field.txt" "$d"
expect_failure 1 "heat2d: run: --save $w/field.txt: it holds a heat2d test double field, not text; give --force to replace it" \
  sh -c 'cp "$1" "$2" && exec "$3" run --method cpu --nx 9 --ny 7 --steps 4 --save "$2"' sh "$w/field.dbl" "$w/field.txt" "$d"
expect_eq "$("$build/bin/heat2d" methods | awk -v m="$doubles" '$1 == m')" "" \
  "default: no test double in a build for use"
expect_eq "$("$build/bin/heat2d" info | grep '^LEFT_OUT=' | grep -c -- "$doubles" || true)" 0 \
  "default: a test double is never a part left out"

# ---- parts off, no matplotlib, no MPI, no gfortran, no registry: plain make bench ---
# PATH holds every tool but MPI's, gfortran and python3, and an apt-get that
# reaches no registry; the only python has no matplotlib.
mkdir -p "$w/path"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  for t in "$d"/*; do
    n=${t##*/}
    case "$n" in mpicc | mpirun | gfortran* | python3* | apt-get) continue ;; esac
    [ -x "$t" ] && [ ! -e "$w/path/$n" ] && ln -s "$t" "$w/path/$n"
  done
done
printf '#!/bin/sh\necho "E: no registry" >&2\nexit 100\n' >"$w/path/apt-get"
printf '#!/bin/sh\necho "ModuleNotFoundError: No module named matplotlib" >&2\nexit 1\n' >"$w/path/python3"
chmod +x "$w/path/apt-get" "$w/path/python3"
run env PATH="$w/path" HEAT2D_PYTHON="$w/path/python3" make -C "$src" --no-print-directory bench \
  BUILD="$w/parts-off" JOBS="$jobs" \
  CMAKE_FLAGS="-DHEAT2D_OPENACC=OFF -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF -DBUILD_TESTING=OFF" \
  BENCH_FLAGS="$sizes --out $w/parts-off-out"
expect_rc 0 "parts-off: make bench ($(tail -n 3 <<<"$err"))"
# As root the registry is what fails ("missing A B; ..."), as anyone else
# the rights ("missing A B (not root: ...)"): the list is MPI's alone either way.
if grep -qE "missing libopenmpi-dev openmpi-bin(;| \(not root)" <<<"$err"; then ok
else ko "parts-off: setup names what the bench lacks (MPI), and only that: $err"; fi
if grep -qF gfortran <<<"$err"; then ko "parts-off: make bench's set-up asks for gfortran, which only the tests use"; else ok; fi
expect_err_has "the build goes on with what is here" "parts-off: setup lets the build go on"
expect_out_has "CPU_CHECK=PASS" "parts-off: the check passes"
summary=$(cat "$w/parts-off-out/summary.md" 2>/dev/null || true)
expect_summary_has "Not in this build: OpenACC ($(declared_needing OPENACC)): HEAT2D_OPENACC=OFF" \
  "parts-off: OpenACC off, said"
expect_summary_has "Not in this build: CUDA ($(declared_needing CUDA)): HEAT2D_CUDA=OFF" \
  "parts-off: CUDA off, said"
expect_summary_has "Not in this build: MPI ($(declared_needing MPI)): HEAT2D_MPI=OFF" "parts-off: MPI off, said"
expect_summary_has "Plots skipped (time_per_step.png, headline.png, field.png): no python with matplotlib" \
  "parts-off: no matplotlib, the plots skipped with the reason"
# OpenMP target without OpenACC: offloaded where GCC's nvptx compiler is
# (the offload build above runs its methods), else left out, said.
if grep -q 'heat2d: OpenMP target offloaded to NVIDIA GPUs (' <<<"$out"; then
  expect_summary_has "Skipped $(methods_of "$w/parts-off/bin" each resident): no usable GPU here" \
    "parts-off: the OpenMP target methods skipped, with the note"
else
  expect_summary_has "Not in this build: OpenMP target ($(declared_needing OMP_TARGET)): " \
    "parts-off: no offload compiler, OpenMP target left out, said"
fi

# ---- login-shell: an unprivileged user on a fresh clone, in a login shell ------
# As a new user logs in: `su - USER` (root here), or env -i with a minimal
# PATH (not root), so that nothing of this test's environment (its PATH,
# CC, OMPI_MCA_*, TMPDIR) reaches the build, the check or the bench. A
# variable exported here proves it.
if ! command -v git >/dev/null || ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  skip login-shell "the source is not a git checkout, so there is nothing to clone"
else
  export HEAT2D_MATRIX_CALLER=yes
  home=$w/home
  mkdir -p "$home"
  # A bundle of HEAD: the user clones what was committed, and git has no
  # reason to refuse a repository that another user owns.
  git -C "$src" bundle create -q "$w/heat2d.bundle" HEAD
  chmod 644 "$w/heat2d.bundle"
  # The article's programs, where their sources and gfortran are here: a
  # copy the user can read.
  original=""
  if [ -f "$seed/reference_cpu.f90" ] && command -v gfortran >/dev/null; then
    original=$w/original
    mkdir "$original" && cp "$seed"/*.f90 "$original" && chmod -R a+rX "$original"
  else
    echo "note: login-shell: no original sources at $seed or no gfortran: make bench ORIGINAL= not run"
  fi
  job=$(printf 'env >%q/env.txt && git clone -q %q %q/clone && make -C %q/clone --no-print-directory bench JOBS=%q CMAKE_FLAGS=%q BENCH_FLAGS=%q ORIGINAL=%q' \
    "$home" "$w/heat2d.bundle" "$home" "$home" "$jobs" "-DHEAT2D_CUDA=OFF -DBUILD_TESTING=OFF" \
    "$sizes --out $home/out" "$original")
  if [ "$(id -u)" = 0 ]; then
    user=heat2d-matrix-$$
    useradd -M -d "$home" -s /bin/bash "$user"
    trap 'userdel "$user" 2>/dev/null; rm -rf "$w"' EXIT
    chown "$user" "$home"
    run su - "$user" -c "$job"
  else
    run env -i HOME="$home" PATH=/usr/bin:/bin bash -l -c "$job"
  fi
  expect_rc 0 "login-shell: make bench on a fresh clone ($(tail -n 3 <<<"$err"))"
  expect_out_has "CPU_CHECK=PASS" "login-shell: the check passes"
  expect_eq "$(test -s "$home/out/summary.md" && echo written)" written "login-shell: the summary written"
  if [ -n "$original" ]; then
    expect_eq "$(grep -c '^ORIGINAL_BUILD=\(offload\|host\) (' <<<"$out")" 1 \
      "login-shell: make bench ORIGINAL= says how it built the article's programs"
    expect_out_has "PROGRAM_CHECK=PASS" "login-shell: the article's programs pass the check"
    for p in f-cpu f-acc-each f-acc-persistent; do
      expect_eq "$(awk -F, -v p="$p" '$1 == p' "$home/out/trials.csv" | wc -l | tr -d ' ')" 2 \
        "login-shell: $p's trial at each size"
    done
  fi
  expect_eq "$(grep -c '^HEAT2D_MATRIX_CALLER=' "$home/env.txt" || true)" 0 \
    "login-shell: none of the caller's environment"
  expect_eq "$(sed -n 's/^HOME=//p' "$home/env.txt")" "$home" "login-shell: the user's own HOME"
  if [ "$(id -u)" = 0 ]; then
    expect_eq "$(stat -c %U "$home/out/trials.csv")" "$user" "login-shell: the results are the user's"
  fi
fi
finish
