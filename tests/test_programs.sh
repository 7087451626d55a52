#!/usr/bin/env bash
# A program of the user's in heat2d bench and heat2d check (--program
# NAME=PATH): small programs that speak the original's protocol, one right
# and six wrong in each way a port goes wrong (a cell off, no CHECK=PASS,
# exit 3, a hang, a flood, a TOTAL_S that is no number), each verdict and
# its message; ten hostile to what runs them (closed streams, a FIFO at
# the field's name, keys of heat2d's own, processes left running or too
# many, a TOTAL_S of 0), none of which hangs, misleads or outlives heat2d;
# heat2d's own cpu_reference and the original's Fortran
# reference_cpu (built by tools/build_original.sh from ../shared where it
# is) bit for bit; the C example of docs/usage.md.
# usage: test_programs.sh BIN_DIR SOURCE_DIR SEED_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
src=$2
seed=$3
h=$bin/heat2d
w=$(mktemp -d)
# Each run of a hostile program appends its process group (which holds
# what it starts) to $groups. left_running: the processes of those groups
# still running (zombies aside) that are those programs' (a group's id may
# be another's by now); what a heat2d left, the test ends.
groups=$w/groups
: >"$groups"
left_running() {
  ps -e -o pid=,pgid=,stat=,comm= | awk -v list="$(sort -u "$groups" | paste -sd' ')" '
    BEGIN { n = split(list, g, " "); for (k = 1; k <= n; k++) ours[g[k]] = 1 }
    ($2 in ours) && $3 !~ /^Z/ && $4 ~ /^(closed|fifo|fifolink|keys|holder|busy|forky|zero|negzero|tiny|refifo)$/ { print $1 }'
}
trap 'left_running | xargs -r kill -KILL 2>/dev/null; rm -rf "$w"' EXIT
cc=${CC:-cc}

# ---- the programs ----------------------------------------------------------------------
names=(good off nocheck three hang flood nan)
for k in "${!names[@]}"; do
  "$cc" -O2 -DFAULT="$k" "$src/tests/programs/protocol.c" -o "$w/${names[$k]}"
done
programs=()
for n in "${names[@]}"; do programs+=(--program "$n=$w/$n"); done
# What each wrong one is told (the off cell: (nx/2, ny/2), 1e-3 off).
declare -A why=(
  [nocheck]="no CHECK=PASS in its output"
  [three]="protocol: exits 3 on purpose (exit status 3)"
  [hang]="timed out after 1 s"
  [flood]="flooded its output: more than 1 MiB on stdout, killed"
  [nan]="TOTAL_S=soon is not a finite number"
)
off_why() { # NX NY: the off program's reason at that size
  local nx=$1 ny=$2 i=$(($1 / 2)) j=$(($2 / 2))
  printf "its field differs from cpu's in 1 of %d cells (atol 2e-12, rtol 2e-10): the worst at i=%d j=%d (index %d, from 0), |diff| 1.000000e-03" \
    $((nx * ny)) "$i" "$j" $((j * nx + i))
}
why[off]=$(off_why 16 12)

# ---- heat2d bench --program --------------------------------------------------------------
b=$w/bench
mkdir "$w/tmp"
run env HEAT2D_PYTHON=false TMPDIR="$w/tmp" PROTOCOL_LOG="$w/fields.log" "$h" bench --methods cpu \
  --sizes 16x12:3 --warmups 1 --repeats 2 --program-timeout 1 --out "$b" "${programs[@]}"
expect_rc 1 "bench with six failing programs fails"
expect_eq "$(tail -n 1 <<<"$err")" "heat2d: bench: 6 failure(s), listed at the top of $b/summary.md" \
  "bench: the failures counted"
for n in off nocheck three hang flood nan; do
  expect_err_has "heat2d: bench: $n 16x12/3 warm-up 1/1 failed: ${why[$n]}; $n is dropped at this size" \
    "bench: $n's verdict"
  expect_eq "$(grep -cxF -- "- FAILED: $n at 16x12/3, warm-up 1/1: ${why[$n]}. Dropped at this size." \
    "$b/summary.md")" 1 "bench: $n is FAILED at the top of the summary"
