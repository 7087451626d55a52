#!/usr/bin/env bash
# Every stop is clean and bounded: a signal at any moment of a --save-every
# run leaves no temporary file and says what was kept; a bench ends at once
# wherever a stop signal lands (its probes, a budget-cut loop), and its
# trials, mpirun's ranks included, die with it even by SIGKILL; what the
# bench reads back is a regular file, and what its helpers print is bounded.
# usage: test_stops.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
h=$bin/heat2d

# ---- a signal at 50 random moments of a --save-every run ----------------------------------
# The run takes about half a second; the moments spread over it. A step
# file is whole or absent (all have one size), no .tmp. file is left, and
# the line names the last step kept.
series=(run --method cpu --nx 300 --ny 300 --steps 400 --output-every 5)
killed=0 temps=0 torn=0 bad_line=0
for k in $(seq 50); do
  d=$w/series$k
  mkdir "$d"
  if [ $((k % 2)) = 0 ]; then sig=INT; else sig=TERM; fi
  env --default-signal "$h" "${series[@]}" --save-every "$d" >/dev/null 2>"$w/series.err" &
  pid=$!
  # From its exec on (a signal to the shell's child before it would run
  # this script's EXIT trap there).
  for _ in $(seq 200); do
    case $(readlink "/proc/$pid/exe" 2>/dev/null) in */heat2d) break ;; esac
    sleep 0.001
  done
  sleep "0.$(printf '%03d' $((RANDOM % 450)))"
  kill -s "$sig" "$pid" 2>/dev/null || true
  set +e; wait "$pid"; rc=$?; set -e
  temps=$((temps + $(ls -A "$d" | grep -c '\.tmp\.' || true)))
  [ "$(ls "$d" | grep -c '^step_' || true)" = 0 ] ||
    [ "$(stat -c %s "$d"/step_* | sort -u | wc -l)" = 1 ] || torn=$((torn + 1))
  if [ "$rc" = $((128 + $(kill -l "$sig"))) ]; then
    killed=$((killed + 1))
    last=$(ls "$d" | grep '^step_' | tail -n 1 | sed 's/^step_0*\([0-9]*\)\.dat$/\1/')
    line=$(cat "$w/series.err")
    n=$(kill -l "$sig")
    # The line is set after each file: the last one may be a step ahead.
    case "$line" in
      "heat2d: interrupted by signal $n") [ -z "$last" ] || [ "$last" = 5 ] || bad_line=$((bad_line + 1)) ;;
      "heat2d: interrupted by signal $n: $d keeps the step files up to step "*)
        said=${line##* }
        [ -f "$d/step_$(printf '%03d' "$said").dat" ] && [ $((last - said)) -le 5 ] ||
          bad_line=$((bad_line + 1)) ;;
      # (a signal before the handler was installed: nothing to say, nothing made)
      "") [ -z "$last" ] || bad_line=$((bad_line + 1)) ;;
      *) bad_line=$((bad_line + 1)); echo "unexpected: $line" >&2 ;;
    esac
  elif [ "$rc" != 0 ]; then
    bad_line=$((bad_line + 1)); echo "exit $rc: $(cat "$w/series.err")" >&2
  fi
  rm -rf "$d"
done
expect_eq "$temps" 0 "a signal at 50 moments of --save-every: no temporary file left"
expect_eq "$torn" 0 "a signal at 50 moments: every step file left is whole"
expect_eq "$bad_line" 0 "a signal at 50 moments: the one line names what was kept"
expect_eq "$([ "$killed" -ge 25 ] && echo most)" most "most of the 50 signals landed in the run ($killed)"

