#!/usr/bin/env bash
# heat2d check: the original's CPU check plus the invariants.
# usage: test_check.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# The CPU check compares every method that runs without a GPU with cpu, and
# runs the invariants on all of them, cpu included.
# (Every method with "cuda" in its name needs a GPU: cuda-*, mpi-cuda.)
n_methods=$("$bin/heat2d" methods | awk '$1 !~ /cuda/' | wc -l)
n_compared=$((n_methods - 1))
# (--keep's folder has a newline in its name: its FILE= lines escape it,
# and it forges no line of its own)
keep=$w/$'k\nFORGED=1'
mkdir "$keep"
run "$bin/heat2d" check --keep "$keep"
expect_rc 0 "check"
expect_eq "$(grep -c '^FORGED=' <<<"$out" || true)" 0 "check --keep: a name forges no line"
expect_count "^FILE=$w/k\\\\nFORGED=1/[a-z0-9-]+_25x21_[0-9]+\\.dat DEVICE=" $((4 * n_compared)) \
  "check --keep: the folder's name escaped in every FILE= line"
expect_eq "$(tail -n 1 <<<"$out")" "CPU_CHECK=PASS" "verdict"
expect_count '^COMPARE=PASS case=25x21/(7|8|31|32)$' 4 "four cases compared"
expect_count '^FILE=.* FAILURES=0$' $((4 * n_compared)) "every method compared in every case"
expect_count '^INVARIANT=sine-mode .* PASS$' $((2 * n_methods)) "sine modes"
expect_count '^INVARIANT=mass .* PASS$' "$n_methods" "mass"
expect_count '^INVARIANT=symmetry .* I_MIRROR_BREAKS=0 .* PASS$' "$n_methods" "symmetry"
expect_count ' FAIL$' 0 "no failure"
expect_eq "$(ls "$keep" | wc -l | tr -d ' ')" "$((4 * n_methods))" "fields kept with --keep"
# Snapshots: every non-distributed method that takes them but cpu (the
# reference) at K = 1, 7, 5, 31 on 25x21/31 and K = 7, 17 on 40x17/17, each
# snapshot at its step and equal to cpu's field after it; acc-resident's
# and omp-target-resident's each with the invariants their reductions
# found, as a scan here finds them (those two where the check ran them);
# omp's scanned on the host (no device statistics).
n_snap=$(grep -cE '^FILE=.*/(acc|omp-target)-resident_25x21_7\.dat ' <<<"$out" || true)
n_host_snap=$("$bin/heat2d" methods | awk '$1 == "omp"' | wc -l)
expect_count '^SNAPSHOTS method=.* copy=plain .* FAILURES=0 DEVICE_STATS=([1-9][0-9]*)/\1 STATS_MISMATCH=0 PASS$' $((6 * n_snap)) "snapshots checked"
expect_count '^SNAPSHOTS method=omp copy=plain .* FAILURES=0 DEVICE_STATS=0/0 STATS_MISMATCH=0 PASS$' \
  $((6 * n_host_snap)) "omp's snapshots checked"
expect_count '^SNAPSHOTS .* grid=25x21 steps=31 K=5 SNAPSHOTS=7/7 MAX_ABS_DIFF=0\.000000e\+00 ' \
  "$((n_snap + n_host_snap))" "K=5 on 31 steps: 7 snapshots, the last after step 31, bit for bit"

# check --precision f32: every method in f32 (cpu included) against cpu's
# f64 field within the stated bound, each line with the bound and the
# observed difference; the invariants with tolerances widened by the bound.
run "$bin/heat2d" check --precision f32
expect_rc 0 "check --precision f32"
expect_eq "$(tail -n 1 <<<"$out")" "CPU_CHECK=PASS" "f32 verdict"
expect_count '^COMPARE=PASS case=25x21/(7|8|31|32)$' 4 "f32: four cases compared"
expect_count '^FILE=.* PRECISION=f32 BOUND=.* FAILURES=0$' $((4 * n_methods)) \
  "f32: every method, cpu included, in every case"
expect_count '^FILE=.*-f32_25x21_7\.dat .* BOUND=2\.980232e-06 MAX_ABS_DIFF=[1-9]' "$n_methods" \
  "f32 at 7 steps: bound (1+7*7)*2^-24, a non-zero difference"
