#!/usr/bin/env bash
# tools/setup.sh on a machine without a package registry: it names what is
# missing and lets the build go on when cmake and a C compiler are there, and
# fails only when they are not. `make bench`'s set-up asks only for what the
# bench needs; the tests' (`tools/setup.sh test`) also for what only they
# use. apt-get is a stand-in that cannot reach any registry; PATH holds only
# the tools the case needs.
# usage: test_setup.sh SOURCE_DIR
set -e
. "$(dirname "$0")/lib.sh"
src=$1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: setup.sh installs only as root; the no-registry path needs root"; exit 77
fi

fake_path() { # DIR TOOL...: DIR holds links to the tools and a failing apt-get
  local dir=$1
  shift
  mkdir -p "$dir"
  for t in "$@"; do
    p=$(command -v "$t") && ln -sf "$p" "$dir/$t"
  done
  printf '#!/bin/sh\necho "E: no registry" >&2\nexit 100\n' >"$dir/apt-get"
  chmod +x "$dir/apt-get"
}
basics="bash id grep sed cut head cat ldconfig"

fake_path "$w/with" $basics cmake cc gcc python3
run env PATH="$w/with" bash "$src/tools/setup.sh"
expect_rc 0 "no registry, cmake and cc here: the build goes on"
expect_err_has "no package registry reachable (apt-get update failed); missing " "says it cannot install"
expect_err_has "missing libopenmpi-dev openmpi-bin libnetcdf-dev;" "names what the build lacks (MPI, NetCDF)"
expect_err_has "the build goes on with what is here" "says the build goes on"
for tool in gfortran valgrind netcdf-bin docker-compose; do
  if grep -qF -- "$tool" <<<"$err"; then ko "make bench's set-up asks for $tool, which only the tests use"; else ok; fi
done
run env PATH="$w/with" bash "$src/tools/setup.sh" test
expect_rc 0 "the tests' set-up, no registry: the build goes on"
expect_err_has "missing libopenmpi-dev openmpi-bin libnetcdf-dev gfortran valgrind netcdf-bin docker-compose" \
  "the tests' set-up names the bench's needs, then the tests' own"

# make test's set-up asks for the programs the client test opens series
# with (python3-xarray only where Debian's python lacks it); make bench's
# (no argument) for none of them.
run env PATH="$w/with" bash "$src/tools/setup.sh" test
for p in cdo nco paraview python3-paraview xvfb; do
  if grep -qw -- "$p" <<<"$err"; then ok; else ko "setup.sh test does not name $p: $err"; fi
done
run env PATH="$w/with" bash "$src/tools/setup.sh"
expect_eq "$(grep -cwE -- 'python3-xarray|cdo|nco|paraview|xvfb' <<<"$err")" 0 \
  "setup.sh for the bench names none of the client programs"

fake_path "$w/without" $basics
run env PATH="$w/without" bash "$src/tools/setup.sh"
expect_rc 1 "no registry and no cmake: the build cannot go on"
expect_err_has "missing cmake gcc" "names cmake and gcc"
finish
