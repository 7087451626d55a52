#!/usr/bin/env bash
# Ranks agree: ranks started with different settings (an MPMD launch,
# PROG A : PROG B) refuse together at start, with one line naming the first
# difference, instead of waiting for each other forever, and before
# anything is made; a method of one process is refused under mpirun, and
# so are bench and check (on one rank too), on every rank with one line;
# the launchers' variables count only under a launcher; a bench where MPI
# cannot start skips the MPI methods with a note.
# usage: test_ranks.sh BIN_DIR [MPIEXEC]
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
h=$bin/heat2d
mpiexec=${2:-mpirun}
if ! "$h" methods | grep -q '^mpi-cpu '; then
  echo "SKIP: this build has no mpi-cpu (configure with -DHEAT2D_MPI=ON)"; exit 77
fi
if ! command -v "$mpiexec" >/dev/null || ! "$mpiexec" --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
  echo "SKIP: no Open MPI launcher '$mpiexec' (its MPMD syntax and -q are used here)"; exit 77
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
launch=(timeout 60 "$mpiexec" -q --oversubscribe)
base=(run --method mpi-cpu --nx 20 --ny 20 --steps 10)
r() { echo "heat2d: run: $*"; }
disagree() { echo "$1: the ranks were started with different settings: rank $2 has $3, rank 0 $4 (every rank must run the same command)"; }

# ---- MPMD: the first difference, named on rank 0, every rank refusing ------------------------
# mpmd WHAT WANT ARGS-OF-RANK-1...: rank 0 runs base, rank 1 base + ARGS
mpmd() {
  local what=$1 want=$2
  shift 2
  run "${launch[@]}" -np 1 "$h" "${base[@]}" : -np 1 "$h" "$@"
  expect_rc 1 "$what: refused, no deadlock"
  expect_eq "$err" "$want" "$what: one line naming the difference"
  expect_eq "$out" "" "$what: nothing run"
}
# Under the sanitizers, where each rank takes a second or two to start and
# end, the differences worded by the same code as --steps (another grid,
# another depth, a second difference after the first) are left to the
# plain build.
sanitized=false
is_sanitized "$h" && sanitized=true
# The launches check memory errors without the leak scan
# (${no_leak_scan[@]}), but for the three ranks that disagree below, whose
# refusal keeps it.
leak_launch=("${launch[@]}")
launch=("${no_leak_scan[@]}" "${launch[@]}")
mpmd "--steps 7 on rank 1" "$(r "$(disagree mpi-cpu 1 "--steps 7" "--steps 10")")" "${base[@]}" --steps 7
$sanitized ||
  mpmd "another grid on rank 1" "$(r "$(disagree mpi-cpu 1 "--nx 21" "--nx 20")")" "${base[@]}" --nx 21
mpmd "another alpha on rank 1" "$(r "$(disagree mpi-cpu 1 "--alpha 0.2" "--alpha 0.1")")" "${base[@]}" --alpha 0.2
mpmd "another precision on rank 1" "$(r "$(disagree mpi-cpu 1 "--precision f32" "--precision f64")")" \
  "${base[@]}" --precision f32
$sanitized ||
  mpmd "another halo depth on rank 1" "$(r "$(disagree mpi-cpu 1 "--halo-depth 2" "--halo-depth 1")")" \
    "${base[@]}" --halo-depth 2
# Physical units label rank 0's files; --force decides what rank 0 replaces.
mpmd "--dx on rank 1 only" "$(r "$(disagree mpi-cpu 1 "--dx 2" "no --dx")")" "${base[@]}" --dx 2
$sanitized ||
  mpmd "another --dt on rank 1" "$(r "$(disagree mpi-cpu 1 "--dt 0.5" "no --dt")")" "${base[@]}" --dt 0.5
$sanitized ||
  mpmd "--force on rank 1 only" "$(r "$(disagree mpi-cpu 1 "--force" "no --force")")" "${base[@]}" --force
mpmd "snapshots on rank 1 only" "$(r "$(disagree mpi-cpu 1 "--output-every 5" "no --output-every")")" \
  "${base[@]}" --output-every 5
$sanitized ||
  mpmd "two differences: the first is named" "$(r "$(disagree mpi-cpu 1 "--ny 30" "--ny 20")")" \
    "${base[@]}" --ny 30 --steps 3
mpmd "cpu on rank 1" "$(r "$(disagree mpi-cpu 1 "--method cpu" "--method mpi-cpu")")" \
  run --method cpu --nx 20 --ny 20 --steps 10