expect_count '^INVARIANT=sine-mode method=[a-z-]*-f32 .* PASS$' $((2 * n_methods)) "f32 sine modes"
expect_count '^INVARIANT=mass method=[a-z-]*-f32 .* PASS$' "$n_methods" "f32 mass"
expect_count '^INVARIANT=symmetry method=[a-z-]*-f32 .* I_MIRROR_BREAKS=0 .* PASS$' "$n_methods" \
  "f32 symmetry"
expect_count ' FAIL$' 0 "f32: no failure"

# The environment, before anything starts: a TMPDIR check (and MPI, for
# its session directory) cannot use is one line naming it, exit 1, nothing
# run, nothing made. (A read-only directory only when not root, whose
# writes the permission bits do not stop.)
tmp_fail() { # DIR REASON
  run env TMPDIR="$1" "$bin/heat2d" check
  expect_rc 1 "check with TMPDIR=$1"
  expect_eq "$err" "heat2d: check: TMPDIR '$1' is not a usable directory: $2" "TMPDIR=$1: the line"
  expect_eq "$out" "" "TMPDIR=$1: nothing run"
}
tmp_fail "$w/missing" "No such file or directory"
expect_eq "$(ls -d "$w/missing" 2>/dev/null)" "" "a missing TMPDIR is not made"
echo "keep me" >"$w/file"
tmp_fail "$w/file" "Not a directory"
expect_eq "$(cat "$w/file")" "keep me" "a TMPDIR that is a file is left as it was"
rm "$w/file"
if [ "$(id -u)" != 0 ]; then
  mkdir "$w/ro" && chmod 555 "$w/ro"
  tmp_fail "$w/ro" "Permission denied"
  chmod 755 "$w/ro" && rmdir "$w/ro"
else
  skip "a read-only TMPDIR" "root, whom permission bits do not stop"
fi
# One that refuses every new folder whatever the permission bits say, which
# root's access() passes: sysfs (mkdir there fails even for root).
if [ -d /sys/kernel ] && ! why=$(LC_ALL=C mkdir /sys/kernel/heat2d-probe 2>&1); then
  tmp_fail /sys/kernel "${why##*: }"
  expect_eq "$(ls -d /sys/kernel/heat2d-* 2>/dev/null)" "" "nothing made in a TMPDIR that refuses folders"
else
  skip "a TMPDIR that refuses every folder" "no /sys/kernel that refuses mkdir here"
fi
# A usable TMPDIR holds check's scratch directory while it runs, and
# nothing once it is done.
mkdir "$w/tmp"
run env TMPDIR="$w/tmp" "$bin/heat2d" check
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/CPU_CHECK=PASS" "check with its own TMPDIR"
expect_count "^FILE=$w/tmp/heat2d-check-[1-9][0-9]*-[A-Za-z0-9]{6}/" $((4 * n_compared)) \
  "the fields were written under TMPDIR, in a folder named by the check's pid"
expect_eq "$(ls -A "$w/tmp" | grep -c heat2d-check || true)" 0 "the scratch directory is gone"
rm -rf "$w/tmp"

# An MPI that cannot start is an optional part missing, not a failed
# check: a probe in a child finds it before any method runs, and the MPI
# methods are skipped with one note line beside the verdict that names the
# reason and the fix. Broken here as a machine without ssh or rsh is (the
# remote launcher's agent not found: OMPI_MCA_plm=isolated is the fix),
# and through OpenMPI's own session directory (orte_tmpdir_base, past the
# TMPDIR check: a file), whose fix is to read MPI's own report. (Without
# its point-to-point layer, pml, the dying process hands its report to its
# daemon, which under load loses some of it: there only the note's frame
# is asserted, and only in the plain build.)
if ! have_method "$bin/heat2d" mpi-cpu "an MPI that cannot start"; then
  : # said
elif ! "$bin/heat2d" info | grep -q '^MPI=.*OpenRTE'; then
  skip "an MPI that cannot start" "the MPI is not OpenMPI (OpenRTE), whose settings break it here"