# ---- run and check end within a second of SIGTERM, and say so -------------------------------
env --default-signal "$h" run --method cpu --nx 2000 --ny 2000 --steps 100000 >/dev/null 2>"$w/run.err" &
pid=$!
sleep 0.5
start=$(date +%s%N)
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "$rc/$(cat "$w/run.err")" "143/heat2d: interrupted by signal 15" "SIGTERM to a long run: 143, the one line"
expect_eq "$([ "$ms" -lt 1000 ] && echo fast)" fast "SIGTERM to a long run: ended within a second ($ms ms)"
# check, at moments through its run (its MPI probe runs in a child): the
# children it had go with it.
left=0 bad=0
for t in 0.02 0.1 0.2 0.4; do
  env --default-signal "$h" check >/dev/null 2>"$w/check.err" &
  pid=$!
  sleep "$t"
  kids=$(pgrep -P "$pid" || true)
  kill -TERM "$pid" 2>/dev/null || true
  set +e; wait "$pid"; rc=$?; set -e
  sleep 0.3
  for c in $kids; do
    [ "$(ps -o stat= -p "$c" 2>/dev/null | grep -vc '^Z' || true)" = 0 ] || left=$((left + 1))
  done
  # (Silent only when stopped before its handler was installed: slow to
  # start under a sanitizer, and with no child yet. Open MPI's own log
  # lines, "[host:pid] ...", from the daemon of the probe killed with
  # check, are not heat2d's.)
  case "$rc/$(grep -v '^\[' "$w/check.err" || true)/${kids:+kids}" in
    "143/heat2d: interrupted by signal 15/"* | 0/* | "143//") ;;
    *) bad=$((bad + 1)); echo "check: exit $rc: $(cat "$w/check.err")" >&2 ;;
  esac
done
expect_eq "$left/$bad" 0/0 "SIGTERM to check at four moments: no child left, the one line"

# ---- a bench ends at once wherever a stop lands ---------------------------------------------
# child_running PID PATTERN: waits until a child of PID runs a command line
# matching PATTERN; prints its pid.
child_running() {
  local c
  for _ in $(seq 200); do
    for c in $(pgrep -P "$1" || true); do
      if tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline" | grep -qE -- "$2"; then
        echo "$c"
        return
      fi
    done
    sleep 0.05
  done
}
tiny=(--methods cpu --sizes 8x8:1 --repeats 1 --warmups 0)
# During the bandwidth probe (heat2d info --bandwidth), before any trial.
for sig in TERM INT; do
  d=$w/probe-$sig
  env --default-signal HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d" >/dev/null 2>"$w/b.err" &
  pid=$!
  probe=$(child_running "$pid" ' info --bandwidth')
  start=$(date +%s%N)
  kill -s "$sig" "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  ms=$((($(date +%s%N) - start) / 1000000))
  n=$(kill -l "$sig")
  expect_eq "$([ -n "$probe" ] && echo seen)" seen "SIG$sig during the probe: the probe ran"
  expect_eq "$rc" $((128 + n)) "SIG$sig during the probe: 128+signal"
  expect_eq "$(cat "$w/b.err")" \
    "heat2d: bench: interrupted by signal $n: $d/trials.csv keeps the 0 trial(s) that finished" \
    "SIG$sig during the probe: the one line, no 'cannot measure'"
  expect_eq "$([ "$ms" -lt 1000 ] && echo fast)" fast "SIG$sig during the probe: ended within a second ($ms ms)"
  expect_eq "$(grep -c '^- Interrupted by signal' "$d/summary.md")" 1 "SIG$sig during the probe: the summary says so"
done
# A probe that lingers after SIGTERM (stopped here, as a driver may hold up
# a GPU probe's exit) is sent SIGKILL half a second later: the bench still
# ends within a second, and the probe with it.
d=$w/probe-stopped
env --default-signal HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d" >/dev/null 2>"$w/b.err" &
pid=$!
probe=$(child_running "$pid" ' info --bandwidth')
[ -n "$probe" ] && kill -STOP "$probe"
start=$(date +%s%N)
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "$([ -n "$probe" ] && echo seen)/$rc" seen/143 "SIGTERM during a probe that lingers: 143"
expect_eq "$([ "$ms" -lt 1000 ] && echo fast)" fast \
  "SIGTERM during a probe that lingers: ended within a second ($ms ms)"
for _ in $(seq 100); do
  [ "$(ps -o stat= -p "$probe" 2>/dev/null | grep -vc '^Z' || true)" = 0 ] && break
  sleep 0.01
done
expect_eq "$(ps -o stat= -p "$probe" 2>/dev/null | grep -vc '^Z' || true)" 0 "the lingering probe is gone"
# During the write probe (files of the largest field, 128 MiB each, written
# into TMPDIR for up to 4 s): it stops at once, and leaves nothing there.
mkdir "$w/probe-tmp"
for sig in TERM INT; do
  d=$w/write-probe-$sig
  TMPDIR=$w/probe-tmp env --default-signal HEAT2D_PYTHON=false "$h" bench --methods cpu \
    --sizes 4096x4096:1 --repeats 1 --warmups 0 --out "$d" >/dev/null 2>"$w/b.err" &
  pid=$!
  seen=
  for _ in $(seq 1000); do
    ls "$w/probe-tmp" | grep -q '^heat2d-write-probe-' && { seen=yes; break; }
    sleep 0.01
  done
  sleep 0.1
  start=$(date +%s%N)
  kill -s "$sig" "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  ms=$((($(date +%s%N) - start) / 1000000))
  n=$(kill -l "$sig")
  expect_eq "$seen/$rc" "yes/$((128 + n))" "SIG$sig during the write probe: 128+signal"
  expect_eq "$(cat "$w/b.err")" \
    "heat2d: bench: interrupted by signal $n: $d/trials.csv keeps the 0 trial(s) that finished" \
    "SIG$sig during the write probe: the one line"
  expect_eq "$([ "$ms" -lt 1000 ] && echo fast)" fast "SIG$sig during the write probe: ended within a second ($ms ms)"
  expect_eq "$(ls -A "$w/probe-tmp")" "" "SIG$sig during the write probe: nothing left in TMPDIR"
done
# During the matplotlib probe (a python that hangs there): no note that
# python lacks matplotlib, no failure, the trial kept.
mkdir "$w/fakebin"
printf '#!/bin/sh\nsleep 30\n' >"$w/fakebin/python3"
chmod +x "$w/fakebin/python3"
d=$w/matplotlib-probe
env -u HEAT2D_PYTHON PATH="$w/fakebin:$PATH" "$h" bench "${tiny[@]}" --out "$d" >/dev/null 2>"$w/b.err" &
pid=$!
probe=$(child_running "$pid" 'import matplotlib')
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
expect_eq "$([ -n "$probe" ] && echo seen)/$rc" seen/143 "SIGTERM during the matplotlib probe: 143"
expect_eq "$(tail -n 1 "$w/b.err")" \
  "heat2d: bench: interrupted by signal 15: $d/trials.csv keeps the 1 trial(s) that finished" \
  "SIGTERM during the matplotlib probe: the line counts the trial"
expect_eq "$(grep -cE 'no python|FAILED' "$d/summary.md" || true)" 0 \
  "SIGTERM during the matplotlib probe: no false note"
expect_eq "$(ps -o stat= -p "$probe" 2>/dev/null | grep -vc '^Z' || true)" 0 "the probe is gone"

# A budget that cut every method at trial 1 of a billion: the loop ends
# with the targets, it does not spin through the rounds left.
run timeout 30 env HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 64x64:20 --warmups 0 \
  --repeats 1000000000 --budget 0.000001 --out "$w/cut"
expect_rc 0 "every method cut by the budget: the bench ends"
expect_eq "$(($(wc -l <"$w/cut/trials.csv") - 1))" 1 "cut by the budget: one trial kept"
expect_eq "$(grep -c 'cpu 1 of 1000000000' "$w/cut/summary.md")" 1 "cut by the budget: the summary says so"
run timeout 30 env HEAT2D_PYTHON=false "$h" bench --methods cpu,omp --sizes 64x64:20,96x96:20 \
  --warmups 0 --repeats 2000000000 --budget 0.000001 --out "$w/cut2"
expect_rc 0 "two methods, two sizes, all cut: the bench ends"
expect_eq "$(($(wc -l <"$w/cut2/trials.csv") - 1))" 4 "two methods, two sizes, all cut: one trial each"

# ---- trials die with a SIGKILLed bench, mpirun's ranks too ----------------------------------
alive_with() { # COMM ARGS-PATTERN: live processes (not zombies) of that name and arguments
  ps -eo stat=,comm=,args= | awk -v c="$1" '$1 !~ /^Z/ && $2 == c' | grep -cE -- "$2" || true
}
if ! have_method "$h" mpi-cpu "SIGKILL with mpirun's ranks"; then
  : # said
elif ! command -v mpirun >/dev/null; then
  skip "SIGKILL with mpirun's ranks" "no mpirun on PATH"
else
  env "$h" bench --methods mpi-cpu --ranks 2 --sizes 512x512:30011 --repeats 1 --warmups 0 \
    --out "$w/killed-mpi" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    [ "$(alive_with heat2d ' run .*--steps 30011')" -ge 2 ] && break
    sleep 0.05
  done
  expect_eq "$(alive_with heat2d ' run .*--steps 30011')" 2 "SIGKILL, mpi-cpu: both ranks run"
  kill -KILL "$pid"
  set +e; { wait "$pid"; } 2>/dev/null; set -e
  for _ in $(seq 40); do
    [ "$(($(alive_with heat2d '--steps 30011') + $(alive_with mpirun '--steps 30011')))" = 0 ] && break
    sleep 0.05
  done
  expect_eq "$(alive_with heat2d '--steps 30011')/$(alive_with mpirun '--steps 30011')" 0/0 "SIGKILL to the bench: mpirun and its ranks are gone within 2 s"
fi
# The variable that ties a process to its bench is checked like any other.
small=(run --method cpu --nx 5 --ny 5 --steps 1)
expect_failure 1 "heat2d: HEAT2D_BENCH_PID=abc is not a process id (heat2d bench sets it for its trials)" \
  env HEAT2D_BENCH_PID=abc "$h" "${small[@]}"
expect_failure 1 "heat2d: HEAT2D_BENCH_PID=1 is not a process id (heat2d bench sets it for its trials)" \
  env HEAT2D_BENCH_PID=1 "$h" "${small[@]}"
sh -c 'exit 0' &
stranger=$!
wait "$stranger"
expect_failure 1 "heat2d: the bench that started this trial (pid $stranger) is gone" \
  env HEAT2D_BENCH_PID="$stranger" "$h" "${small[@]}"
sleep 30 &
stranger=$!
run env HEAT2D_BENCH_PID="$stranger" "$h" "${small[@]}"
kill "$stranger"
wait "$stranger" 2>/dev/null || true
expect_eq "$rc/$err" "0/" "HEAT2D_BENCH_PID of a live process not above: ignored, the run works"

# ---- what the bench reads back is a regular file ----------------------------------------
d=$w/fifo-ledger
mkdir "$d"
mkfifo "$d/trials.csv"
run timeout 10 "$h" bench "${tiny[@]}" --out "$d"
expect_rc 1 "a FIFO trials.csv"
expect_eq "$err" "heat2d: bench: $d/trials.csv is not a regular file (a FIFO)" "a FIFO trials.csv: refused at once"
expect_eq "$(ls -A "$d")/$(test -p "$d/trials.csv" && echo fifo)" "trials.csv/fifo" "a FIFO trials.csv: nothing else made"
d=$w/dir-ledger
mkdir -p "$d/trials.csv"
expect_failure 1 "heat2d: bench: $d/trials.csv is not a regular file (a directory)" \
  timeout 10 "$h" bench "${tiny[@]}" --out "$d"
d=$w/dev-ledger
mkdir "$d"
ln -s /dev/null "$d/trials.csv"
expect_failure 1 "heat2d: bench: $d/trials.csv is not a regular file (a character device)" \
  timeout 10 "$h" bench "${tiny[@]}" --out "$d"
for name in summary.md trials.torn.csv environment.txt; do
  d=$w/fifo-$name
  run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
  rm -f "$d/$name"
  mkfifo "$d/$name"
  before=$(cat "$d/trials.csv")
  expect_failure 1 "heat2d: bench: $d/$name is not a regular file (a FIFO)" \
    timeout 10 "$h" bench "${tiny[@]}" --out "$d"
  expect_eq "$(cat "$d/trials.csv")" "$before" "a FIFO $name: trials.csv untouched"
done

# ---- the plotter, stopped at any moment, leaves no temporary picture --------------------
py=$(matplotlib_python)
if [ -n "$py" ]; then
  d=$w/pictures
  run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
  script=$(cd "$(dirname "$0")/../tools" && pwd)/plot_bench.py
  temps=0 stopped=0
  for k in 1 2 3; do
    "$py" "$script" "$d" >/dev/null 2>&1 &
    pid=$!
    sleep "$((k / 2)).$((RANDOM % 10))"
    kill -TERM "$pid" 2>/dev/null || true
    set +e; wait "$pid"; rc=$?; set -e
    [ "$rc" = 143 ] && stopped=$((stopped + 1))
    temps=$((temps + $(ls -A "$d" | grep -c '\.tmp\.' || true)))
  done
  expect_eq "$temps" 0 "plot_bench.py stopped by SIGTERM: no temporary picture ($stopped of 3 stopped)"
else
  skip "plot_bench.py stopped by SIGTERM" "no python with matplotlib"
fi

# ---- a helper's output is bounded ------------------------------------------------------
# A plotter that floods its stdout and stderr (600 MB in all): the bench
# keeps a bounded part, passes on only PLOT= lines, and stays small; it
# exits 0 having made no picture, which is a failure the summary lists. Under
# the sanitizers, where the bench reads the flood at some 25 MB/s, 200 MB:
# either stream alone is still half as much again as the bound.
flood=300000000
is_sanitized "$h" && flood=100000000
cat >"$w/fakebin/python3" <<FAKE
#!/bin/sh
[ "\$1" = -c ] && exit 0
head -c $flood /dev/zero | tr '\\0' 'y'
head -c $flood /dev/zero | tr '\\0' 'e' >&2
echo
exit 0
FAKE
script=$(cd "$(dirname "$0")/../tools" && pwd)/plot_bench.py
d=$w/flood
env -u HEAT2D_PYTHON PATH="$w/fakebin:$PATH" HEAT2D_PLOT_SCRIPT="$script" "$h" bench "${tiny[@]}" \
  --out "$d" >"$w/flood.out" 2>"$w/flood.err" &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
  kb=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$kb" ] && [ "$kb" -gt "$peak" ] && peak=$kb
  sleep 0.05
done
set +e; wait "$pid"; rc=$?; set -e
expect_eq "$rc/$(tail -n 1 "$w/flood.err")" "1/heat2d: bench: 1 failure(s), listed at the top of $d/summary.md" \
  "a flooding plotter that makes no picture: the bench fails"
expect_eq "$(grep -c "^- FAILED: $w/fakebin/python3 $script: exited 0 without making time_per_step.png, headline.png, phases.png, field.png\$" "$d/summary.md")" \
  1 "a flooding plotter: the summary says it made none of its pictures"
expect_eq "$([ "$peak" -lt 65536 ] && echo bounded)" bounded "a flooding plotter: the bench's memory stays under 64 MB ($peak kB)"
expect_eq "$(grep -c 'yyyy' "$w/flood.out" || true)" 0 "a flooding plotter: its chatter is not passed on"

finish
