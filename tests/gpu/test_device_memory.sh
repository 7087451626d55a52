#!/usr/bin/env bash
# On a GPU machine: a grid whose arrays fit in host memory but not in the
# GPU's free memory is refused, with the sizes, before the run starts; by
# every GPU method. Another process holds most of the GPU's memory (as on a
# shared GPU), so the test needs no 141 GB host.
#   usage: tests/gpu/test_device_memory.sh BIN_DIR   (needs python3 with torch)
set -e
. "$(dirname "$0")/../lib.sh"
bin=$1
command -v nvidia-smi >/dev/null || { echo "SKIP: no GPU"; exit 77; }
python3 -c 'import torch' 2>/dev/null || { echo "SKIP: python3 has no torch to hold GPU memory"; exit 77; }

# Hold all but 16 GB of the GPU's memory until this script ends.
python3 -c '
import sys, time, torch
free, total = torch.cuda.mem_get_info()
hold = torch.empty(free - (16 << 30), dtype=torch.uint8, device="cuda")
print("held", hold.numel(), flush=True)
time.sleep(600)' >"${TMPDIR:-/tmp}/hold.log" 2>&1 &
holder=$!
trap 'kill $holder 2>/dev/null || true' EXIT
for _ in $(seq 120); do grep -q held "${TMPDIR:-/tmp}/hold.log" && break; sleep 0.5; done

# 32768^2 doubles: 8.6 GB an array, 17 GB for two > 16 GB free.
for m in $("$bin/heat2d" methods | awk '$3 != "host" {print $1}'); do
  run "$bin/heat2d" run --method "$m" --nx 32768 --ny 32768 --steps 1
  expect_rc 1 "$m refuses a grid larger than the free device memory"
  expect_err_has "grid 32768x32768 needs 2 x 8.59 GB of device memory, more than the" "$m message"
  expect_err_lines 1 "$m one line"
  expect_eq "$out" "" "$m prints no result"
done
finish
