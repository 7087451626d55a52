#!/usr/bin/env bash
# make test's runner: CTest, with what CTest's own lines leave out. Each test's
# line (name, pass or skip, seconds) is CTest's, printed as the test ends;
# under it, the test's "SKIP: ..." lines (a test skipped whole, or parts of a
# passing one that this machine cannot run, each with its reason), which
# CTest shows only under -V. While no test ends for a minute, a line names
# those still running, so that the long ones (tests/CMakeLists.txt's costs
# start them first) do not read as a hang. At the end, each test skipped
# whole with its reason, and one line: how many passed, skipped and failed,
# and the seconds. The exit status is CTest's.
# HEAT2D_TEST_QUIET_S sets the minute (its test's).
# usage: run_tests.sh BUILD_DIR JOBS [CTEST ARGUMENT...]
set -uo pipefail
build=$1 jobs=$2
quiet=${HEAT2D_TEST_QUIET_S:-60}
poll=$((quiet < 15 ? 1 : 15))
shift 2
# CTest writes each test's output into its log only where the folder is,
# as each test ends into LastTest.log.tmp, renamed LastTest.log at the end.
mkdir -p "$build/Testing/Temporary"
log=$build/Testing/Temporary/LastTest.log
status=$(mktemp)
trap 'rm -f "$status"' EXIT

# skip_lines NAME FILE: the SKIP lines of NAME's output in CTest's log FILE,
# or in the finished log once CTest has renamed it (waited for a moment, in
# case CTest's console line came first).
skip_lines() {
  local k block="" file
  for k in 1 2 3 4 5 6 7 8 9 10; do
    file=$2
    [ -f "$file" ] || file=$log
    block=$(awk -v name="$1" '$0 ~ "^[0-9]+/[0-9]+ Test: " && $NF == name {on=1; next}
      on && /^<end of output>$/ {print "END"; exit} on' "$file" 2>/dev/null)
    [[ $block == *END ]] && break
    sleep 0.1
  done
  grep -E '^SKIP' <<<"$block" || true
}

start=$SECONDS quiet_since=$SECONDS
passed=0 skipped=0 failed=0 partial=0
declare -A running=()
skipped_names=()
while :; do
  if IFS= read -r -t "$poll" line; then
    echo "$line"
    quiet_since=$SECONDS
    if [[ $line =~ ^\ +Start\ +[0-9]+:\ (.+)$ ]]; then
      running[${BASH_REMATCH[1]}]=$SECONDS
    elif [[ $line =~ Test\ +#[0-9]+:\ ([^ ]+)\ .*(Passed|Skipped|Not\ Run|Failed|Timeout|Exception) ]]; then
      name=${BASH_REMATCH[1]} verdict=${BASH_REMATCH[2]}
      unset "running[$name]"
      reasons=$(skip_lines "$name" "$log.tmp")
      case $verdict in
      Passed)
        passed=$((passed + 1))
        [ -z "$reasons" ] || partial=$((partial + 1))
        ;;
      Skipped) skipped=$((skipped + 1)) ;;
      *) failed=$((failed + 1)) ;;
      esac
      [ "$verdict" != Skipped ] || skipped_names+=("$name")
      [ -z "$reasons" ] || sed 's/^/        /' <<<"$reasons"
    fi
  elif [ $? -gt 128 ]; then
    # No line for a while: say what is running.
    if [ $((SECONDS - quiet_since)) -ge "$quiet" ] && [ ${#running[@]} -gt 0 ]; then
      names=""
      for name in "${!running[@]}"; do names+=", $name ($((SECONDS - running[$name])) s)"; done
      echo "        still running: ${names#, }"
      quiet_since=$SECONDS
    fi
  else
    break
  fi
done < <(ctest --test-dir "$build" --output-on-failure -j "$jobs" "$@" 2>&1; echo $? >"$status")
rc=$(cat "$status")
# The tests skipped whole, each with its reason, from the finished log.
for name in "${skipped_names[@]}"; do
  reasons=$(skip_lines "$name" "$log" | sed 's/^SKIP: //' | paste -sd';' -)
  echo "skipped: $name: ${reasons:-the test printed no reason}"
done
with_parts=""
[ "$partial" -eq 0 ] || with_parts=" ($partial with parts skipped, said above)"
echo "tests: $passed passed$with_parts, $skipped skipped, $failed failed, in $((SECONDS - start)) s with $jobs jobs"
exit "${rc:-1}"
