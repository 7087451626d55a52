#!/usr/bin/env bash
# Bad input: one clear line on stderr, a non-zero exit, never a crash.
# usage: test_cli_errors.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

seed_rejects() { # ARGS... -- TEXT
  local text=${!#}
  local args=("${@:1:$#-1}")
  for prog in cpu_reference acc_each_step acc_persistent; do
    [ -x "$bin/$prog" ] || continue
    run "$bin/$prog" "${args[@]}"
    expect_rc 1 "$prog ${args[*]}"
    expect_err_has "$text" "$prog ${args[*]}"
    expect_err_lines 1 "$prog ${args[*]}"
    expect_eq "$out" "" "$prog ${args[*]} prints nothing on stdout"
  done
}

seed_rejects abc "nx must be a positive integer, got 'abc'"
seed_rejects 64 -3 "ny must be a positive integer, got '-3'"
seed_rejects 64 64 0 "steps must be a positive integer, got '0'"
seed_rejects 64x "nx must be a positive integer, got '64x'"
seed_rejects " 64" "nx must be a positive integer, got ' 64'"
seed_rejects +64 "nx must be a positive integer, got '+64'"
seed_rejects 64 64 1.5 "steps must be a positive integer, got '1.5'"
seed_rejects "" "nx must be a positive integer, got ''"
seed_rejects 4 64 "nx and ny must be >= 5"
seed_rejects 64 4 "nx and ny must be >= 5"
seed_rejects 18446744073709551616 "nx is too large: '18446744073709551616'"
seed_rejects 9223372036854775808 9223372036854775808 "overflows"
seed_rejects 2147483648 64 "more than this machine's"
seed_rejects 64 64 5 "" "field_path must not be empty"
seed_rejects 1 2 3 4 5 "usage:"
seed_rejects 25 21 3 "$scratch/no/such/dir/f.dat" "cannot write field file '$scratch/no/such/dir/f.dat': No such file or directory"

# A failed field write leaves no file, not even a temporary one.
run "$bin/cpu_reference" 25 21 3 "$scratch/no/such/dir/f.dat"
expect_eq "$(ls -A "$scratch")" "" "no file left after a failed write"

h=$bin/heat2d
run "$h"; expect_rc 2 "heat2d without a command"
run "$h" frobnicate; expect_rc 2 "unknown command"; expect_err_has "unknown command 'frobnicate'" "unknown command"
run "$h" run --method nope; expect_rc 2 "unknown method"; expect_err_has "unknown method 'nope'" "unknown method"; expect_err_lines 1 "unknown method"
run "$h" run; expect_rc 2 "run without a method"; expect_err_has "--method is required" "run without a method"
run "$h" run --method cpu --nx 0; expect_rc 2 "--nx 0"; expect_err_has "--nx must be a positive integer, got '0'" "--nx 0"
run "$h" run --method cpu --steps; expect_rc 2 "--steps without a value"; expect_err_has "unknown or incomplete option" "--steps without a value"
run "$h" run --method cpu --bogus; expect_rc 2 "unknown option"; expect_err_has "'--bogus'" "unknown option"
run "$h" run --method cpu --nx 10 extra; expect_rc 2 "extra argument"; expect_err_has "unexpected argument 'extra'" "extra argument"
run "$h" run --method cpu --save ""; expect_rc 2 "empty --save"
run "$h" compare a; expect_rc 2 "compare with one file"; expect_err_has "usage" "compare with one file"
run "$h" compare a b --atol -1; expect_rc 2 "negative atol"; expect_err_has "--atol must be a non-negative number, got '-1'" "negative atol"
run "$h" compare a b --rtol nan; expect_rc 2 "nan rtol"; expect_err_has "--rtol must be a non-negative number" "nan rtol"
run "$h" compare "$scratch/missing.dat" "$scratch/missing.dat"; expect_rc 1 "missing file"; expect_err_has "missing.dat" "missing file"; expect_err_lines 1 "missing file"
run "$h" check --keep "$scratch/no/such"; expect_rc 1 "check into a missing directory"; expect_err_has "cannot write to" "check --keep missing"

finish
