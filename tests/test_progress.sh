#!/usr/bin/env bash
# The progress line: on a terminal's standard error (a pseudo-terminal made
# by util-linux's `script`), `heat2d run` rewrites one line with the steps
# done, the rate and the time left, a few times a second at most, and
# erases it before its output; `heat2d bench` shows the trial under way
# with its time. Nothing reaches standard error when it is a file or a
# pipe, and run's KEY=VALUE output is the same either way. A short run
# shows nothing (the line waits 2 s); HEAT2D_PROGRESS_AFTER_S=0 shows it
# at once, and a value that is not a number is refused.
# usage: test_progress.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
h=$bin/heat2d

if ! command -v script >/dev/null; then
  skip "the progress line" "no script (util-linux) here to make a terminal"
  finish
  exit 0
fi
# on_tty CMD: the shell command CMD with a pseudo-terminal for stdin,
# stdout and stderr (CMD redirects what it keeps apart); the bytes the
# terminal received in $tty, CMD's exit status in $rc.
on_tty() {
  set +e
  tty=$(script -qec "$1" /dev/null </dev/null)
  rc=$?
  set -e
}
on_tty 'test -t 2 && echo TTY'
if [ "$tty" != $'TTY\r' ]; then
  skip "the progress line" "script made no terminal here: '$tty'"
  finish
  exit 0
fi
esc=$'\033'
# drawn: the lines drawn on the terminal in $tty, one a line (each "\r ESC[K"
# starts a redraw).
drawn() { sed "s/\r${esc}\[K/\n/g" <<<"$tty" | sed '/^$/d'; }
# stable FILE: run's output less its times and rates (the keys ending _S).
stable() { grep -vE '^[A-Z0-9_]+_S=' "$1"; }

# steps_for SECONDS ARGS...: the steps that make `heat2d run ARGS` last
# about SECONDS here (measured on 1000 steps), so that a run is long enough
# for a few draws whatever the build (a sanitizer's is many times slower).
steps_for() {
  local seconds=$1 rate
  shift
  rate=$("$h" run "$@" --steps 1000 | sed -n 's/^GCELLS_PER_S= *//p')
  awk -v s="$seconds" -v g="$rate" -v a="$*" 'BEGIN {
    split(a, w, " "); for (k in w) { if (w[k] == "--nx") nx = w[k + 1]; if (w[k] == "--ny") ny = w[k + 1] }
    n = int(s * g * 1e9 / (nx * ny)); print (n < 100 ? 100 : n) }'
}

# ---- run: the line on a terminal, erased before the output ----------------------------------
big=(--method cpu --nx 256 --ny 256)
big+=(--steps "$(steps_for 2 "${big[@]}")")
small=(--method cpu --nx 64 --ny 64 --steps 200)
t0=$(date +%s.%N)
on_tty "HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${big[*]} >'$w/tty.out'"
t1=$(date +%s.%N)
expect_rc 0 "run on a terminal"
line_re='^heat2d: run: step [0-9]+ of [0-9]+ \([0-9]+%\)(, [0-9.]+ steps/s, [0-9.e+-]+ Gcell/s, about (<1 s|[0-9]+ s|[0-9]+ min [0-9]{2} s) left)?$'
expect_eq "$(drawn | grep -cvE "$line_re" || true)" 0 "run: every line drawn is the progress line: $(drawn | head -n 3)"
expect_eq "$(drawn | grep -cE ' steps/s, .* left$' || true)" "$(($(drawn | wc -l) - 1))" \
  "run: every line after the first has the rate and the time left"
[ "$(drawn | wc -l)" -ge 2 ] && ok || ko "run: the line was redrawn: $tty"
steps=$(drawn | sed -E 's/^heat2d: run: step ([0-9]+) of.*/\1/' | paste -sd' ')
expect_eq "$(tr ' ' '\n' <<<"$steps" | sort -n | paste -sd' ')" "$steps" "run: the steps drawn go up: $steps"
expect_eq "${tty:0:4}|${tty: -4}" $'\r'"${esc}[K|"$'\r'"${esc}[K" \
  "run: each draw rewrites the line, and the last erases it"
