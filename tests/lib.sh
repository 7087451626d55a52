# Assertions for heat2d's shell tests. Each test script sources this, runs
# commands with `run`, asserts on what they printed, and ends with `finish`.
set -u
passed=0
failed=0
skips_made=0
test_name=$(basename "$0" .sh)

# run CMD...: capture stdout in $out, stderr in $err, exit status in $rc.
run() {
  local o e
  o=$(mktemp) e=$(mktemp)
  set +e
  "$@" >"$o" 2>"$e"
  rc=$?
  set -e
  out=$(cat "$o") err=$(cat "$e")
  rm -f "$o" "$e"
}

ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect_rc WANT DESCRIPTION
expect_rc() { if [ "$rc" = "$1" ]; then ok; else ko "$2: exit $rc, want $1 (stderr: $err)"; fi; }
# expect_err_has TEXT DESCRIPTION: stderr contains TEXT (fixed string)
expect_err_has() { if grep -qF -- "$1" <<<"$err"; then ok; else ko "$2: stderr '$err' lacks '$1'"; fi; }
# expect_err_lines N DESCRIPTION: stderr is exactly N lines
expect_err_lines() {
  local n; n=$(printf '%s' "$err" | grep -c '' || true)
  if [ "$n" = "$1" ]; then ok; else ko "$2: stderr has $n lines, want $1: $err"; fi
}
# expect_failure RC MESSAGE CMD...: CMD exits RC and stderr is exactly the
# one line MESSAGE
expect_failure() {
  local want_rc=$1 want_err=$2
  shift 2
  run "$@"
  expect_rc "$want_rc" "$*"
  expect_eq "$err" "$want_err" "stderr of: $*"
}
# expect_out_has TEXT DESCRIPTION
expect_out_has() { if grep -qF -- "$1" <<<"$out"; then ok; else ko "$2: stdout lacks '$1'"; fi; }
expect_out_lacks() { if grep -qF -- "$1" <<<"$out"; then ko "$2: stdout has '$1'"; else ok; fi; }
# key NAME: the value of KEY=VALUE in $out (first match), blanks trimmed
key() { sed -n "s/^$1=//p" <<<"$out" | head -n 1 | tr -d ' '; }
# expect_eq GOT WANT DESCRIPTION
expect_eq() { if [ "$1" = "$2" ]; then ok; else ko "$3: got '$1', want '$2'"; fi; }
# expect_count PATTERN N DESCRIPTION: lines of stdout matching the regex
expect_count() {
  local n; n=$(grep -cE -- "$1" <<<"$out" || true)
  if [ "$n" = "$2" ]; then ok; else ko "$3: $n lines match '$1', want $2"; fi
}

# matplotlib_python: the python the bench would plot with (its own search:
# HEAT2D_PYTHON, else each python3 on PATH, then /usr/bin/python3), printed;
# nothing when none of them has matplotlib.
matplotlib_python() {
  local p candidates=()
  if [ -n "${HEAT2D_PYTHON:-}" ]; then
    candidates=("$HEAT2D_PYTHON")
  else
    local IFS=:
    for p in $PATH; do [ -n "$p" ] && candidates+=("$p/python3"); done
    candidates+=(/usr/bin/python3)
  fi
  for p in "${candidates[@]}"; do
    if [ -x "$p" ] && "$p" -c 'import matplotlib' 2>/dev/null; then echo "$p"; return; fi
  done
}

# skip WHAT REASON: WHAT is not run here, for REASON, a fact the test has
# checked (this build has no mpi-cpu, no python with matplotlib, not root):
# said on its own line, and counted in finish's.
skip() { skips_made=$((skips_made + 1)); echo "SKIP: $1: $2"; }
# have_method HEAT2D METHOD WHAT: true when the build's `heat2d methods`
# lists METHOD; otherwise WHAT is skipped, saying so.
have_method() {
  if "$1" methods | grep -q "^$2 "; then return 0; fi
  skip "$3" "this build has no $2"
  return 1
}
# is_sanitized HEAT2D: whether that build runs under a sanitizer (heat2d
# info's SANITIZE=), whose runs are several times slower and whose memory
# use is its own.
is_sanitized() { [ "$("$1" info | sed -n 's/^SANITIZE=//p')" != off ]; }
# no_leak_scan: the words before a command that run it without
# LeakSanitizer's scan at exit, which under the sanitizers is most of an
# MPI launch's time (its slow unwinder walks OpenMPI's start-up
# allocations to suppress them); a build without them ignores it.
no_leak_scan=(env "ASAN_OPTIONS=${ASAN_OPTIONS-}:detect_leaks=0")
# need_netcdf HEAT2D: a test that is all .nc files exits 77 (CTest's skip),
# saying why, when the build has no NetCDF.
need_netcdf() {
  if "$1" info | grep -q '^NETCDF=NetCDF'; then return 0; fi
  echo "SKIP: this build has no NetCDF (configure with HEAT2D_NETCDF=ON after installing libnetcdf-dev)"
  exit 77
}
# seed_programs_of HEAT2D WHAT: the seed-compatible programs the build has,
# in the array seed_programs: cpu_reference always, acc_each_step and
# acc_persistent with the OpenACC methods (otherwise WHAT is skipped for
# them, saying so).
seed_programs_of() {
  seed_programs=(cpu_reference)
  if have_method "$1" acc-each "$2 (acc_each_step, acc_persistent)"; then
    seed_programs+=(acc_each_step acc_persistent)
  fi
}
# have_matplotlib WHAT: true when some python the bench would plot with has
# matplotlib; otherwise WHAT is skipped, saying so.
have_matplotlib() {
  if [ -n "$(matplotlib_python)" ]; then return 0; fi
  skip "$1" "no python with matplotlib"
  return 1
}

# finish: the closing line, and the test's status: it fails when an
# assertion failed, and when none ran (a test that asserted nothing proves
# nothing; a whole test that cannot run here exits 77 with its reason).
finish() {
  local skips=""
  [ "$skips_made" -eq 0 ] || skips=", $skips_made skipped"
  echo "$test_name: $passed passed, $failed failed$skips"
  if [ $((passed + failed)) -eq 0 ]; then
    echo "FAIL: $test_name: no assertion ran" >&2
    return 1
  fi
  [ "$failed" -eq 0 ]
}
