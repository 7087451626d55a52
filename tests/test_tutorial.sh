#!/usr/bin/env bash
# docs/tutorial.md, followed as a reader would: its shell blocks (each after
# a "<!-- tutorial -->" line) run as they are written, in order, in one
# shell that starts in the source tree with a HOME of its own (so that make
# install PREFIX=$HOME/.local installs there), and what each prints is held
# to the text block after it: line for line, where "…" stands for any text
# within a line, and a line of "…" alone for any lines. A block that needs
# what this machine lacks (matplotlib for the plot, mpirun for two ranks) is
# skipped, saying so, and the blocks after it run.
# usage: test_tutorial.sh SOURCE_DIR BUILD_DIR (on a fresh clone: . build)
set -e
src=$(cd "$1" && pwd)
# On a fresh clone (the check a person makes: tests/test_tutorial.sh . build)
# the build folder is the tutorial's to make.
mkdir -p "$2"
build=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"
tutorial=$src/docs/tutorial.md
if [ "$build" != "$src/build" ]; then
  echo "SKIP: the tutorial's make install builds $src/build, not this build ($build)"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: no python3 to hold the output to the tutorial's"; exit 77; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/home"

# The blocks: code/N and want/N (empty when no text block follows).
awk -v dir="$w" '
  /^<!-- tutorial -->$/ { n++; mode = "await_code"; next }
  mode == "await_code" && /^```sh$/ { mode = "code"; next }
  mode == "code" && /^```$/ { mode = "await_text"; next }
  mode == "code" { print > (dir "/code." n); next }
  mode == "await_text" && /^```text$/ { mode = "text"; printf "" > (dir "/want." n); next }
  mode == "text" && /^```$/ { mode = ""; next }
  mode == "text" { print > (dir "/want." n); next }
  END { print n > (dir "/count") }' "$tutorial"
n=$(cat "$w/count")
expect_eq "$n" 10 "docs/tutorial.md: ten blocks"

# What this machine can run: matplotlib for the plot (asked now), mpirun
# and mpi-cpu for two ranks (asked of the installed heat2d when the block's
# turn comes: on a fresh clone there is no build before the first block).
skip_block=()
for k in $(seq 1 "$n"); do
  if grep -q '^heat2d plot' "$w/code.$k" && ! have_matplotlib "tutorial block $k (heat2d plot)"; then
    skip_block[$k]=1
  fi
done

# One shell for all of them, each block's output and status to its files
# (out.N, rc.N), or the reason it was skipped (skip.N).
{
  echo "cd $(printf '%q' "$src")"
  for k in $(seq 1 "$n"); do
    if [ -n "${skip_block[$k]:-}" ]; then
      echo "echo 0 >$w/rc.$k"
      continue
    fi
    if grep -q '^mpirun' "$w/code.$k"; then
      echo "if ! command -v mpirun >/dev/null; then echo 'no mpirun' >$w/skip.$k"
      echo "elif ! heat2d methods | grep -q '^mpi-cpu .* here'; then echo 'heat2d has no mpi-cpu that runs here' >$w/skip.$k"
      echo "else"
    fi
    echo "{"
    cat "$w/code.$k"
    echo "} >$w/out.$k 2>&1 </dev/null; echo \$? >$w/rc.$k"
    if grep -q '^mpirun' "$w/code.$k"; then echo "fi"; fi
  done
} >"$w/driver.sh"
# make's own variables of an outer make test stay there; OpenMPI as root
# (CI) wants leave to run, which a reader's account does not need.
run env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS HOME="$w/home" OMPI_ALLOW_RUN_AS_ROOT=1 \
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 bash --norc --noprofile "$w/driver.sh"
expect_rc 0 "the tutorial's shell"

for k in $(seq 1 "$n"); do
  [ -z "${skip_block[$k]:-}" ] || continue
  if [ -f "$w/skip.$k" ]; then
    skip "tutorial block $k (two MPI ranks)" "$(cat "$w/skip.$k")"
    continue
  fi
  expect_eq "$(cat "$w/rc.$k")" 0 "tutorial block $k exits 0 ($(tail -n 3 "$w/out.$k"))"
  [ -f "$w/want.$k" ] || continue
  run python3 - "$w/want.$k" "$w/out.$k" <<'PY'
import functools, re, sys
want = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
pats = [None if w == "…" else re.compile(".*".join(map(re.escape, w.split("…")))) for w in want]

@functools.lru_cache(maxsize=None)
def fits(i, j):
    if i == len(pats):
        return j == len(got)
    if pats[i] is None:
        return any(fits(i + 1, k) for k in range(j, len(got) + 1))
    return j < len(got) and pats[i].fullmatch(got[j]) is not None and fits(i + 1, j + 1)

sys.setrecursionlimit(100000)
if not fits(0, 0):
    print("\n".join(got[:60]))
    sys.exit(1)
PY
  expect_rc 0 "tutorial block $k prints what the tutorial shows: $(head -n 1 "$w/code.$k")
--- it printed:
$out"
done
finish