# What the ranks write: rank 0 alone writes, so a rank 1 with another
# --save, --save-every or --snapshot-writer would go unwritten. Refused
# before anything is made (a snapshot folder, a scratch folder), in a
# folder of their own with a TMPDIR of their own, both left empty.
# outputs WHAT WANT RANK-0-ARGS... -- RANK-1-ARGS...: base + each
outputs() {
  local what=$1 want=$2 zero=() one=()
  shift 2
  while [ "$1" != -- ]; do zero+=("$1"); shift; done
  shift
  one=("$@")
  mkdir "$w/outputs" "$w/outputs-tmp"
  cd "$w/outputs"
  run env TMPDIR="$w/outputs-tmp" "${launch[@]}" -np 1 "$h" "${base[@]}" ${zero[@]+"${zero[@]}"} : \
    -np 1 "$h" "${base[@]}" "${one[@]}"
  cd "$w"
  expect_eq "$rc/$err/$out" "1/$want/" "$what: refused in one line, nothing run"
  expect_eq "$(find "$w/outputs" "$w/outputs-tmp" -mindepth 1)" "" \
    "$what: nothing made"
  rm -rf "$w/outputs" "$w/outputs-tmp"
}
outputs "another --save-every on rank 1" \
  "$(r "$(disagree mpi-cpu 1 "--save-every b" "--save-every a")")" \
  --output-every 5 --save-every a -- --output-every 5 --save-every b
if ! $sanitized; then
  outputs "--save on rank 1 only" "$(r "$(disagree mpi-cpu 1 "--save b.dat" "no --save")")" \
    -- --save b.dat
  outputs "--snapshot-writer on rank 1 only" \
    "$(r "$(disagree mpi-cpu 1 "--snapshot-writer text" "no --snapshot-writer")")" \
    --output-every 5 -- --output-every 5 --snapshot-writer text
fi
# Three ranks, the odd one last: named by its rank.
run "${leak_launch[@]}" -np 2 "$h" "${base[@]}" : -np 1 "$h" "${base[@]}" --steps 11
expect_rc 1 "rank 2 of 3 differs"
expect_eq "$err" "$(r "$(disagree mpi-cpu 2 "--steps 11" "--steps 10")")" "rank 2 of 3 differs: named"
# Agreeing ranks run as before.
run "${launch[@]}" -np 1 "$h" "${base[@]}" : -np 1 "$h" "${base[@]}"
expect_rc 0 "an MPMD launch of one command twice: it runs"
expect_eq "$(key NX)/$(key STEPS)" "20/10" "an MPMD launch of one command twice: one report"

# ---- what runs as one process is refused under mpirun ----------------------------------------
expect_failure 1 "$(r "cpu runs as one process: start it without mpirun")" \
  "${launch[@]}" -np 2 "$h" run --method cpu --nx 20 --ny 20 --steps 10
run "${launch[@]}" -np 2 "$h" bench --methods cpu --sizes 8x8:1 --repeats 1 --warmups 0 --out "$w/bench"
expect_rc 1 "bench under mpirun -np 2"
expect_eq "$err" "heat2d: bench: runs as one process (it starts mpirun itself for --ranks); start it without mpirun" \
  "bench under mpirun: one line for both ranks"
expect_eq "$(ls -d "$w/bench" 2>/dev/null || echo none)" none "bench under mpirun: no folder made"
run "${launch[@]}" -np 3 "$h" bench --methods cpu --sizes 8x8:1 --repeats 1 --warmups 0 --out "$w/bench"
# (Open MPI's own "[warn] Epoll ..." when a job ends early is not heat2d's:
# tests/test_mpi.sh sets it aside too.)
expect_eq "$rc/$(grep -v '^\[warn\] Epoll ' <<<"$err" || true)" \
  "1/heat2d: bench: runs as one process (it starts mpirun itself for --ranks); start it without mpirun" \
  "bench under mpirun -np 3: refused, one line"
expect_failure 1 "heat2d: check: runs as one process; start it without mpirun" "${launch[@]}" -np 2 "$h" check
# The one rank of mpirun -np 1 too: check and bench start MPI themselves
# (check's probe in a child, then check itself; the bench's trials), each
# with that rank's identity, which MPI refuses with pages and an abort.
# One line, and nothing left in TMPDIR.
mkdir "$w/np1-tmp"
run env TMPDIR="$w/np1-tmp" "${launch[@]}" -np 1 "$h" check
expect_eq "$rc/$err/$out" "1/heat2d: check: runs as one process; start it without mpirun/" \
  "check under mpirun -np 1: refused in one line"
expect_eq "$(find "$w/np1-tmp" -mindepth 1)" "" "check under mpirun -np 1: nothing left in TMPDIR"
run env TMPDIR="$w/np1-tmp" "${launch[@]}" -np 1 "$h" bench --methods cpu --sizes 8x8:1 --repeats 1 \
  --warmups 0 --out "$w/bench"
expect_eq "$rc/$err" \
  "1/heat2d: bench: runs as one process (it starts mpirun itself for --ranks); start it without mpirun" \
  "bench under mpirun -np 1: refused in one line"
expect_eq "$(find "$w/np1-tmp" "$w/bench" -mindepth 1 2>/dev/null)" "" "bench under mpirun -np 1: nothing made"

