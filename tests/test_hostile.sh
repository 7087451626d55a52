#!/usr/bin/env bash
# What a hostile but realistic user does to the files and streams around a
# run: descriptors named as files, read-only and private files, closed
# streams and pipes, signals in the middle of a write, long names, options
# with one dash. After each, the user's data is checked intact: the
# redirected log, the file's mode, no temporary file left.
# usage: test_hostile.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
s=$(mktemp -d)
trap 'chmod -R u+w "$s" 2>/dev/null; rm -rf "$s"' EXIT
h=$bin/heat2d
cpu=$bin/cpu_reference
small=(--method cpu --nx 5 --ny 5 --steps 1)
r() { echo "heat2d: run: $*"; }
# lines FILE: its line count
lines() { wc -l <"$1" | tr -d ' '; }
expect_no_temp() { expect_eq "$(ls -A "$1" | grep -c '\.tmp\.' || true)" 0 "$2: no temporary file"; }

# ---- descriptors named as files are written in place, as streams ----------------------
cd "$s"
echo keep >log
"$h" run "${small[@]}" --save /dev/stdout >>log
expect_eq "$(head -n 1 log)" keep "--save /dev/stdout >>log: the log's old line kept"
expect_eq "$(grep -c '^METHOD=CPU_REFERENCE$' log)" 1 "--save /dev/stdout >>log: the report kept"
expect_eq "$(grep -c '^5 5$' log)" 1 "--save /dev/stdout >>log: the field's header in the log"
expect_eq "$(grep -cE '^ +[-0-9.]+E[-+][0-9]+$' log)" 25 "--save /dev/stdout >>log: the field's 25 values"
expect_eq "$(tail -n 1 log)" "FIELD_FILE=/dev/stdout" "--save /dev/stdout >>log: the report's last line last"
echo keep >log
"$cpu" 5 5 1 /dev/stdout >>log
expect_eq "$(head -n 1 log)/$(grep -c '^5 5$' log)" "keep/1" "seed program, /dev/stdout >>log: log kept, field added"
echo keep >log
"$h" run "${small[@]}" --save /proc/self/fd/7 7>>log >/dev/null
expect_eq "$(head -n 1 log)/$(lines log)" "keep/27" "--save /proc/self/fd/7 7>>log: appended to the log"
run "$h" run "${small[@]}" --save /dev/fd/9
expect_rc 1 "--save /dev/fd/9, 9 not open"
expect_eq "$err" "$(r "cannot write field file '/dev/fd/9': Bad file descriptor")" "--save /dev/fd/9, 9 not open: message"
expect_eq "$out" "" "--save /dev/fd/9, 9 not open: refused before the run"
mkfifo fifo
cat fifo >from_fifo &
reader=$!
run "$h" run "${small[@]}" --save fifo
wait "$reader"
expect_rc 0 "--save FIFO"
expect_eq "$(lines from_fifo)/$(test -p fifo && echo fifo)" "26/fifo" "--save FIFO: the field went through, the FIFO stays"

# ---- regular files: replaced only if writable, keeping their mode --------------------------
echo precious >ro.dat
chmod 444 ro.dat
expect_failure 1 "$(r "cannot write field file 'ro.dat': it is read-only (mode 444)")" \
  "$h" run "${small[@]}" --save ro.dat
expect_eq "$out" "" "read-only target: refused before the run"
expect_failure 1 "$cpu: cannot write field file 'ro.dat': it is read-only (mode 444)" "$cpu" 5 5 1 ro.dat
expect_eq "$(cat ro.dat)/$(stat -c %a ro.dat)" "precious/444" "read-only target: content and mode intact"
ln -s ro.dat ro_link.dat
expect_failure 1 "$(r "cannot write field file 'ro_link.dat': it is read-only (mode 444)")" \
  "$h" run "${small[@]}" --save ro_link.dat
for mode in 600 640 755; do
  echo old >"m$mode.dat"
  chmod "$mode" "m$mode.dat"
  "$h" run "${small[@]}" --save "m$mode.dat" >/dev/null
  expect_eq "$(stat -c %a "m$mode.dat")/$(head -n 1 "m$mode.dat")" "$mode/5 5" "mode $mode kept when replaced"