done
csv=$b/trials.csv
col() { head -n 1 "$csv" | tr ',' '\n' | grep -nx -- "$1" | cut -d: -f1; }
c_method=$(col method) c_program=$(col program) c_transfers=$(col transfers) c_device=$(col device)
c_precision=$(col precision)
rows_of() { awk -F, -v c="$c_method" -v m="$1" 'NR > 1 && $c == m' "$csv"; }
expect_eq "$(rows_of good | wc -l | tr -d ' ')" 2 "bench: the right program's two trials"
expect_eq "$(rows_of cpu | wc -l | tr -d ' ')" 2 "bench: cpu's two trials"
for n in off nocheck three hang flood nan; do
  expect_eq "$(rows_of "$n" | wc -l | tr -d ' ')" 0 "bench: no time of $n is recorded"
done
expect_eq "$(rows_of good | cut -d, -f"$c_program" | sort -u)" "$w/good" "bench: the program column"
expect_eq "$(rows_of good | cut -d, -f"$c_precision,$c_transfers,$c_device" | sort -u)" \
  "host (no GPU here),not traced,f64" "bench: on the host (no GPU here), not traced, f64"
expect_eq "$(rows_of cpu | cut -d, -f"$c_program" | sort -u)" "" "bench: a method has no program"
# Trial t starts at target (t-1) mod n: good is second, then first.
expect_eq "$(awk -F, -v c="$c_method" 'NR > 1 {printf "%s ", $c}' "$csv")" "cpu good good cpu " \
  "bench: the program in the rotation"
table=$(sed -n '/^## 16x12, 3 steps$/,/^Against the limits/p' "$b/summary.md")
expect_eq "$(grep -c '^| good | host (no GPU here) | 2 | .* | not measured | not measured |$' <<<"$table")" 1 \
  "bench: the size's table has the program, its copies not measured"
expect_eq "$(grep -c '^| good | not measured | not measured | a host loop: nothing crosses |$' "$b/summary.md")" 1 \
  "bench: its copies beside the article's estimate for its style"
expect_eq "$(grep -c '^| good | host (no GPU here) | [0-9.e+-]* | [0-9.]* |' "$b/summary.md")" 1 \
  "bench: the headline has the program with its speedup over cpu"
expect_eq "$(grep -c '^- Transfers of the programs: not measured (no GPU here, nothing to trace)\.$' "$b/summary.md")" 1 \
  "bench: the note says why its copies were not traced"
expect_eq "$(grep -cx "BENCH_PROGRAM=good=$w/good" "$b/environment.txt")" 1 \
  "bench: environment.txt records the program"
expect_eq "$(grep -cx "BENCH_PROGRAM_TOLERANCE=2e-12,2e-10" "$b/environment.txt")" 1 \
  "bench: and its tolerance"
# Each run's field went to a scratch folder of the bench's under TMPDIR,
# never the results folder, and it is gone.
expect_eq "$(grep -c "^$w/tmp/heat2d-programs-[0-9]*-[A-Za-z0-9]*/good\.dat\$" "$w/fields.log")" 3 \
  "bench: the right program's three runs wrote to the bench's scratch folder"
expect_eq "$(ls -A "$w/tmp")" "" "bench: the scratch folder is gone"

# A path with a line break, a quote and a comma: trials.csv keeps it as
# it is (RFC 4180: quoted, quotes doubled, the line break inside), which
# Python's csv reads back byte for byte, and heat2d's reader and ledger
# take as one record: a second bench into the folder sets nothing aside.
odd=$w/$'odd\nname "q", r'
mkdir "$odd"
cp "$w/good" "$odd/good"
for pass in 1 2; do
  run env HEAT2D_PYTHON=false TMPDIR="$w/tmp" "$h" bench --methods cpu --sizes 16x12:3 --warmups 0 \
    --repeats 1 --out "$w/odd-bench" --program "odd=$odd/good"
  expect_eq "$rc/$(ls "$w/odd-bench" | grep -c torn)" "0/0" "bench $pass with a line break in a path: rows read back"
done
expect_eq "$(python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["method"] == "odd"]
print(len(rows), all(r["program"] == sys.argv[2] for r in rows), rows[0]["label"])' \
  "$w/odd-bench/trials.csv" "$odd/good")" "2 True odd" \
  "trials.csv: the path read back by Python's csv as it is, in both benches' rows"