expect_eq "$(grep -c '' <<<"${tty//$'\r'/}")" 1 "run: one line, never a newline"
# At most one draw each 0.25 s, and one for the first report.
most=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print int((b - a) / 0.25) + 1 }')
[ "$(drawn | wc -l)" -le "$most" ] && ok || ko "run: $(drawn | wc -l) draws in $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s, more than $most"

# The same run with stderr a file, and a pipe: nothing on it; the output
# the same, its times and rates aside.
run env HEAT2D_PROGRESS_AFTER_S=0 "$h" run "${big[@]}"
expect_eq "$rc/$err" "0/" "run with stderr a file: nothing on it"
printf '%s\n' "$out" >"$w/file.out"
expect_eq "$(stable "$w/tty.out")" "$(stable "$w/file.out")" "run: the same output with and without the line"
expect_eq "$(sed 's/=.*//' "$w/tty.out" | paste -sd' ')" "$(sed 's/=.*//' "$w/file.out" | paste -sd' ')" \
  "run: the same keys with and without the line"
run bash -c "HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${small[*]} 2>&1 >/dev/null | wc -c"
expect_eq "$rc/$out" "0/0" "run with stderr a pipe: nothing on it"
# stdout on the terminal, stderr a file: the output alone, no line.
on_tty "HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${small[*]} 2>'$w/err.txt'"
expect_eq "$rc/$(cat "$w/err.txt")" "0/" "run with stdout a terminal and stderr a file: nothing on stderr"
"$h" run "${small[@]}" >"$w/small.out"
expect_eq "$(stable <(tr -d '\r' <<<"$tty"))" "$(stable "$w/small.out")" \
  "run with stdout a terminal: its output, nothing else"

# Fitted to the terminal: on one of 40 columns (its own size, TIOCGWINSZ)
# or, where the terminal gives none, $COLUMNS, no line reaches the last
# column (it would wrap, and "\r" redraw only its last row); a line cut
# ends in "...".
on_tty "stty cols 40; HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${big[*]} >/dev/null"
expect_eq "$rc/$(drawn | awk 'length($0) > 39' | wc -l)" "0/0" "run on 40 columns: every line under 40"
expect_eq "$(drawn | grep -c ' steps/s' || true)/$(drawn | grep -cE '^heat2d: run: step [0-9]+ of [0-9]+ .*\.\.\.$' || true)" \
  "0/$(($(drawn | wc -l) - 1))" "run on 40 columns: the lines with the rate cut, ending in ..."
on_tty "stty cols 0; COLUMNS=30 HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${big[*]} >/dev/null"
expect_eq "$rc/$(drawn | awk 'length($0) > 29' | wc -l)/$(drawn | wc -l | tr -d ' ')" "0/0/$(drawn | grep -c '^heat2d: run: step ')" \
  "run on a terminal of no size, COLUMNS=30: every line under 30"

# A short run on a terminal: nothing, the line waits 2 s.
on_tty "'$h' run --method cpu --nx 64 --ny 64 --steps 100 >/dev/null"
expect_eq "$rc/$tty" "0/" "a short run on a terminal: no line"