done
(umask 027 && "$cpu" 5 5 1 new.dat >/dev/null)
expect_eq "$(stat -c %a new.dat)" 640 "a new file takes the umask"
expect_no_temp . "files replaced"

# ---- standard streams closed or broken ------------------------------------------------------------
mkdir closed && cd closed
run bash -c '"$@" >&-' - "$h" run "${small[@]}" --save f.dat
expect_rc 1 "stdout closed"
expect_eq "$err" "heat2d: standard output was closed: the output was lost" "stdout closed: message"
expect_eq "$(ls -A)/$(lines f.dat)" "f.dat/26" "stdout closed: the field written, nothing else made"
cpu=$cpu run bash -c '"$cpu" 5 5 1 g.dat >&-'
expect_rc 1 "seed program, stdout closed"
expect_eq "$err" "$cpu: standard output was closed: the output was lost" "seed program, stdout closed: message"
expect_eq "$(lines g.dat)" 26 "seed program, stdout closed: the field written"
run bash -c '"$@" <&- 2>&-' - "$h" run "${small[@]}" --save f.dat
expect_rc 0 "stdin and stderr closed: the run succeeds"
expect_eq "$(ls -A | sort | paste -sd, -)" "f.dat,g.dat" "stdin and stderr closed: no stray file"
run bash -c '"$@" 2>&-' - "$h" run "${small[@]}" --save no/such/f.dat
expect_rc 1 "stderr closed: a failure still exits non-zero"
# The reader is gone before the run writes (it starts after a pause).
run bash -c 'set -o pipefail; (sleep 0.5; exec "$@") | true' - "$h" run --method cpu --nx 200 --ny 200 --steps 2 --save p.dat
expect_rc 1 "stdout pipe closed"
expect_eq "$err" "heat2d: cannot write to standard output: Broken pipe" "stdout pipe closed: message"
expect_eq "$(lines p.dat)" $((200 * 200 + 1)) "stdout pipe closed: the field is written whole"
cd ..

# ---- signals in the middle of a write remove the temporary file -------------------------------
# Background jobs of a script start with SIGINT and SIGQUIT ignored; env
# gives them back their default action, as in an interactive shell.
sig=$s/signals
mkdir "$sig"
n=0
for signal in INT TERM QUIT HUP USR1 USR2 ALRM XCPU VTALRM PROF; do
  n=$((n + 1))
  if [ $((n % 2)) = 0 ]; then
    env --default-signal "$cpu" 1200 1200 1 "$sig/f.dat" >/dev/null &
  else
    env --default-signal "$h" run --method cpu --nx 1200 --ny 1200 --steps 1 --save "$sig/f.dat" >/dev/null &
  fi
  pid=$!
  for _ in $(seq 2000); do
    ls "$sig" | grep -q '\.tmp\.' && break
    sleep 0.005
  done
  kill -s "$signal" "$pid" 2>/dev/null || true
  set +e; wait "$pid" 2>/dev/null; rc=$?; set -e
  expect_no_temp "$sig" "SIG$signal during the write"
  if [ "$rc" = $((128 + $(kill -l "$signal"))) ]; then
    expect_eq "$(ls -A "$sig")" "" "SIG$signal during the write: nothing left"
  else # the write won the race: the file must be whole
    expect_eq "$rc/$(lines "$sig/f.dat")" "0/$((1200 * 1200 + 1))" "SIG$signal after the write: the file is whole"
    rm -f "$sig/f.dat"
  fi
done

# check's scratch folder goes with it, whatever signal ends it.
ct=$s/check_tmp
mkdir "$ct"
for signal in INT QUIT USR1; do
  TMPDIR=$ct env --default-signal "$h" check >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 2000); do
    ls "$ct" | grep -q '^heat2d-check-' && break
    sleep 0.005
  done
  sleep 0.2
  kill -s "$signal" "$pid" 2>/dev/null || true
  set +e; wait "$pid" 2>/dev/null; rc=$?; set -e
  expect_eq "$rc" $((128 + $(kill -l "$signal"))) "SIG$signal during check: it dies of the signal"
  # (OpenMPI's own session folder, ompi.*, is MPI's to clean up)
  expect_eq "$(ls -A "$ct" | grep -v '^ompi\.' || true)" "" "SIG$signal during check: its scratch folder is removed"
done