# ---- the launchers' variables count only under a launcher ------------------------------------
for vars in "PMI_RANK=1 PMI_SIZE=2" "OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_SIZE=4" "PMIX_RANK=1"; do
  # shellcheck disable=SC2086 # one word a variable
  run env $vars "$h" run --method cpu --nx 4 --ny 5 --steps 1
  expect_eq "$rc/$err" "2/$(r "nx and ny must be >= 5")" "$vars inherited: a serial run's error line is printed"
  # shellcheck disable=SC2086
  run env $vars "$h" run --method cpu --nx 5 --ny 5 --steps 1
  expect_eq "$rc/$(key NX)" "0/5" "$vars inherited: a serial run runs and reports"
done
run env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=0 HEAT2D_PYTHON=false "$h" bench --methods cpu \
  --sizes 8x8:1 --repeats 1 --warmups 0 --out "$w/inherited"
expect_rc 0 "OMPI_COMM_WORLD_SIZE=4 inherited: bench runs"
# check goes on past its mpirun refusal, to the next thing it checks.
expect_failure 1 "heat2d: check: cannot write to '$w/no/such': No such file or directory" \
  env OMPI_COMM_WORLD_SIZE=4 PMI_SIZE=3 "$h" check --keep "$w/no/such"

# ---- a bench where MPI cannot start: the MPI methods skipped, with a note --------------------
# As on a machine without ssh or rsh (OpenMPI's remote launcher, which even
# a single process's daemon needs unless OMPI_MCA_plm=isolated): one probe,
# the MPI methods left out, the note with the reason and the fix on stdout
# and in summary.md; asked for alone, nothing is left to run.
down=(env -u OMPI_MCA_plm OMPI_MCA_plm_rsh_agent=/nonexistent/agent HEAT2D_PYTHON=false "$h" bench
  --sizes 8x8:1 --repeats 1 --warmups 0)
note_tail="the MPI methods (mpi-cpu) are skipped; with OpenMPI and no ssh/rsh, set OMPI_MCA_plm=isolated"
run "${down[@]}" --methods cpu,mpi-cpu --out "$w/mpi-down"
expect_rc 0 "bench --methods cpu,mpi-cpu where MPI cannot start"
note=$(grep '^NOTE: MPI could not start (' <<<"$out" || true)
if [[ $note == "NOTE: MPI could not start ("?*"): $note_tail." ]]; then ok
else ko "bench where MPI cannot start: the note '$note' lacks its reason or '$note_tail.'"; fi
if "$h" info | grep -q '^MPI=.*OpenRTE) 4\.1\.'; then
  expect_eq "$note" "NOTE: MPI could not start (ompi_mpi_init: ompi_rte_init failed: Returned \"Unable to start a daemon on the local node\" (-127) instead of \"Success\" (0)): $note_tail." \
    "bench where MPI cannot start: OpenMPI 4.1's reason"
fi
expect_eq "$(grep -cxF -- "- ${note#NOTE: }" "$w/mpi-down/summary.md" || true)" 1 \
  "bench where MPI cannot start: the note in summary.md"
expect_eq "$(cut -d, -f1 "$w/mpi-down/trials.csv" | sort -u | paste -sd' ' -)" "cpu method" \
  "bench where MPI cannot start: cpu measured, mpi-cpu not"
run "${down[@]}" --methods mpi-cpu --ranks 1,2 --out "$w/mpi-down-alone"
expect_eq "$rc/$err" "1/heat2d: bench: nothing left to run: $(sed "s/^NOTE: //; s/\.$//" <<<"$note")" \
  "bench --methods mpi-cpu where MPI cannot start: nothing left to run, one line"
expect_eq "$(ls -d "$w/mpi-down-alone" 2>/dev/null || echo none)" none \
  "bench --methods mpi-cpu where MPI cannot start: no folder made"

# ---- a rank count that cannot split a size: refused before mpirun starts ------------------------
for spec in "100:8x8:1" "7:5x5:1" "11:128x10:3,10x10:1"; do
  p=${spec%%:*} sizes=${spec#*:}
  run "$h" bench --methods mpi-cpu --ranks "1,$p" --sizes "$sizes" --out "$w/refused_$p"
  expect_rc 2 "bench --ranks 1,$p --sizes $sizes"
  expect_err_lines 1 "bench --ranks $p: one line"
  expect_err_has "heat2d: bench: --ranks: $p ranks cannot split a " "bench --ranks $p names the grid"
  expect_eq "$([ -e "$w/refused_$p" ] && echo made)" "" "bench --ranks $p: refused before its folder is made"
done
expect_failure 2 "heat2d: bench: --ranks: 100 ranks cannot split a 8x8 grid (no PXxPY = 100 with PX <= 8 and PY <= 8); run with fewer ranks" \
  "$h" bench --methods mpi-cpu --ranks 100 --sizes 8x8:1 --out "$w/refused"

finish
