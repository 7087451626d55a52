#!/usr/bin/env bash
# The tests' own helpers: a test that made no assertion fails, saying so (a
# test that asserted nothing proves nothing), in tests/lib.sh's finish and
# in tests/unit/unit_check.h's unit_finish alike; a skip is printed with
# its reason and counted; one failed assertion fails the test.
# usage: test_helpers.sh UNIT_CHECK_DEMO
set -e
. "$(dirname "$0")/lib.sh"
demo=$1
lib=$(cd "$(dirname "$0")" && pwd)/lib.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# script NAME BODY: a test script that sources lib.sh, runs BODY, finishes.
script() {
  printf '#!/usr/bin/env bash\nset -e\n. %q\n%s\nfinish\n' "$lib" "$2" >"$w/$1.sh"
  chmod +x "$w/$1.sh"
}

# ---- tests/lib.sh -------------------------------------------------------------------
script empty ''
run "$w/empty.sh"
expect_eq "$rc/$out/$err" "1/empty: 0 passed, 0 failed/FAIL: empty: no assertion ran" \
  "a script with no assertion fails, and says why"
script skips_only 'skip "the GPU part" "no GPU"'
run "$w/skips_only.sh"
expect_eq "$rc/$out/$err" \
  "1/SKIP: the GPU part: no GPU"$'\n'"skips_only: 0 passed, 0 failed, 1 skipped/FAIL: skips_only: no assertion ran" \
  "a script that only skipped fails: the skip said, the line counts it"
script one_pass 'expect_eq 1 1 "one"'
run "$w/one_pass.sh"
expect_eq "$rc/$out/$err" "0/one_pass: 1 passed, 0 failed/" "one assertion that holds: the script passes"
script one_fail 'expect_eq 1 2 "one"; expect_eq 1 1 "two"'
run "$w/one_fail.sh"
expect_eq "$rc/$out/$err" "1/one_fail: 1 passed, 1 failed/FAIL: one: got '1', want '2'" \
  "one assertion that fails: the script fails, naming it"

# have_method: the build's `heat2d methods` decides, and a method it lacks
# is a skip, said.
printf '#!/bin/sh\n[ "$1" = methods ] && printf "cpu      a\\nomp      b\\n"\n' >"$w/heat2d"
chmod +x "$w/heat2d"
script methods "have_method $(printf %q "$w/heat2d") omp 'omp part' && expect_eq 1 1 omp
have_method $(printf %q "$w/heat2d") acc-each 'the acc part' || expect_eq 1 1 no-acc"
run "$w/methods.sh"
expect_eq "$rc/$out" "0/SKIP: the acc part: this build has no acc-each"$'\n'"methods: 2 passed, 0 failed, 1 skipped" \
  "have_method: a method the build has runs its part; one it lacks is a skip, said"

# ---- tests/unit/unit_check.h --------------------------------------------------------
run "$demo" none
expect_eq "$rc/$out/$err" "1/unit_check_demo: 0 passed, 0 failed/FAIL: unit_check_demo: no assertion ran" \
  "a unit test with no assertion fails, and says why"
run "$demo" skip
expect_eq "$rc/$out/$err" \
  "1/SKIP: the GPU part: no GPU"$'\n'"unit_check_demo: 0 passed, 0 failed, 1 skipped/FAIL: unit_check_demo: no assertion ran" \
  "a unit test that only skipped fails"
run "$demo" pass
expect_eq "$rc/$out/$err" "0/unit_check_demo: 1 passed, 0 failed/" "a unit test whose assertion holds passes"
run "$demo" fail
expect_eq "$rc/$out/$err" "1/unit_check_demo: 0 passed, 1 failed/FAIL: one that does not hold" \
  "a unit test whose assertion fails fails"
finish