# Refused before anything is made: each one line, exit 2, no folder.
refused() { # MESSAGE ARGS...
  local message=$1
  shift
  run "$h" bench --methods cpu --sizes 16x12:3 --out "$w/never" "$@"
  expect_eq "$rc/$err" "2/heat2d: bench: $message" "bench $*: refused"
  expect_eq "$(ls -d "$w/never" 2>/dev/null)" "" "bench $*: nothing made"
}
refused "--program 'good': expected NAME=PATH, e.g. f-cpu=./reference_cpu" --program good
refused "--program NAME 'a b': letters, digits, '.', '_' and '-' (a letter or digit first)" \
  --program "a b=$w/good"
refused "--program x: cannot run $w/none: No such file or directory" --program "x=$w/none"
refused "--program x: cannot run $w: Is a directory" --program "x=$w"
refused "--program cpu: a method of heat2d has that name; choose another NAME" --program "cpu=$w/good"
refused "--program good is given twice" --program "good=$w/good" --program "good=$w/off"
refused "--program-tolerance '1e-3': expected ATOL,RTOL, e.g. 2e-12,2e-10" --program-tolerance 1e-3
refused "--program-tolerance '1e-3,-1': ATOL and RTOL must be non-negative numbers" \
  --program-tolerance 1e-3,-1
refused "--program-timeout must be a positive number of seconds, got '0'" --program-timeout 0

# ---- heat2d check --program --------------------------------------------------------------
# The original's four cases and the odd and thin shapes: 9 a program.
cases="25x21/7 25x21/8 25x21/31 25x21/32 5x5/3 41x37/31 40x17/17 5x64/20 64x5/20"
why[hang]="timed out after 0.5 s"
run "$h" check --program-timeout 0.5 "${programs[@]}"
expect_rc 1 "check with six failing programs fails"
expect_eq "$(tail -n 1 <<<"$err")" "heat2d: PROGRAM_CHECK=FAIL: 54 failure(s)" "check: the failures counted"
for c in $cases; do
  expect_count "^PROGRAM=good case=$c MAX_ABS_DIFF=0\\.000000e\\+00 WORST_INDEX=0 FAILURES=0 PASS\$" 1 \
    "check: good passes $c bit for bit"
  nx=${c%%x*} rest=${c#*x} ny=${rest%%/*}
  why[off]=$(off_why "$nx" "$ny")
  for n in off nocheck three hang flood nan; do
    expect_eq "$(grep -cxF "PROGRAM=$n case=$c FAIL: ${why[$n]}" <<<"$out")" 1 "check: $n fails $c"
    expect_eq "$(grep -cxF "heat2d: check: $n $c: ${why[$n]}" <<<"$err")" 1 "check: $n's line at $c"
  done
done
# A relative TMPDIR (here tmp, under the working folder) still hands the
# program an absolute FIELD_FILE: a program that changes folder writes
# where heat2d reads.
# A NUL in its output (a Fortran string's padding) ends a line, never the
# output: the lines after it are read.
printf '#!/bin/sh\nprintf "BANNER\\000\\000 "\nexec "%s" "$@"\n' "$w/good" >"$w/nul"
chmod +x "$w/nul"
run "$h" check --program "nul=$w/nul"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/PROGRAM_CHECK=PASS" "check: a NUL before its lines hides none"
here=$PWD
cd "$w"
run env TMPDIR=tmp PROTOCOL_LOG="$w/relative.log" "$h" check --program "good=$w/good"
cd "$here"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/PROGRAM_CHECK=PASS" "check: a right program passes"
expect_count ' PASS$' 9 "check: nine cases"
expect_eq "$(grep -vc "^$w/tmp/heat2d-" "$w/relative.log")/$(grep -c '' "$w/relative.log")" "0/9" \
  "check under TMPDIR=tmp: every FIELD_FILE absolute, in $w/tmp"
run "$h" check --gpu --program "good=$w/good"
expect_eq "$rc/$err" "2/heat2d: check: --program checks the programs alone, against cpu in f64: drop --gpu" \
  "check --gpu --program: refused"

# ---- programs hostile to what runs them ------------------------------------------------
# The right program but for one way it treats heat2d (protocol.c, FAULT
# 7-15): it closes stdout and stderr and runs on; leaves a FIFO, or a link
# to one, at its field's name; prints PRECISION=f32, RANKS=4 and other
# keys of heat2d's own; leaves a process holding its stdout, or a busy
# loop; starts 300 processes; prints a TOTAL_S of 0, -0 or 1e-300; leaves
# a FIFO named cpu.dat beside its field (the bench's reference at the
# next size).
hostile=(closed fifo fifolink keys holder busy forky)
for k in "${!hostile[@]}"; do
  "$cc" -O2 -DFAULT=$((k + 7)) "$src/tests/programs/protocol.c" -o "$w/${hostile[$k]}"
done
"$cc" -O2 -DFAULT=14 -DTOTAL_TEXT='"0"' "$src/tests/programs/protocol.c" -o "$w/zero"
"$cc" -O2 -DFAULT=14 -DTOTAL_TEXT='"-0"' "$src/tests/programs/protocol.c" -o "$w/negzero"
"$cc" -O2 -DFAULT=14 -DTOTAL_TEXT='"1e-300"' "$src/tests/programs/protocol.c" -o "$w/tiny"
"$cc" -O2 -DFAULT=15 "$src/tests/programs/protocol.c" -o "$w/refifo"
running() { left_running | wc -l | tr -d ' '; }
# A heat2d that hangs on one is ended (and fails the test).
hang_limit=(timeout -k 5 90)

hb=$w/hostile-bench
hp=()
for n in "${hostile[@]}" zero negzero tiny; do hp+=(--program "$n=$w/$n"); done
run "${hang_limit[@]}" env HEAT2D_PYTHON=false TMPDIR="$w/tmp" PROTOCOL_GROUPS="$groups" "$h" bench \
  --methods cpu --sizes 16x12:3 --warmups 0 --repeats 1 --program-timeout 1 --out "$hb" "${hp[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$err")" "1/heat2d: bench: 7 failure(s), listed at the top of $hb/summary.md" \
  "hostile bench: it ends, seven programs failing"
