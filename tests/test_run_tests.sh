#!/usr/bin/env bash
# make test's runner (tools/run_tests.sh) on a CTest project of its own:
# each test's line as it ends, the reason under a test skipped whole and
# under a passing test that skipped a part, a line naming a test still
# running after a quiet spell, the closing count, and CTest's exit status.
# usage: test_run_tests.sh SOURCE_DIR
set -e
runner=$(cd "$1" && pwd)/tools/run_tests.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cat >"$w/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(runner_demo LANGUAGES NONE)
enable_testing()
add_test(NAME fine COMMAND sh -c "echo fine: 3 passed, 0 failed")
add_test(NAME part COMMAND sh -c "echo 'SKIP: the widget case: no widget here'; echo part: 1 passed")
add_test(NAME whole COMMAND sh -c "echo 'SKIP: no gadget (install gadget-dev)'; exit 77")
add_test(NAME mute COMMAND sh -c "exit 77")
add_test(NAME slow COMMAND sh -c "sleep 4")
set_tests_properties(whole mute PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(slow PROPERTIES COST 100)
EOF
cmake -S "$w" -B "$w/build" >/dev/null </dev/null

run env HEAT2D_TEST_QUIET_S=2 "$runner" "$w/build" 2
expect_rc 0 "the runner exits as CTest does when nothing failed"
for name in fine part whole mute slow; do
  expect_count "^[0-9]+/5 Test +#[0-9]+: $name " 1 "a line as $name ends"
done
expect_eq "$(grep -A1 -E 'Test +#[0-9]+: whole ' <<<"$out" | tail -n 1)" \
  "        SKIP: no gadget (install gadget-dev)" "a test skipped whole: its reason under its line"
expect_eq "$(grep -A1 -E 'Test +#[0-9]+: part ' <<<"$out" | tail -n 1)" \
  "        SKIP: the widget case: no widget here" "a passing test's skipped part, under its line"
expect_out_has "skipped: whole: no gadget (install gadget-dev)" "the skipped tests again at the end, with their reasons"
expect_out_has "skipped: mute: the test printed no reason" "a skip without a reason is said to be one"
expect_count '^        still running: slow \([0-9]+ s\)$' 1 "a quiet spell names the test still running"
expect_eq "$(tail -n 1 <<<"$out")" \
  "tests: 3 passed (1 with parts skipped, said above), 2 skipped, 0 failed, in $(sed -n 's/.* in \([0-9]*\) s with 2 jobs$/\1/p' <<<"$out" | tail -n 1) s with 2 jobs" \
  "the closing count"

# A failure: CTest's output for it, the count, a failing status.
cat >>"$w/CMakeLists.txt" <<'EOF'
add_test(NAME broken COMMAND sh -c "echo 'FAIL: the value is 3, want 4' >&2; exit 1")
EOF
cmake -S "$w" -B "$w/build" >/dev/null </dev/null
run "$runner" "$w/build" 2 -R 'fine|broken'
expect_rc 8 "the runner exits as CTest does when a test failed"
expect_out_has "FAIL: the value is 3, want 4" "a failed test's output is shown"
expect_eq "$(tail -n 1 <<<"$out" | sed 's/, in [0-9]* s/, in N s/')" \
  "tests: 1 passed, 0 skipped, 1 failed, in N s with 2 jobs" "the closing count of a failing run"
finish