# The bench too, for the fatal signals that are not its stop signals (those,
# INT TERM HUP QUIT, end it between trials: test_bench.sh): it dies of the
# signal, its running trial with it, no temporary file is left in its
# folder, and trials.csv holds only whole rows.
bt=$s/bench_signals
for signal in USR1 ALRM XCPU; do
  d=$bt/$signal
  env --default-signal "$h" bench --methods cpu --sizes 1024x1024:20000 --repeats 1 --warmups 0 \
    --out "$d" >/dev/null 2>&1 &
  pid=$!
  trial=
  for _ in $(seq 150); do
    for c in $(pgrep -P "$pid" || true); do
      if tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline" | grep -q ' run .* --steps 20000 '; then trial=$c; fi
    done
    [ -n "$trial" ] && break
    sleep 0.1
  done
  expect_eq "$([ -n "$trial" ] && echo running)" running "SIG$signal to the bench: its trial runs"
  kill -s "$signal" "$pid" 2>/dev/null || true
  set +e; wait "$pid" 2>/dev/null; rc=$?; set -e
  expect_eq "$rc" $((128 + $(kill -l "$signal"))) "SIG$signal to the bench: it dies of the signal"
  # (alive: not a zombie, which the container's init may never reap)
  alive() { ps -o stat= -p "${trial:-none}" 2>/dev/null | grep -vc '^Z' || true; }
  for _ in $(seq 20); do
    [ "$(alive)" = 0 ] && break
    sleep 0.1
  done
  expect_eq "$(alive)" 0 "SIG$signal to the bench: its trial is gone within 2 s"
  expect_no_temp "$d" "SIG$signal to the bench"
  expect_eq "$(awk -F, '{print NF}' "$d/trials.csv" | sort -u)" \
    "$(head -n 1 "$d/trials.csv" | awk -F, '{print NF}')" "SIG$signal to the bench: trials.csv rows whole"
done

# ---- what a SIGKILL leaves in TMPDIR, the next heat2d sweeps ---------------------------
# No handler runs on SIGKILL: a bench killed in its write probe, or in a
# trial that writes snapshots, leaves its scratch there. Each scratch
# folder is named heat2d-WORD-PID-XXXXXX after its owner, holds a marker
# that names it and its inode, and is locked while it lives; the next
# heat2d that makes a scratch folder removes the ones whose owner is gone,
# and nothing else: a folder of the user's with a name of that pattern is
# never touched.
tmp=$s/tmp
mkdir "$tmp"
# wait_for PREFIX [TRIES]: until an entry of $tmp starts with PREFIX (at
# most TRIES looks, 10 ms apart; default 1500); its name.
wait_for() {
  local f
  for _ in $(seq "${2:-1500}"); do
    for f in "$tmp/$1"*; do
      [ -e "$f" ] && { basename "$f"; return; }
    done
    sleep 0.01
  done
}
# gone NAME: waits until the process named by a scratch name (its PID) is gone.
gone() {
  local p=${1%-*}
  p=${p##*-}
  for _ in $(seq 200); do
    case $p in '' | *[!0-9]*) return 0 ;; esac
    kill -0 "$p" 2>/dev/null || return 0
    sleep 0.025
  done
}
TMPDIR=$tmp HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 4096x4096:1 --repeats 1 --warmups 0 \
  --out "$s/killed-probe" >/dev/null 2>&1 &
pid=$!
probe=$(wait_for heat2d-write-probe-)
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
# The folder's owner (named in it) may outlive the bench by a moment; the
# next bench sweeps only folders whose owner is gone.
gone "$probe"
expect_eq "$([ -n "$probe" ] && ls "$tmp")" "$probe" "SIGKILL in the write probe: its scratch is left"
# The next bench sweeps it (its own write probe makes a scratch folder).
# Its trial lasts seconds, so that it is still running when the SIGKILL
# lands: a trial done first leaves the bench in its next scratch folder.
# The plain cpu row runs first and as long; a sanitized build's cpu is
# several times slower, so it gets a smaller grid.
grid=1024x1024
is_sanitized "$h" && grid=384x384
TMPDIR=$tmp HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes $grid:4000 --output-every 1000 \
  --snapshot-writer text --repeats 1 --warmups 0 --out "$s/killed-trial" >/dev/null 2>&1 &
