#!/usr/bin/env bash
# The OpenMP target regions' PTX, as a GCC offload build embeds it in the
# methods' library (libheat2d_omp_target.so, their own offload link):
# in f64 and in f32, no multiply that the driver's ptxas could fuse with an
# add into an fma, apart from the exact 4.0*u (GCC's nvptx back end writes
# mul and add without a rounding modifier, which PTX lets ptxas fuse);
# alpha's product is an fma.rn with a -0 addend instead, in every stencil
# region (omp_target_stencil.h), which keeps the field bit-identical to
# cpu's.
# usage: test_omp_target_ptx.sh LIBRARY
set -e
. "$(dirname "$0")/lib.sh"
library=$1
ptx=$(strings -n 4 "$library" | grep -E '^(// BEGIN FUNCTION DEF: |\.visible \.entry |[a-z]+\.[a-z0-9.]+ )' || true)
if ! grep -q '^// BEGIN FUNCTION DEF: args_columns_forward\$_omp_fn' <<<"$ptx"; then
  echo "SKIP: no OpenMP target regions' PTX in $library (not a GCC OpenMP offload build)"
  exit 77
fi
# The stencil regions by name (the outlined functions' names cut at the
# first $): the seed's step (omp-target-each's, and omp-target-resident's
# seed schedule), collapse, rows, and the argument-free rows, columns
# and columns2 in both directions of the ping-pong; f32's end in
# _f32. Float's constants: 4 is 0f40800000, -0 0f80000000.
stencils="args_columns2_backward args_columns2_forward args_columns_backward args_columns_forward args_rows_backward args_rows_forward heat2d_omp_target_step interior_collapse interior_rows"
lanes="args_columns2_backward args_columns2_forward args_columns_backward args_columns_forward args_rows_backward args_rows_forward interior_rows"
for p in f64 f32; do
  if [ "$p" = f64 ]; then four=0d4010000000000000 zero=0d8000000000000000 suffix=""
  else four=0f40800000 zero=0f80000000 suffix=_f32; fi
  expect_eq "$(grep -E "^mul(\.rn)?\.$p" <<<"$ptx" | grep -vc ",$four;\$" || true)" 0 \
    "every $p multiply in the regions is the exact 4*u"
  expect_eq "$(awk -v fma="^fma[.]rn[.]$p .*,$zero;\$" '
    /^\/\/ BEGIN FUNCTION DEF: / { f = $5; sub(/\$.*/, "", f) } $0 ~ fma { seen[f] = 1 }
    END { for (f in seen) print f }' <<<"$ptx" | sort | paste -sd' ')" \
    "$(for s in $stencils; do echo "$s$suffix"; done | sort | paste -sd' ')" \
    "$p: alpha's product is an fma.rn with a -0 addend in every stencil region"
  # The schedules that spread a row's or a strip's cells over the lanes of
  # a warp read %laneid (GCC's SIMT lowering of their simd loop): a
  # collapse(2) simd loop reads none, and one lane of 32 does the work.
  with_lanes=$(awk '/^\/\/ BEGIN FUNCTION DEF: / { f = $5; sub(/\$.*/, "", f) }
    /%laneid/ { seen[f] = 1 } END { for (f in seen) print f }' <<<"$ptx")
  expect_eq "$(for s in $lanes; do grep -qx "$s$suffix" <<<"$with_lanes" && echo "$s$suffix"; done | paste -sd' ')" \
    "$(for s in $lanes; do echo "$s$suffix"; done | paste -sd' ')" \
    "$p: the column and row schedules spread their cells over a warp's lanes"
done
# A lane's private arrays in a simd loop (the column schedules' windows of
# rows) are taken from the top of its region's per-lane .local array,
# %simtstack_ar, above the 8 bytes that save the soft-stack pointer: every
# region's array holds what its lanes take (GCC 12 sizes it at
# -msoft-stack-reserve-local, not at what they take; cmake/
# OptionalParts.cmake).
simt=$(strings -n 2 "$library" | awk '
  /^\/\/ BEGIN FUNCTION DEF: / { f = $5; sub(/\$.*/, "", f) }
  /%simtstack_ar\[/ { match($0, /\[[0-9]+\]/); size = substr($0, RSTART + 1, RLENGTH - 2) + 0 }
  /^cvta\.local\.u64 .*%simtstack_ar/ { taking = 1; next }
  taking && /^sub\.u64 / { n = $0; sub(/.*,/, "", n); sub(/;.*/, "", n); n += 0
    if (n > 0) print f, n, size }
  { taking = 0 }')
expect_eq "$(awk '{ print $1 }' <<<"$simt" | sort -u | paste -sd' ')" \
  "$(for s in args_columns2_backward args_columns2_forward args_columns_backward args_columns_forward; do
    echo "$s"; echo "${s}_f32"; done | sort | paste -sd' ')" \
  "the column schedules' regions take their lanes' windows from the SIMT stack"
expect_eq "$(awk '$2 + 8 > $3 { print $1 ": takes " $2 " + 8 of " $3 " bytes" }' <<<"$simt" | sort -u | paste -sd' ')" "" \
  "every region's SIMT stack holds what its lanes take"
finish
