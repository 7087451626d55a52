#!/usr/bin/env bash
# Runs each libFuzzer target of a HEAT2D_FUZZ build for a bounded time.
# usage: tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]   (targets: field real args series csv
#                                                     netcdf)
#
# Seeds come from tests/fuzz/corpus/<target> and are never written to; what
# the fuzzer learns goes to BUILD_DIR/fuzz-corpus/<target>, kept between
# runs. A crash, leak or broken property stops with the input saved as
# BUILD_DIR/fuzz-crashes/<target>-crash-...: fix it, then keep the input as
# tests/fuzz/corpus/<target>/regression-<what>, which every build's test
# suite replays (fuzz_corpus_<target>). A target with a dictionary of its
# format's tokens, tests/fuzz/<target>.dict, gets it, and one with options
# of its own, tests/fuzz/<target>.options (lines not starting with #), those.
#
# The targets run side by side, FUZZ_JOBS at a time (default: one a core),
# so that each still has a core to itself for its SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(field real args series csv netcdf)
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
crashes=$build/fuzz-crashes
# fuzz_one TARGET: the fuzzer's output in its log, 0 or 1 in BUILD_DIR/fuzz-TARGET.rc.
fuzz_one() {
  local t=$1 work=$build/fuzz-corpus/$1 extra=()
  mkdir -p "$work" "$crashes"
  [ ! -f "tests/fuzz/$t.dict" ] || extra=(-dict="tests/fuzz/$t.dict")
  # shellcheck disable=SC2207
  [ ! -f "tests/fuzz/$t.options" ] || extra+=($(grep -v '^#' "tests/fuzz/$t.options"))
  # -timeout: an input taking 10 s is a finding (a hang); -rss_limit_mb: so is
  # one needing 2 GB (the reader must not trust a header's size).
  if "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/$t-" -print_final_stats=1 "${extra[@]}" "$work" "tests/fuzz/corpus/$t" \
    >"$build/fuzz-$t.log" 2>&1; then
    echo 0 >"$build/fuzz-$t.rc"
  else
    echo 1 >"$build/fuzz-$t.rc"
  fi
}
for t in "${targets[@]}"; do
  while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rm -f "$build/fuzz-$t.rc"
  echo "fuzz: $t for ${seconds}s"
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  log=$build/fuzz-$t.log
  if [ "$(cat "$build/fuzz-$t.rc" 2>/dev/null)" = 0 ]; then
    grep -E '^stat::number_of_executed_units|^Done' "$log" | sed "s/^/fuzz: $t: /"
  else
    status=1
    echo "fuzz: $t FAILED; the input is in $crashes; the report:" >&2
    grep -vE '^#[0-9]+|^INFO:' "$log" | tail -n 40 >&2
  fi
done
exit $status
