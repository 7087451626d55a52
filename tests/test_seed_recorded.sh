#!/usr/bin/env bash
# heat2d's cpu_reference against the original's recorded outputs
# (tests/data/fortran_reference.txt): the same summary values, as printed,
# and, where the original writes a valid field file, the same bytes
# (SHA-256). Runs on any checkout, with or without the original's sources;
# test_seed_vs_fortran.sh checks the record against the original itself.
# usage: test_seed_recorded.sh BIN_DIR DATA_FILE
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
data=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cases=0
while read -r nx ny steps mass centre min max hash; do
  case "$nx" in '#'* | '') continue ;; esac
  cases=$((cases + 1))
  tag="${nx}x${ny}/${steps}"
  run "$bin/cpu_reference" "$nx" "$ny" "$steps" "$w/c.dat"
  expect_rc 0 "cpu_reference $tag"
  expect_eq "$(key MASS) $(key CENTRE) $(key MIN) $(key MAX)" "$mass $centre $min $max" \
    "cpu_reference $tag: the original's MASS CENTRE MIN MAX"
  if [ "$hash" != invalid ]; then
    expect_eq "$(sha256sum "$w/c.dat" | cut -d' ' -f1)" "$hash" "cpu_reference $tag: the original's field file, byte for byte"
  fi
done <"$data"
expect_eq "$([ "$cases" -ge 10 ] && echo yes)" yes "the record holds the test sizes ($cases cases)"
finish