expect_eq "$(running)/$(sort -u "$groups" | wc -l | tr -d ' ')" 0/10 \
  "hostile bench: its ten programs ran, and nothing they started is left running"
scratch_re="$w/tmp/heat2d-programs-[0-9]+-[A-Za-z0-9]+"
clock_re="below the clock's resolution \([0-9.e+-]+ s\): no speed-up can be computed from it; time more steps or a larger grid"
declare -A hwhy=(
  [closed]="timed out after 1 s"
  [fifo]="its field: '$scratch_re/fifo\.dat' is not a regular file \(a FIFO\)"
  [fifolink]="its field: '$scratch_re/fifolink\.dat' is a symbolic link, not the field file itself"
  [forky]="started too many processes: [0-9]+ at once, more than the 256 a run may have; its process group was killed"
  [zero]="TOTAL_S=0 is $clock_re"
  [negzero]="TOTAL_S=-0 is $clock_re"
  [tiny]="TOTAL_S=1e-300 is $clock_re"
)
for n in "${!hwhy[@]}"; do
  expect_eq "$(grep -cE "^- FAILED: $n at 16x12/3, trial 1/1: ${hwhy[$n]}\. Dropped at this size\.\$" \
    "$hb/summary.md")" 1 "hostile bench: $n fails, saying why"
done
left_note() { # NAME SIZE: the summary's note of what NAME left running at SIZE
  echo "- $1 at $2 left 1 process(es) running when it exited; heat2d ended them (its process group), so that they could not slow the trials after it."
}
for n in holder busy; do
  expect_eq "$(grep -cxF -- "$(left_note "$n" 16x12/3)" "$hb/summary.md")" 1 \
    "hostile bench: what $n left running ended and noted"
done
csv=$hb/trials.csv
for n in keys holder busy; do
  expect_eq "$(rows_of "$n" | wc -l | tr -d ' ')" 1 "hostile bench: $n's trial recorded"
done
for n in "${!hwhy[@]}"; do
  expect_eq "$(rows_of "$n" | wc -l | tr -d ' ')" 0 "hostile bench: no time of $n is recorded"
done
expect_eq "$(grep -ciE '(^|[^a-z])-?inf([^a-z]|$)' "$hb/summary.md")" 0 "hostile bench: no infinite speed-up"
# Only the protocol's keys are a program's: its row is f64, with no ranks,
# halos, snapshots or copies of its own saying.
for c in precision ranks decomp halo_depth output_every snapshots device transfers h2d_count; do
  cn=$(col "$c")
  expect_eq "$(rows_of keys | cut -d, -f"$cn" | sort -u)" "$(rows_of busy | cut -d, -f"$cn" | sort -u)" \
    "hostile bench: keys's $c column is the bench's, not its own line's"