# ---- which methods report, and when ---------------------------------------------------------
# omp's steps run on the host in pieces, as cpu's; a method of the GPU style
# (acc-resident, here on the host) reports at its snapshots only.
if have_method "$h" omp "omp's progress"; then
  omp=(--method omp --nx 256 --ny 256)
  steps=$(OMP_NUM_THREADS=2 steps_for 2 "${omp[@]}")
  # Two threads on a busy machine run their 1000 measured steps at a rate
  # the next run need not keep: a run over before its second draw is run
  # again with four times the steps, three times at most.
  for _ in 1 2 3; do
    on_tty "OMP_NUM_THREADS=2 HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${omp[*]} --steps $steps >/dev/null"
    if [ "$rc" != 0 ] || [ "$(drawn | wc -l)" -ge 2 ]; then break; fi
    steps=$((steps * 4))
  done
  expect_eq "$rc/$(drawn | grep -cvE "$line_re" || true)" "0/0" "omp: the progress line"
  [ "$(drawn | wc -l)" -ge 2 ] && ok || ko "omp: the line was redrawn: $tty"
fi
if have_method "$h" acc-resident "acc-resident's progress at its snapshots"; then
  acc=(--method acc-resident --nx 128 --ny 128)
  acc+=(--steps $(($(steps_for 0.5 "${acc[@]}") / 500 * 500 + 1000)))
  on_tty "HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${acc[*]} >/dev/null"
  expect_eq "$rc/$tty" "0/" "acc-resident without snapshots: no line"
  on_tty "HEAT2D_PROGRESS_AFTER_S=0 '$h' run ${acc[*]} --output-every 500 >/dev/null"
  steps=$(drawn | sed -E 's/^heat2d: run: step ([0-9]+) of.*/\1/' | paste -sd' ')
  expect_eq "$rc/$(tr ' ' '\n' <<<"$steps" | awk '$1 % 500 != 0' | wc -l)" "0/0" \
    "acc-resident with snapshots: the line at snapshot steps only ($steps)"
  [ -n "$steps" ] && ok || ko "acc-resident with snapshots: a line"
fi

# ---- the setting ----------------------------------------------------------------------------
expect_failure 2 "heat2d: run: HEAT2D_PROGRESS_AFTER_S must be a non-negative number, got 'soon'" \
  env HEAT2D_PROGRESS_AFTER_S=soon "$h" run --method cpu --nx 8 --ny 8 --steps 1
expect_failure 2 "heat2d: bench: HEAT2D_PROGRESS_AFTER_S must be a non-negative number, got '-1'" \
  env HEAT2D_PROGRESS_AFTER_S=-1 "$h" bench --methods cpu --sizes 8x8:1 --out "$w/refused"
expect_eq "$(ls -A "$w" | grep -c refused || true)" 0 "bench refused: no folder made"

# ---- bench: the trial under way and its time -------------------------------------------------
bsteps=$(steps_for 2 --method cpu --nx 256 --ny 256)
bench=(bench --methods cpu --sizes "256x256:$bsteps" --repeats 1 --warmups 0)
on_tty "HEAT2D_PYTHON=false HEAT2D_PROGRESS_AFTER_S=0 '$h' ${bench[*]} --out '$w/b-tty' >'$w/b-tty.out'"
expect_rc 0 "bench on a terminal"
expect_eq "$(drawn | grep -cE "^\\[1/1\\] 256x256/$bsteps cpu trial 1/1, (<1 s|[0-9]+ s), estimating time left\$" || true)" \
  "$(($(drawn | grep -c '^\[1/1\]') - 1))" "bench: the trial's line, then its time as it runs"
[ "$(drawn | grep -c '^\[1/1\]')" -ge 2 ] && ok || ko "bench: the trial's line redrawn: $tty"
expect_eq "${tty: -4}" $'\r'"${esc}[K" "bench: the line erased at the end"
run env HEAT2D_PYTHON=false HEAT2D_PROGRESS_AFTER_S=0 "$h" "${bench[@]}" --out "$w/b-file"
expect_rc 0 "bench with stderr a file"
expect_eq "$(grep -c $'\r\|\[1/1\]' <<<"$err" || true)" 0 "bench with stderr a file: no progress line"
expect_eq "$(grep -c "^heat2d: bench: 256x256/$bsteps: 1 method" <<<"$err")" 1 "bench with stderr a file: its lines that stay"

finish
