#!/usr/bin/env bash
# The OpenACC kernels' PTX, as the offload build embeds it in heat2d.
# - In f64 and in f32: no multiply that the driver's ptxas could fuse with an add into an
#   fma, apart from the exact 4.0*u: PTX lets ptxas fuse a mul and an add
#   written without a rounding modifier, and GCC's nvptx back end writes
#   them so; alpha's product is an fma.rn with a -0 addend instead (see
#   acc_stencil.h), which keeps the field bit-identical to cpu's.
# - The row schedules recover no index by 64-bit division per cell (what
#   makes GCC's collapse(2) slow).
# - The argument-free kernels (args_*) read their arguments from device
#   memory: no kernel parameter but libgomp's, and no mapping per launch.
# usage: test_acc_ptx.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
ptx=$(strings -n 4 "$bin/heat2d" | grep -E '^(// BEGIN FUNCTION DEF: |\.entry |[a-z]+\.[a-z0-9.]+ )' || true)
if ! grep -q '^\.entry .*_omp_fn' <<<"$ptx"; then
  echo "SKIP: no OpenACC kernels' PTX in $bin/heat2d (not an offload build)"
  exit 77
fi
# Each kernel comes in f64 and in f32 (names ending in _f32): the same
# checks for both, with float's constants (4 is 0f40800000, -0 0f80000000).
all_entries=$(grep -cE '^\.entry (heat2d_acc_step|interior_|args_)[^;]*\)$' <<<"$ptx" || true)
f32_entries=$(grep -cE '^\.entry (heat2d_acc_step|interior_[a-z_]+|args_[a-z0-9_]+)_f32\$[^;]*\)$' <<<"$ptx" || true)
for p in f64 f32; do
  if [ "$p" = f64 ]; then four=0d4010000000000000 zero=0d8000000000000000 stencils=$((all_entries - f32_entries))
  else four=0f40800000 zero=0f80000000 stencils=$f32_entries; fi
  expect_eq "$(grep -E "^mul(\.rn)?\.$p" <<<"$ptx" | grep -vc ",$four;\$" || true)" 0 \
    "every $p multiply in the kernels is the exact 4*u"
  # The seed's step twice (acc-each's copy and acc-resident's seed schedule,
  # each its own LTO-private kernel), acc-resident's three row schedules and
  # its six argument-free ones in both directions of the ping-pong.
  expect_eq "$stencils" 17 \
    "$p: two seed steps; collapse, gang-vector, gang-worker; args gang-vector, columns, columns-fitted, worker-columns, warp-columns, columns2, twice"
  # Per kernel, not per line: the columns kernels, unrolled, hold several.
  expect_eq "$(awk -v fma="^fma[.]rn[.]$p .*,$zero;\$" '
    /^\/\/ BEGIN FUNCTION DEF: / { f = $5 } f ~ /^(heat2d_acc_step|interior_|args_)/ && $0 ~ fma { seen[f] = 1 }
    END { print length(seen) }' <<<"$ptx")" "$stencils" \
    "$p: alpha's product is an fma.rn with a -0 addend in every stencil kernel"
done
for k in interior_gang_vector interior_gang_worker args_gang_vector_forward args_gang_vector_backward; do
  expect_eq "$(awk -v k="$k" '/^\/\/ BEGIN FUNCTION DEF: / { f = ($5 ~ "^" k) } f && /^(div|rem)\.u64/ { n++ } END { print n + 0 }' <<<"$ptx")" \
    0 "$k divides no index per cell"
done
finish