done
expect_eq "$(rows_of keys | cut -d, -f"$(col precision)" | sort -u)" f64 "hostile bench: keys's precision f64"
# A run that took milliseconds, not the 60 s its helper holds stdout.
expect_eq "$(rows_of holder | awk -F, -v c="$(col process_s)" '$c >= 1' | wc -l | tr -d ' ')" 0 \
  "hostile bench: holder's runs end when it exits"

# The FIFO at cpu.dat, where the bench computes cpu's field at the next
# size: that field is written to a new file all the same. Each size has its
# own note of what holder left.
hb=$w/hostile-bench-2
run "${hang_limit[@]}" env HEAT2D_PYTHON=false TMPDIR="$w/tmp" PROTOCOL_GROUPS="$groups" "$h" bench \
  --methods cpu --sizes 16x12:3,12x10:2 --warmups 0 --repeats 1 --out "$hb" --program "refifo=$w/refifo" \
  --program "holder=$w/holder"
expect_rc 0 "hostile bench, two sizes: it ends, passing"
csv=$hb/trials.csv
for n in refifo holder; do
  expect_eq "$(rows_of "$n" | wc -l | tr -d ' ')" 2 "hostile bench, two sizes: $n's trial at each size recorded"
done
for size in 16x12/3 12x10/2; do
  expect_eq "$(grep -cxF -- "$(left_note holder "$size")" "$hb/summary.md")" 1 \
    "hostile bench, two sizes: what holder left at $size noted"
done

# check: the same programs on the nine cases.
run "${hang_limit[@]}" env TMPDIR="$w/tmp" PROTOCOL_GROUPS="$groups" "$h" check --program-timeout 0.3 \
  --program "closed=$w/closed" --program "fifo=$w/fifo" --program "fifolink=$w/fifolink" \
  --program "keys=$w/keys" --program "holder=$w/holder" --program "busy=$w/busy"
expect_eq "$rc/$(tail -n 1 <<<"$err")" "1/heat2d: PROGRAM_CHECK=FAIL: 27 failure(s)" "hostile check: three fail each case"
expect_eq "$(running)" 0 "hostile check: nothing its programs started is left running"
dir_re="$w/tmp/heat2d-check-[0-9]+-[A-Za-z0-9]+"
for c in $cases; do
  nx=${c%%x*} rest=${c#*x} ny=${rest%%/*} steps=${c#*/}
  f="${nx}x${ny}_$steps"
  expect_count "^PROGRAM=closed case=$c FAIL: timed out after 0\.3 s\$" 1 "hostile check: closed times out at $c"
  expect_count "^PROGRAM=fifo case=$c FAIL: its field: '$dir_re/fifo_$f\.dat' is not a regular file \(a FIFO\)\$" 1 \
    "hostile check: fifo at $c"
  expect_count "^PROGRAM=fifolink case=$c FAIL: its field: '$dir_re/fifolink_$f\.dat' is a symbolic link, not the field file itself\$" 1 \
    "hostile check: fifolink at $c"
  for n in keys holder busy; do
    expect_count "^PROGRAM=$n case=$c MAX_ABS_DIFF=0\\.000000e\\+00 WORST_INDEX=0 FAILURES=0 PASS\$" 1 \
      "hostile check: $n passes $c"
  done
  for n in holder busy; do
    expect_count "^NOTE: check: $n $c left 1 process\(es\) running when it exited; heat2d ended them\$" 1 \
      "hostile check: $n at $c, what it left running ended and noted"
  done
done

# A stop reaches a program that closed its streams: SIGTERM ends check and
# bench at once (the bench writing its summary), and the program with them.
for cmd in check bench; do
  before=$(wc -l <"$groups")
  args=(check --program "closed=$w/closed")
  [ "$cmd" = bench ] && args=(bench --methods cpu --sizes 16x12:3 --warmups 0 --repeats 1 --out "$w/stopped"
    --program "closed=$w/closed")
  env HEAT2D_PYTHON=false TMPDIR="$w/tmp" PROTOCOL_GROUPS="$groups" "$h" "${args[@]}" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ "$(wc -l <"$groups")" -gt "$before" ] && break
    sleep 0.05
  done
  sleep 0.5 # its streams closed: no pipe left to watch
  kill -TERM "$pid" || true
  (sleep 10 && kill -KILL "$pid" 2>/dev/null) &
  watchdog=$!
  set +e; wait "$pid" 2>/dev/null; rc=$?; set -e
  kill "$watchdog" 2>/dev/null || true
  for _ in $(seq 40); do
    [ "$(running)" = 0 ] && break
    sleep 0.05
  done
  expect_eq "$rc/$(running)" 143/0 "SIGTERM to $cmd with a program that closed its streams: both end"
