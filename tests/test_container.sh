#!/usr/bin/env bash
# The container recipe: compose.yaml is a valid Compose file (as
# docker-compose reads it) whose service reserves one NVIDIA GPU, mounts the
# checkout and runs the bench there; the Dockerfile starts from NVIDIA's CUDA
# 13 development image for Ubuntu 24.04 and installs through tools/setup.sh
# alone. No image is built here: no container registry is reachable.
# usage: test_container.sh SOURCE_DIR
set -e
. "$(dirname "$0")/lib.sh"
src=$1
if ! command -v docker-compose >/dev/null; then
  echo "SKIP: docker-compose is not installed (tools/setup.sh installs it)"; exit 77
fi
run docker-compose --project-directory "$src" -f "$src/compose.yaml" config
expect_rc 0 "docker-compose config accepts compose.yaml"
cfg=$out
expect_eq "$(grep -c '^  heat2d:$' <<<"$cfg")" 1 "one service, heat2d"
dev=$(sed -n '/devices:/,/^    [a-z]/p' <<<"$cfg")
expect_eq "$(grep -cE '^ *(- )?driver: nvidia$' <<<"$dev")" 1 "the device reservation is an NVIDIA driver"
expect_eq "$(grep -cE '^ *(- )?count: 1$' <<<"$dev")" 1 "one GPU reserved"
expect_eq "$(grep -A1 -E 'capabilities:' <<<"$dev" | grep -cE '^ *- gpu$')" 1 "with the gpu capability"
expect_eq "$(grep -cE "^ *- $src:/work/heat2d(:rw)?$" <<<"$cfg")" 1 "the checkout is mounted at the working dir"
expect_eq "$(sed -n 's/^ *working_dir: //p' <<<"$cfg")" "/work/heat2d" "the bench runs in the checkout"
expect_eq "$(sed -n 's/^ *command: //p' <<<"$cfg")" "make bench" "the service runs make bench"

df=$src/Dockerfile
expect_eq "$(grep -cE '^FROM nvidia/cuda:13\.[0-9.]+-devel-ubuntu24\.04$' "$df")" 1 \
  "NVIDIA's CUDA 13 development image for Ubuntu 24.04"
expect_eq "$(grep -c 'tools/setup.sh offload' "$df")" 1 "installs through tools/setup.sh"
expect_eq "$(grep -ciE 'apt-get|apt install|pip install' "$df" || true)" 0 "no package list of its own"
expect_eq "$(grep -c 'HEAT2D_OPENACC_OFFLOAD=ON' "$df")" 1 "builds with OpenACC offload"
finish
