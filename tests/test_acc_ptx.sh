#!/usr/bin/env bash
# The OpenACC kernels' PTX, as the offload build embeds it in heat2d.
# - No f64 multiply that the driver's ptxas could fuse with an add into an
#   fma, apart from the exact 4.0*u: PTX lets ptxas fuse a mul and an add
#   written without a rounding modifier, and GCC's nvptx back end writes
#   them so; alpha's product is an fma.rn with a -0 addend instead (see
#   acc_stencil.h), which keeps the field bit-identical to cpu's.
# - The row schedules recover no index by 64-bit division per cell (what
#   makes GCC's collapse(2) slow).
# usage: test_acc_ptx.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
ptx=$(strings -n 4 "$bin/heat2d" | grep -E '^(// BEGIN FUNCTION DEF: |\.entry |[a-z]+\.[a-z0-9.]+ )' || true)
if ! grep -q '^\.entry .*_omp_fn' <<<"$ptx"; then
  echo "test_acc_ptx: no OpenACC kernels' PTX in $bin/heat2d (not an offload build)"
  exit 77
fi
expect_eq "$(grep -E '^mul(\.rn)?\.f64' <<<"$ptx" | grep -vc ',0d4010000000000000;$' || true)" 0 \
  "every f64 multiply in the kernels is the exact 4.0*u"
stencils=$(grep -cE '^\.entry (heat2d_acc_step|interior_)[^;]*\)$' <<<"$ptx" || true)
expect_eq "$([ "$stencils" -ge 5 ] && echo yes)" yes "the seed's step and four schedules ($stencils)"
expect_eq "$(grep -c '^fma\.rn\.f64 .*,0d8000000000000000;$' <<<"$ptx" || true)" "$stencils" \
  "alpha's product is an fma.rn with a -0 addend in every stencil kernel"
for k in interior_gang_vector interior_gang_worker; do
  expect_eq "$(awk -v k="$k" '/^\/\/ BEGIN FUNCTION DEF: / { f = ($5 ~ "^" k) } f && /^(div|rem)\.u64/ { n++ } END { print n + 0 }' <<<"$ptx")" \
    0 "$k divides no index per cell"
done
finish