done

# Started with SIGCHLD ignored, which has the kernel reap children before
# their parent learns how they ended: heat2d sets it back, and checks.
run "${hang_limit[@]}" bash -c 'trap "" CHLD; exec "$@"' _ "$h" check --program "good=$w/good"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/PROGRAM_CHECK=PASS" "check started with SIGCHLD ignored ($err; $(ls "$w" | wc -l) entries in the test's folder)"

# ---- heat2d's cpu_reference and the original's reference_cpu, bit for bit ----------------
refs=(--program "c-cpu=$bin/cpu_reference")
if [ ! -f "$seed/reference_cpu.f90" ]; then
  echo "note: the original's sources are not at $seed: its reference_cpu is not checked" >&2
elif ! command -v gfortran >/dev/null; then
  echo "note: gfortran is not installed: the original's reference_cpu is not checked" >&2
else
  run "$src/tools/build_original.sh" "$seed" "$w/original"
  expect_rc 0 "build_original.sh ($err)"
  expect_eq "$(grep -c '^ORIGINAL_BUILD=\(offload\|host\) (' <<<"$out")" 1 "build_original: says how it built them"
  expect_out_has "PROGRAM=f-cpu=$w/original/reference_cpu" "build_original: names the programs"
  refs+=(--program "f-cpu=$w/original/reference_cpu")
  # A compiler that cannot offload: the host build, said.
  printf '#!/bin/sh\nfor a in "$@"; do [ "$a" = -foffload=nvptx-none ] && { echo "mkoffload: no nvptx here" >&2; exit 1; }; done\nexec gfortran "$@"\n' >"$w/fc"
  chmod +x "$w/fc"
  run env FC="$w/fc" "$src/tools/build_original.sh" "$seed" "$w/original-host"
  expect_eq "$rc/$(grep '^ORIGINAL_BUILD=' <<<"$out")" \
    "0/ORIGINAL_BUILD=host (-foffload=disable: the offload compiler could not build them: mkoffload: no nvptx here)" \
    "build_original: no offload compiler: the host build, said"
  run "$src/tools/build_original.sh" "$w/none" "$w/x"
  expect_eq "$rc/$err" "1/build_original: $w/none is not a folder (ORIGINAL= names the folder of the article's Fortran sources)" \
    "build_original: a missing folder"
fi
run "$h" check --program-tolerance 0,0 "${refs[@]}"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/PROGRAM_CHECK=PASS" "check: the reference programs at tolerance 0"
expect_count '^PROGRAM=.* MAX_ABS_DIFF=0\.000000e\+00 .* PASS$' $((9 * ${#refs[@]} / 2)) \
  "check: every case bit for bit"
# 400x400 after 400 steps: the original writes three-digit exponents
# without their E, which the bench reads.
run env HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 400x400:400 --warmups 0 --repeats 1 \
  --program-tolerance 0,0 --out "$w/refs" "${refs[@]}"
expect_rc 0 "bench: the reference programs at tolerance 0 ($err)"
expect_eq "$(($(wc -l <"$w/refs/trials.csv") - 1))" $((1 + ${#refs[@]} / 2)) \
  "bench: a row for cpu and each reference program"

# ---- the C example of docs/usage.md -----------------------------------------------------
awk '/^<!-- tests\/test_programs.sh builds this -->$/ {on = 1; next}
  on && /^```c$/ {code = 1; next} code && /^```$/ {exit} code {print}' \
  "$src/docs/usage.md" >"$w/my_port.c"
expect_eq "$(grep -c 'TOTAL_S=' "$w/my_port.c")" 1 "docs: the example found"
"$cc" -O2 "$w/my_port.c" -o "$w/my_port"
run "$h" check --program "my-port=$w/my_port"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/PROGRAM_CHECK=PASS" "docs: the example passes the check"

finish