pid=$!
# Its trial's folder, not one of the short runs before the record of the
# machine (whose folders come and go before the bench's own write probe,
# which sweeps): bandwidth.txt is written after that probe. A loaded
# machine (CI's sanitized suite) may take a minute to get there.
for _ in $(seq 3000); do
  [ -e "$s/killed-trial/bandwidth.txt" ] && break
  sleep 0.02
done
trial=$(wait_for heat2d-snapshots- 6000)
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
gone "$trial"
expect_eq "$([ -n "$trial" ] && ls "$tmp")" "$trial" \
  "SIGKILL in a trial: its scratch is left; the next bench swept the killed probe's"
# Beside them: a folder of a live process; one whose owner is gone but
# whose lock a process holds (another pid namespace's); not folders; names
# not of the pattern; another user's; folders of the user's whose names
# fit the pattern (a backup, one made by hand with a file); and a copy of
# the killed trial's folder (its marker names another folder).
sleep 60 &
live=$!
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir "$tmp/heat2d-snapshots-$live-abcdef" "$tmp/heat2d-check-$dead-locked" "$tmp/heat2d-check-abcdef" \
  "$tmp/mine-$dead-abcdef" "$tmp/heat2d-field-$dead-Orphan" "$s/elsewhere"
[ -n "$trial" ] && cp -a "$tmp/$trial" "$tmp/heat2d-snapshots-$dead-Copied"
# (the lock held by this shell, as another namespace's heat2d would hold it)
exec {lock}<"$tmp/heat2d-check-$dead-locked"
flock -n "$lock"
echo keep >"$s/elsewhere/f.dat"
echo keep >"$tmp/heat2d-check-$dead-afile1"
ln -s "$s/elsewhere" "$tmp/heat2d-check-$dead-alink1"
echo mine >"$tmp/heat2d-field-$dead-Orphan/field_256.dat"
# user_folder: the user's backup, made again before each command, so that
# each is tried on it.
user_folder() { mkdir -p "$tmp/heat2d-results-2024-backup" && echo mine >"$tmp/heat2d-results-2024-backup/run.log"; }
kept="heat2d-check-$dead-afile1 heat2d-check-$dead-alink1 heat2d-check-$dead-locked heat2d-check-abcdef"
kept="$kept heat2d-snapshots-$live-abcdef mine-$dead-abcdef heat2d-field-$dead-Orphan"
kept="$kept heat2d-results-2024-backup heat2d-snapshots-$dead-Copied"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir "$tmp/heat2d-check-$dead-nobody"
  chown nobody "$tmp/heat2d-check-$dead-nobody"
  kept="$kept heat2d-check-$dead-nobody"
fi
left_in_tmp() { ls -A "$tmp" | grep -v '^ompi\.' | sort | paste -sd' '; }
user_folder
run env TMPDIR="$tmp" "$h" run --method cpu --nx 8 --ny 8 --steps 2 --output-every 1 --snapshot-writer text
expect_rc 0 "the next heat2d run"
expect_eq "$(left_in_tmp)" "$(tr ' ' '\n' <<<"$kept" | sort | paste -sd' ')" \
  "the next run swept the killed bench's scratch, and kept everything else"
expect_eq "$(cat "$s/elsewhere/f.dat")" keep "a link of the pattern: its target untouched"
expect_eq "$(cat "$tmp/heat2d-field-$dead-Orphan/field_256.dat")" mine "a folder of the pattern made by hand: its file kept"
# check and bench sweep as run does: the user's folders stay.
user_folder
run env TMPDIR="$tmp" "$h" check --program "c=$bin/cpu_reference"
expect_eq "$rc/$(left_in_tmp)" "0/$(tr ' ' '\n' <<<"$kept" | sort | paste -sd' ')" "check: the user's folders kept"
user_folder
run env TMPDIR="$tmp" HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 8x8:1 --warmups 0 --repeats 1 \
  --out "$s/sweeping-bench"
expect_eq "$rc/$(left_in_tmp)" "0/$(tr ' ' '\n' <<<"$kept" | sort | paste -sd' ')" "bench: the user's folders kept"
expect_eq "$(cat "$tmp/heat2d-results-2024-backup/run.log")" mine "the user's backup: its file kept"
exec {lock}<&-
kill "$live"
wait "$live" 2>/dev/null || true