else
  mpi_methods=$("$bin/heat2d" methods | awk '$1 ~ /^mpi-/ && $1 !~ /cuda/ {print $1}')
  n_mpi=$(grep -c . <<<"$mpi_methods")
  skipped="the MPI methods ($(paste -sd, - <<<"$mpi_methods" | sed 's/,/, /g')) are skipped"
  isolated="with OpenMPI and no ssh/rsh, set OMPI_MCA_plm=isolated"
  report="\`heat2d run --method mpi-cpu --nx 8 --ny 8 --steps 1\` prints MPI's whole report"
  # OpenMPI 4.1 words both failures below alike: its singleton's daemon
  # did not start.
  reason=""
  "$bin/heat2d" info | grep -q '^MPI=.*OpenRTE) 4\.1\.' &&
    reason='ompi_mpi_init: ompi_rte_init failed: Returned "Unable to start a daemon on the local node" (-127) instead of "Success" (0)'
  # mpi_down WHAT FIX ENV...: check with MPI broken by ENV passes without
  # the MPI methods, the note the line before its verdict, with the reason
  # (OpenMPI 4.1's, where known) and FIX
  mpi_down() {
    local what=$1 fix=$2 note
    shift 2
    run env -u OMPI_MCA_plm "$@" "$bin/heat2d" check
    expect_eq "$rc/$err" "0/" "check with $what: passes, nothing on stderr"
    expect_eq "$(tail -n 1 <<<"$out")" "CPU_CHECK=PASS" "check with $what: the verdict"
    expect_count '^NOTE: ' 1 "check with $what: one note"
    note=$(tail -n 2 <<<"$out" | head -n 1)
    if [ -n "$reason" ] && [ "$what" != "no point-to-point layer" ]; then
      expect_eq "$note" "NOTE: check: MPI could not start ($reason): $skipped; $fix" \
        "check with $what: the note, the reason and the fix"
    elif [[ $note == "NOTE: check: MPI could not start ("?*"): $skipped; $fix" ]]; then ok
    else ko "check with $what: the note '$note' lacks its reason or '$skipped; $fix'"; fi
    expect_count '^(FILE|INVARIANT|TRANSFERS|SNAPSHOTS).*mpi-' 0 "check with $what: no MPI method run"
    expect_count '^FILE=.* FAILURES=0$' $((4 * (n_compared - n_mpi))) \
      "check with $what: every other method compared"
  }
  mpi_down "no ssh or rsh" "$isolated" OMPI_MCA_plm_rsh_agent=/nonexistent/agent
  echo "not a directory" >"$w/file"
  mpi_down "OpenMPI's session directory a file" "$report" "OMPI_MCA_orte_tmpdir_base=$w/file"
  expect_eq "$(cat "$w/file")" "not a directory" "the file is left as it was"
  rm "$w/file"
  if ! is_sanitized "$bin/heat2d"; then
    mpi_down "no point-to-point layer" "$report" OMPI_MCA_pml=nonexistent
  fi
fi

# check --gpu fails where a method that needs a GPU cannot have one (no GPU
# here) or computes wrongly; a GPU method this build puts on the host is
# checked there and says why; a build with no method that needs a GPU is
# checked on the host, and says so.
run env -u ACC_DEVICE_TYPE -u OMP_TARGET_OFFLOAD "$bin/heat2d" check --gpu
on_host_unexplained=$(grep -E '^FILE=.*/(acc-|omp-target-|cuda-|mpi-cuda)[^/]* DEVICE=host( |$)' <<<"$out" |
  grep -vE 'DEVICE=host \((OpenACC built for the host|ACC_DEVICE_TYPE=host|OMP_TARGET_OFFLOAD=DISABLED)\)' || true)
expect_eq "$on_host_unexplained" "" "check --gpu: a GPU method on the host says why"
needs_gpu=$("$bin/heat2d" methods | awk '$1 ~ /^(cuda-|mpi-cuda|omp-target-)/' | head -n 1)
[ "$("$bin/heat2d" info | sed -n 's/^OPENACC=//p')" = "nvptx offload" ] && needs_gpu=acc
if [ -z "$needs_gpu" ]; then
  expect_rc 0 "check --gpu, no method that needs a GPU"
  expect_out_has "NOTE: check --gpu: no method of this build runs on a GPU (" "check --gpu: says why it checks on the host"
  expect_out_has "CPU_CHECK=PASS" "check --gpu: the host verdict"
elif nvidia-smi -L >/dev/null 2>&1; then
  expect_rc 0 "check --gpu with a GPU"
  expect_out_has "GPU_CHECK=PASS" "check --gpu passes with a GPU"
else
  expect_rc 1 "check --gpu without a GPU"
  expect_err_has "GPU_CHECK=FAIL" "check --gpu verdict"
fi

finish