# ---- a name cannot forge a line of output ----------------------------------------------
# Names are printed escaped as messages escape them (\n, \t, \xHH): a
# file named "x<newline>FORGED=1" never makes a line FORGED=1, nor one named
# "c<newline>COMPARE=PASS" a COMPARE=PASS while the comparison fails.
mkdir "$s/names"
cd "$s/names"
nl=$'\nFORGED=1'
forged() { grep -c '^FORGED=' <<<"$out" || true; }
run "$h" run "${small[@]}" --save "a$nl.dat"
expect_eq "$rc/$(forged)/$(tail -n 1 <<<"$out")" '0/0/FIELD_FILE=a\nFORGED=1.dat' "run --save: the name escaped"
run "$cpu" 5 5 1 "b$nl.dat"
expect_eq "$rc/$(forged)/$(tail -n 1 <<<"$out")" '0/0/FIELD_FILE=b\nFORGED=1.dat' \
  "seed program: FIELD_FILE= escaped"
run "$h" run --method cpu --nx 5 --ny 5 --steps 2 --output-every 1 --save-every "d$nl"
expect_eq "$rc/$(forged)/$(grep -vc '^[A-Z0-9_]*=' <<<"$out" || true)" 0/0/0 \
  "run --save-every: every line KEY=VALUE, none forged"
pass=$'c\nCOMPARE=PASS'
"$h" run --method cpu --nx 5 --ny 5 --steps 2 --save "$pass" >/dev/null
run "$h" compare "a$nl.dat" "$pass"
expect_eq "$rc/$(grep -c '^COMPARE=PASS$' <<<"$out" || true)" 1/0 "compare: a name cannot forge COMPARE=PASS"
expect_eq "$out" 'FILE=c\nCOMPARE=PASS MAX_ABS_DIFF=2.000000e-01 WORST_INDEX=12 FAILURES=9 WORST_I=2 WORST_J=2 REF_VALUE=0.6 CAND_VALUE=0.39999999999999997 RMS_DIFF=4.156922e-02' \
  "compare: the FILE= line, its name escaped"
cd "$s"

# ---- check --keep: a FIFO among its file names is refused, not waited on ----------------
mkdir "$s/keep"
mkfifo "$s/keep/cpu_25x21_7.dat"
expect_failure 1 "heat2d: check: $s/keep/cpu_25x21_7.dat is not a regular file (a FIFO)" \
  timeout 20 "$h" check --keep "$s/keep"
expect_eq "$out/$(ls -A "$s/keep")" "/cpu_25x21_7.dat" "check --keep with a FIFO: nothing run, nothing written"

# ---- messages --------------------------------------------------------------------------------------
# A name of 3,900 bytes: the message still ends in its reason.
long=$s
for _ in $(seq 15); do long=$long/$(printf 'd%.0s' $(seq 250)); done
run "$h" run "${small[@]}" --save "$long/f.dat"
expect_rc 1 "a 3,900-byte name"
expect_err_lines 1 "a 3,900-byte name: one line"
expect_eq "${err: -27}" ": No such file or directory" "a 3,900-byte name: the reason kept"
expect_eq "$(grep -c "$long/f.dat" <<<"$err")" 1 "a 3,900-byte name: the name whole"

# A single-dash option names itself, with its two-dash spelling.
expect_failure 2 "heat2d: run: unknown option '-method' (options take two dashes: --method)" \
  "$h" run -method cpu
expect_failure 2 "heat2d: run: unknown option '-nx' (options take two dashes: --nx)" \
  "$h" run --method cpu -nx 5
expect_failure 2 "heat2d: check: unknown option '-gpu' (options take two dashes: --gpu)" "$h" check -gpu
expect_failure 2 "heat2d: compare: unknown option '-atol' (options take two dashes: --atol)" \
  "$h" compare -atol 1 a b
expect_failure 2 "heat2d: bench: unknown option '-sizes' (options take two dashes: --sizes) (heat2d bench --help)" \
  "$h" bench -sizes 8x8:1
expect_failure 2 "heat2d: run: unknown option '-x'" "$h" run -x
expect_failure 2 "heat2d: run: option '--nx' needs a value" "$h" run --method cpu --nx

finish
