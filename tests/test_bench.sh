#!/usr/bin/env bash
# heat2d bench: the trials it records, their order, the tables computed from
# them, the folder's files, and the command lines it refuses.
# usage: test_bench.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
h=$bin/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# A column's index (1-based) in a CSV header line.
col() { tr ',' '\n' <<<"$1" | grep -nx -- "$2" | cut -d: -f1; }

# The benches whose plots nothing here looks at are run without them
# (${noplots[@]}: HEAT2D_PYTHON=false, as on a machine without matplotlib):
# drawing them is python's work, 3 to 4 s a bench, the same every time;
# the benches that look at their plots make them. Under the sanitizers the
# benches under mpirun run one trial a point, not two: each is ranks that
# take a second or two to start and end.
sanitized=false
is_sanitized "$h" && sanitized=true
# (And the second bench over ranks skips the leak scan, ${no_leak_scan[@]};
# the first keeps it.)
noplots=(env HEAT2D_PYTHON=false) mpi_repeats=2
if $sanitized; then mpi_repeats=1; fi

# ---- a tiny bench --------------------------------------------------------------
b=$w/b
run "$h" bench --sizes 16x16:3,24x20:5 --repeats 2 --warmups 1 --out "$b"
expect_rc 0 "tiny bench"
csv=$b/trials.csv
header=$(head -n 1 "$csv")
# Every column of the original's CSV, in its order, then heat2d's.
expect_eq "$(cut -d, -f1-15 <<<"$header")" \
  "method,trial,nx,ny,steps,total_s,mass,centre,enter_s,gpu_loop_s,readback_s,exit_s,step_regions_s,cpu_loop_s,process_s" \
  "the original's columns first"
for c in device h2d_count h2d_bytes d2h_count d2h_bytes h2d_s d2h_s context_s device_loop_s \
  gcells_per_s; do
  expect_eq "$([ -n "$(col "$header" "$c")" ] && echo yes)" yes "header has $c"
done

# The methods: every method of the build that needs no GPU, and a CUDA
# method exactly when one can run here.
methods=$(sed -n 's/^BENCH_METHODS=//p' "$b/environment.txt" | tail -n 1)
for m in $("$h" methods | awk '$1 !~ /^(cuda|mpi)/ {print $1}'); do
  expect_eq "$(tr ',' '\n' <<<"$methods" | grep -cx -- "$m")" 1 "$m is benched by default"
done
# A distributed method is not: one `heat2d run` per trial would give it one
# rank. The note says so.
for m in $("$h" methods | awk '$1 ~ /^mpi/ {print $1}'); do
  expect_eq "$(tr ',' '\n' <<<"$methods" | grep -cx -- "$m")" 0 "$m is not benched by default"
  expect_eq "$(grep '^NOTE: Not run by default: ' <<<"$out" | grep -c -- "$m" || true)" 1 \
    "the note names $m"
done
if "$h" run --method cuda-resident --nx 8 --ny 8 --steps 1 >/dev/null 2>&1; then
  expect_eq "$(tr ',' '\n' <<<"$methods" | grep -c '^cuda')" 3 "GPU here: cuda-each, -pinned, -resident"
else
  expect_eq "$(tr ',' '\n' <<<"$methods" | grep -c '^cuda' || true)" 0 "no GPU: no CUDA method"
fi
IFS=, read -r -a list <<<"$methods"
n=${#list[@]}
expect_eq "$(($(wc -l <"$csv") - 1))" "$((n * 2 * 2))" "rows = methods x sizes x repeats"

# Trial t runs the methods from index (t-1) mod n, wrapping around.
for size in "16 16 3" "24 20 5"; do
  read -r nx ny steps <<<"$size"
  for t in 1 2; do
    want=""
    for ((j = 0; j < n; j++)); do want+="${list[$(((t - 1 + j) % n))]} "; done
    got=$(awk -F, -v nx="$nx" -v ny="$ny" -v t="$t" \
      'NR > 1 && $3 == nx && $4 == ny && $2 == t {printf "%s ", $1}' "$csv")
    expect_eq "$got" "$want" "order of trial $t at ${nx}x${ny}"
  done
done

# Every row is a passing run: sizes as asked, the original's mass bounds,
# a non-negative TOTAL_S inside its process time.
bad=$(awk -F, 'NR > 1 {
  ok = ($3 == 16 && $4 == 16 && $5 == 3) || ($3 == 24 && $4 == 20 && $5 == 5)
  ok = ok && $7 + 0 >= 0 && $7 + 0 <= 1 + 1e-10 && $6 + 0 >= 0 && $15 + 0 >= $6 + 0
  ok = ok && $8 + 0 > 0 && $16 != ""
  if (!ok) print NR ": " $0 }' "$csv")
expect_eq "$bad" "" "every row passes the original's check"

# summary.md: one table per size, and its medians are the CSV's.
summary=$b/summary.md
expect_eq "$(grep -c '^## 16x16, 3 steps$' "$summary")" 1 "table for 16x16/3"
expect_eq "$(grep -c '^## 24x20, 5 steps$' "$summary")" 1 "table for 24x20/5"
for size in "16 16 3" "24 20 5"; do
  read -r nx ny steps <<<"$size"
  # The size's first table (the limits table that follows has its own rows).
  table=$(awk -v h="## ${nx}x${ny}, ${steps} steps" '$0 == h {on = 1; next} /^## / {on = 0}
    on && /^\|/ {print; in_table = 1; next} on && in_table {on = 0}' "$summary")
  for m in "${list[@]}"; do
    want=$(awk -F, -v m="$m" -v nx="$nx" -v ny="$ny" 'NR > 1 && $1 == m && $3 == nx && $4 == ny \
      {print $6}' "$csv" | sort -g | awk '{v[NR] = $1} END {
        med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.4g", med }')
    got=$(awk -F'|' -v m=" $m " '$2 == m {split($5, a, " "); print a[1]}' <<<"$table")
    expect_eq "$got" "$want" "median of $m at ${nx}x${ny}"
    expect_eq "$(awk -F'|' -v m=" $m " '$2 == m {gsub(/ /, "", $4); print $4}' <<<"$table")" 2 \
      "trials of $m at ${nx}x${ny}"
  done
done
expect_eq "$(grep -c '^## Headline: 24x20, 5 steps$' "$summary")" 1 "headline: the largest size"
expect_eq "$(grep -c "not run; this is the largest" "$summary")" 1 "headline says it is not 2048^2"
# The same tables on stdout.
expect_out_has "## 24x20, 5 steps" "stdout shows the tables"
expect_out_has "RESULTS=$b" "stdout names the folder"
if grep -q '^| acc-resident | host ' "$summary"; then
  expect_eq "$(grep -c '^- each/resident: acc-each / acc-resident = ' "$summary")" 2 \
    "each/resident speedup per size"
  expect_eq "$(grep -c '^- cpu/resident: cpu / acc-resident = ' "$summary")" 2 "cpu/resident"
  expect_eq "$(grep -c '^Ran on the host, not a GPU: acc-each, acc-resident' "$summary")" 2 \
    "host-mode OpenACC is labelled"
else
  skip "the host OpenACC lines" "acc-resident did not run on the host here (not built, or offloaded)"
fi

# environment.txt: the build, the machine, the parameters.
env_txt=$(cat "$b/environment.txt")
for k in HEAT2D_VERSION= CPU_MODEL= GPU= NVCC= DATE= HOSTNAME= BENCH_SIZES=16x16:3,24x20:5 \
  BENCH_WARMUPS=1 BENCH_REPEATS=2; do
  expect_eq "$(grep -c "^$k" <<<"$env_txt")" 1 "environment.txt has $k"
done

# Progress is for a terminal; a pipe gets one line per size.
expect_eq "$(grep -c $'\r' <<<"$err" || true)" 0 "no carriage returns off a terminal"
expect_eq "$(grep -c '^heat2d: bench: .*warm-up(s)' <<<"$err")" 2 "one line per size"

# Plots, when some python has matplotlib.
py=$(matplotlib_python)
have_mpl=$([ -n "$py" ] && echo yes || echo no)
if [ "$have_mpl" = yes ]; then
  for png in time_per_step.png headline.png field.png; do
    expect_eq "$(head -c 8 "$b/$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" \
      "89504e470d0a1a0a" "$png is a PNG"
    expect_out_has "PLOT=$b/$png" "stdout names $png"
  done
  expect_eq "$([ -e "$b/field_256.dat" ] && echo kept || echo removed)" removed \
    "the field file goes once plotted"
  # field.png is of a run of its own, which the summary names beside it.
  expect_eq "$(grep -cxF "*field.png: cpu's final field on 256x256 after 400 steps, a run made for the picture alone (no table holds it): the heat spread from the centre cell.*" "$b/summary.md")" 1 \
    "summary.md says which run field.png shows"
else
  skip "the PNG checks" "no python with matplotlib"
  expect_out_has "apt-get install python3-matplotlib" "says how to get the plots"
fi

# ---- a second run into the same folder appends -----------------------------------
run "${noplots[@]}" "$h" bench --sizes 16x16:3 --repeats 1 --warmups 0 --methods cpu,cpu --out "$b"
expect_rc 0 "second run into the folder"
expect_eq "$(grep -c '^method,' "$csv")" 1 "one header after appending"
expect_eq "$(($(wc -l <"$csv") - 1))" "$((n * 4 + 1))" "appended one row"
expect_eq "$(sed -n '/^## [0-9]/,$p' "$summary" | awk -F'|' '$2 == " cpu " {gsub(/ /, "", $4); print $4}' | head -n 1)" 3 \
  "the summary pools both runs"
expect_eq "$(grep -c '^RUN=' "$b/environment.txt")" 2 "environment.txt has both runs"

# ---- a failing method is reported, dropped at that size, and the rest go on -------
# (HEAT2D_FAULT_METHOD limits the NaN hook to omp: a method that fails mid-run)
if have_method "$h" omp "a method that fails mid-run"; then
  run "${noplots[@]}" env HEAT2D_FAULT_NAN_AT_STEP=2 HEAT2D_FAULT_METHOD=omp "$h" bench --sizes 16x16:3,24x20:5 \
    --repeats 2 --warmups 0 --methods cpu,omp --out "$w/f"
  expect_rc 1 "a failed trial fails the bench"
  expect_eq "$(grep -c 'failed: .*is dropped at this size' <<<"$err")" 2 "each failure once"
  expect_err_has "omp 16x16/3 trial 1/2 failed: run: non-finite value at cell (14, 14) after step 2" \
    "the child's own reason is shown"
  expect_eq "$(($(wc -l <"$w/f/trials.csv") - 1))" 4 "the other method still ran at both sizes"
  expect_eq "$(grep -c '^- FAILED: ' "$w/f/summary.md")" 2 "summary lists the failures"
fi

# ---- refused up front: every size is checked against memory before any runs ------
mem_source=$("$h" info | sed -n 's/^MEMORY_LIMIT_SOURCE=//p')
mem_gb=$("$h" info | sed -n 's/^MEMORY_LIMIT_BYTES=//p' | awk '{ printf "%.3g", $1 / 1e9 }')
if [ "$mem_source" = "physical memory" ]; then mem_text="this machine's $mem_gb GB of memory"
else mem_text="the $mem_gb GB $mem_source allows"; fi
expect_failure 1 "heat2d: bench: grid 3000000x3000000 needs 2 x 7.2e+04 GB, more than $mem_text" \
  "$h" bench --sizes 16x16:3,3000000x3000000:1 --methods cpu --out "$w/toolarge"
expect_eq "$(test -e "$w/toolarge" && echo made)" "" "an impossible second size: refused before the folder is made"
expect_failure 1 "heat2d: bench: grid 4294967296x4294967296 is too large: nx*ny*8 bytes overflows" \
  "$h" bench --sizes 4294967296x4294967296:1 --methods cpu --out "$w/toolarge"

# ---- a folder that is not a bench's own: refused, nothing touched --------------------
mkdir "$w/mine"
echo precious >"$w/mine/summary.md"
echo notes >"$w/mine/notes.txt"
expect_failure 1 "heat2d: bench: --out $w/mine is not a heat2d bench folder: it holds summary.md, which the bench would replace, and no trials.csv; choose a new or empty folder" \
  "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/mine"
rm "$w/mine/summary.md"
expect_failure 1 "heat2d: bench: --out $w/mine is not a heat2d bench folder: it holds notes.txt and no trials.csv; choose a new or empty folder" \
  "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/mine"
expect_eq "$(ls -A "$w/mine")/$(cat "$w/mine/notes.txt")" "notes.txt/notes" "the user's folder: as it was"

# ---- the bench's own files: read-only refused up front, modes kept -------------------
mkdir "$w/ro"
run "${noplots[@]}" "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/ro"
expect_rc 0 "a bench folder made"
echo precious >"$w/ro/summary.md"
chmod 444 "$w/ro/summary.md"
expect_failure 1 "heat2d: bench: cannot write bench file '$w/ro/summary.md': it is read-only (mode 444)" \
  "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/ro"
expect_eq "$(cat "$w/ro/summary.md")/$(stat -c %a "$w/ro/summary.md")/$(tail -n +2 "$w/ro/trials.csv" | wc -l)" \
  "precious/444/1" "a read-only summary.md: nothing run, nothing written, the file intact"
chmod 600 "$w/ro/summary.md"
run "${noplots[@]}" "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/ro"
expect_eq "$rc/$(stat -c %a "$w/ro/summary.md")/$(grep -c '^## 16x16, 3 steps' "$w/ro/summary.md")" "0/600/1" \
  "a private summary.md is replaced and stays private"
# field.png's field is written where only the bench looks: a field_256.dat
# in the folder (here a link to a file of the user's) is never touched, and
# no scratch folder is left.
echo "the user's" >"$w/users_field"
ln -s "$w/users_field" "$w/ro/field_256.dat"
mkdir "$w/tmp"
run env TMPDIR="$w/tmp" "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/ro"
expect_rc 0 "a bench beside a field_256.dat of the user's"
expect_eq "$(cat "$w/users_field")/$(readlink "$w/ro/field_256.dat")/$(ls -A "$w/tmp")" \
  "the user's/$w/users_field/" "the user's field_256.dat and what it points to: as they were; no scratch left"
if have_matplotlib "field.png beside the user's field_256.dat"; then
  expect_out_has "PLOT=$w/ro/field.png" "field.png made from the bench's own field"
fi

# ---- closed standard streams: nothing lands in trials.csv -----------------------------
run "${noplots[@]}" bash -c '"$@" >&-' - "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/closed"
expect_rc 1 "bench with stdout closed"
expect_eq "$(tail -n 1 <<<"$err")" "heat2d: standard output was closed: the output was lost" \
  "bench with stdout closed: said at the end"
expect_eq "$(grep -vc '^cpu,' "$w/closed/trials.csv")" 1 "bench with stdout closed: trials.csv holds its header and rows only"
run "${noplots[@]}" bash -c '"$@" 2>&-' - "$h" bench --sizes 16x16:3 --methods cpu --repeats 1 --warmups 0 --out "$w/closed"
expect_rc 0 "bench with stderr closed"
expect_eq "$(grep -vc '^cpu,' "$w/closed/trials.csv")" 1 "bench with stderr closed: no progress line in trials.csv"
expect_eq "$(grep -c '^cpu,' "$w/closed/trials.csv")" 2 "bench with stderr closed: the two runs' rows"

# ---- the time budget: a method's runs at a size stop at --budget seconds ---
# (after one trial; no warm-up once a run is known not to fit); the summary
# says which. A budget no run fits in leaves one trial a method and size.
run "${noplots[@]}" "$h" bench --methods cpu --sizes 16x16:3,24x20:5 --repeats 3 --warmups 1 --budget 0.000001 \
  --out "$w/budget"
expect_rc 0 "bench --budget"
expect_eq "$(awk -F, 'NR > 1 {print $3 "x" $4 "/" $2}' "$w/budget/trials.csv" | paste -sd' ')" \
  "16x16/1 24x20/1" "one trial a size within a budget no run fits"
expect_eq "$(grep -c '^- Fewer trials at 16x16/3, .*: cpu 1 of 3\. Every trial: heat2d bench --full\.$' "$w/budget/summary.md")" 1 \
  "the summary names the cut at the first size"
expect_eq "$(grep -c '^- Fewer trials at 24x20/5, .*: cpu 1 of 3 (no warm-up)\. Every trial: heat2d bench --full\.$' "$w/budget/summary.md")" 1 \
  "and at the second, without its warm-up"
expect_eq "$(grep -c '^BENCH_BUDGET_S=1e-06$' "$w/budget/environment.txt")" 1 "environment.txt records the budget"
run "${noplots[@]}" "$h" bench --methods cpu --sizes 16x16:3 --repeats 3 --warmups 0 --budget 0.000001 --full \
  --out "$w/full"
expect_rc 0 "bench --full"
expect_eq "$(($(wc -l <"$w/full/trials.csv") - 1))" 3 "--full: every trial"
expect_eq "$(grep -c '^- Fewer trials' "$w/full/summary.md" || true)" 0 "--full: nothing cut"

# ---- refusals: one line, the right status, nothing written ------------------------
touch "$w/file"
run "$h" bench --sizes 16x16:3 --out "$w/file/sub"
expect_rc 1 "unwritable --out"
expect_err_lines 1 "unwritable --out"
expect_err_has "cannot create $w/file/sub" "unwritable --out says so"

refuse() { # WANT_TEXT ARGS...
  local text=$1
  shift
  run "$h" bench --out "$w/never" "$@"
  expect_rc 2 "bench $*"
  expect_err_lines 1 "bench $*"
  expect_err_has "$text" "bench $*"
}
refuse "--sizes '12x': expected NXxNY:STEPS" --sizes 12x
refuse "--sizes '0x5:3': nx must be a positive integer, got '0'" --sizes 0x5:3
refuse "--sizes '5x5': expected NXxNY:STEPS" --sizes 5x5
refuse "--sizes '5x5:0': steps must be a positive integer, got '0'" --sizes 5x5:0
refuse "--sizes 'axb:3': nx must be a positive integer, got 'a'" --sizes axb:3
refuse "nx and ny must be >= 5" --sizes 4x5:3
refuse "empty size in --sizes '16x16:3,'" --sizes 16x16:3,
refuse "unknown method 'nosuch' in --methods" --methods cpu,nosuch
refuse "unknown method 'cpu-pinned' in --methods" --methods cpu-pinned
refuse "--methods 'cpu,' has an empty name" --methods cpu,
refuse "--repeats must be a positive integer, got '0'" --repeats 0
refuse "--budget must be a non-negative number" --budget -1
refuse "--warmups must be a non-negative integer, got '-1'" --warmups -1
refuse "unknown option '--bogus'" --bogus
for script in /nonexistent "$w/none/plot_bench.py"; do
  HEAT2D_PLOT_SCRIPT=$script refuse "heat2d: bench: HEAT2D_PLOT_SCRIPT=$script: No such file or directory" \
    --methods cpu --sizes 8x8:1
done
expect_eq "$(test -e "$w/never" && echo made || echo none)" none "a refused bench makes no folder"
# A size given twice runs once, as every other list; a run of zeros is zero
# warm-ups.
for warmups in 00 000; do
  run "${noplots[@]}" "$h" bench --methods cpu --sizes 8x8:1,9x8:2,8x8:1 --repeats 1 --warmups "$warmups" \
    --out "$w/dup-$warmups"
  expect_rc 0 "bench --warmups $warmups, a size given twice"
  expect_eq "$(tail -n +2 "$w/dup-$warmups/trials.csv" | wc -l)" 2 "--sizes 8x8:1,9x8:2,8x8:1: two trials"
  expect_err_has "8x8/1: 1 method(s), 0 warm-up(s) + 1 trial(s) each" "--warmups $warmups: none"
done
refuse "unknown option '--metods' (did you mean --methods?)" --metods cpu
refuse "option '--full' takes no value, got '--full=1'" --full=1
refuse "unexpected argument 'extra'" extra
refuse "--ranks '0': each item must be a positive integer" --methods cpu --ranks 0
refuse "--ranks '1,,2': each item must be a positive integer" --methods cpu --ranks 1,,2
refuse "--ranks needs a distributed method in --methods" --methods cpu --ranks 2
refuse "--ranks needs a distributed method in --methods" --ranks 2
refuse "--weak needs --ranks" --methods cpu --weak 24x20:5
refuse "--weak takes one size per rank" --methods cpu --ranks 1 --weak 24x20:5,8x8:1
refuse "--halo-depth needs --ranks" --methods cpu --halo-depth 2
refuse "--precision 'f64,': each item must be f64 or f32" --methods cpu --precision f64,
refuse "--precision 'F32': each item must be f64 or f32" --methods cpu --precision F32
run "$h" bench --out "$w/never" --methods cpu --precision f64,f16
expect_rc 2 "bench --precision f64,f16"
expect_eq "$err" "heat2d: bench: --precision 'f64,f16': each item must be f64 or f32, e.g. f64,f32" \
  "bench --precision f64,f16: the one line"
expect_eq "$([ -e "$w/never" ] && echo created || echo absent)" absent "no folder for a bad command"

# A method that fails mid-run (here a NaN injected at step 3 into omp's
# field, standing for a GPU error) is reported, dropped for that size, and
# the others go on; the exit status says something failed.
if have_method "$bin/heat2d" omp "a method that fails mid-run, dropped at each size"; then
  run "${noplots[@]}" env HEAT2D_FAULT_NAN_AT_STEP=3 HEAT2D_FAULT_METHOD=omp \
    "$bin/heat2d" bench --methods cpu,omp --sizes 16x16:5,24x20:6 --repeats 2 --warmups 0 \
    --out "$w/faulty"
  expect_rc 1 "bench with a failing method"
  expect_err_has "omp 16x16/5 trial 1/2 failed: run: non-finite value at cell (14, 14) after step 3 (exit status 1)" \
    "the failure is named with its step"
  expect_eq "$(awk -F, 'NR > 1 {print $1}' "$w/faulty/trials.csv" | sort | uniq -c | awk '{print $2 "=" $1}' | paste -sd' ')" \
    "cpu=4" "cpu finished every trial, omp none"
  expect_eq "$(grep -c '^- FAILED: omp at ' "$w/faulty/summary.md")" 2 "summary lists omp's failure at each size"
fi

# SIGINT or SIGTERM: the running child is ended, trials.csv keeps every
# finished trial and no torn row, the summary says what happened.
for sig in INT TERM; do
  d=$w/interrupted-$sig
  "$bin/heat2d" bench --methods cpu --sizes 128x128:300 --repeats 100000 --warmups 0 --out "$d" \
    >/dev/null 2>"$w/sig.err" &
  pid=$!
  for _ in $(seq 100); do
    [ -f "$d/trials.csv" ] && [ "$(wc -l <"$d/trials.csv")" -gt 3 ] && break
    sleep 0.1
  done
  kill -"$sig" "$pid"
  set +e; wait "$pid"; status=$?; set -e
  expect_eq "$status" "$((128 + $(kill -l "$sig")))" "SIG$sig: exit status 128+signal"
  rows=$(($(wc -l <"$d/trials.csv") - 1))
  expect_eq "$(grep -c "keeps the $rows trial(s) that finished" "$w/sig.err")" 1 \
    "SIG$sig: the message counts the kept trials"
  expect_eq "$(awk -F, '{print NF}' "$d/trials.csv" | sort -u)" "$(head -n 1 "$d/trials.csv" | awk -F, '{print NF}')" \
    "SIG$sig: every row complete"
  expect_eq "$(tail -c 1 "$d/trials.csv" | od -An -c | tr -d ' ')" '\n' "SIG$sig: no torn last row"
  expect_eq "$(grep -c '^- Interrupted by signal' "$d/summary.md")" 1 "SIG$sig: the summary says so"
done

# Trials die with their bench. A trial leads a process group of its own,
# which a stop signal ends; killed outright (SIGKILL, nothing to catch), the
# bench still takes its trial with it (the kernel's parent-death signal).
# The long trial is one `heat2d run` that would take half a minute.
long=(--methods cpu --sizes 1024x1024:20000 --repeats 1 --warmups 0)
# trial_of PID: the pid of bench PID's long trial, once it runs (not the
# short runs by which the bench finds what can run here).
trial_of() {
  local c
  for _ in $(seq 150); do
    for c in $(pgrep -P "$1" || true); do
      if tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline" | grep -q ' run .* --steps 20000 '; then
        echo "$c"
        return
      fi
    done
    sleep 0.1
  done
}
# group_alive G: how many processes live that are G or in group G (a zombie
# is dead: the container's init may never reap it).
group_alive() { ps -eo pid=,pgid=,stat= | awk -v g="$1" '($1 == g || $2 == g) && $3 !~ /^Z/' | wc -l; }
"$h" bench "${long[@]}" --out "$w/killed" >/dev/null 2>&1 &
pid=$!
trial=$(trial_of "$pid")
expect_eq "$([ -n "$trial" ] && echo running)" running "SIGKILL: the long trial runs"
expect_eq "$(ps -o pgid= -p "${trial:-none}" | tr -d ' ')" "${trial:-none}" \
  "a trial leads its own process group"
kill -KILL "$pid"
set +e; { wait "$pid"; } 2>/dev/null; set -e
for _ in $(seq 20); do
  [ "$(group_alive "${trial:-none}")" = 0 ] && break
  sleep 0.1
done
expect_eq "$(group_alive "${trial:-none}")" 0 "SIGKILL to the bench: its trial is gone within 2 s"
# SIGTERM: the trial's group is ended before the bench goes, and the bench
# dies by the signal (perl says how its child ended: bash's 143 would not).
perl -e 'system(@ARGV); print(($? & 127) ? "signal " . ($? & 127) : "exit " . ($? >> 8), "\n")' \
  "$h" bench "${long[@]}" --out "$w/termed" >"$w/how" 2>"$w/term.err" &
perl_pid=$!
pid=""
for _ in $(seq 50); do
  pid=$(pgrep -P "$perl_pid" || true)
  [ -n "$pid" ] && break
  sleep 0.1
done
trial=$(trial_of "${pid:-none}")
expect_eq "$([ -n "$trial" ] && echo running)" running "SIGTERM: the long trial runs"
[ -n "$pid" ] && kill -TERM "$pid"
wait "$perl_pid"
expect_eq "$(tail -n 1 "$w/how")" "signal 15" "SIGTERM: the bench dies by the signal"
expect_eq "$(group_alive "${trial:-none}")" 0 "SIGTERM: the trial's group is gone with the bench"
expect_eq "$(cat "$w/term.err")" "heat2d: bench: 1024x1024/20000: 1 method(s), 0 warm-up(s) + 1 trial(s) each
heat2d: bench: interrupted by signal 15: $w/termed/trials.csv keeps the 0 trial(s) that finished" \
  "SIGTERM: the bench's lines"

# The plotting helpers have a time limit (HEAT2D_PLOT_TIMEOUT seconds here):
# a python whose matplotlib probe hangs, or whose plotting hangs, is killed
# with its process group, the plots are skipped and the bench's status is
# what the trials make it. The fake python3 comes first on PATH.
mkdir "$w/fakebin"
cat >"$w/fakebin/python3" <<FAKE
#!/bin/sh
echo \$\$ >>"$w/fakepy.pids"
[ "\$1" = -c ] && [ -e "$w/probe-ok" ] && exit 0
exec sleep 60
FAKE
chmod +x "$w/fakebin/python3"
tiny=(--methods cpu --sizes 8x8:1 --repeats 1 --warmups 0)
run env -u HEAT2D_PYTHON PATH="$w/fakebin:$PATH" HEAT2D_PLOT_TIMEOUT=1 "$h" bench "${tiny[@]}" \
  --out "$w/hung-probe"
expect_rc 0 "a hung matplotlib probe: the bench still succeeds"
expect_eq "$(grep '^heat2d: bench: plots' <<<"$err")" \
  "heat2d: bench: plots skipped: $w/fakebin/python3 -c 'import matplotlib' timed out after 1 s" \
  "a hung probe: the one line"
expect_eq "$(grep -c "^- Plots skipped: $w/fakebin/python3 -c 'import matplotlib' timed out after 1 s" \
  "$w/hung-probe/summary.md")" 1 "a hung probe: the summary says so"
touch "$w/probe-ok"
script=$(cd "$(dirname "$0")/../tools" && pwd)/plot_bench.py
run env -u HEAT2D_PYTHON PATH="$w/fakebin:$PATH" HEAT2D_PLOT_TIMEOUT=1 HEAT2D_PLOT_SCRIPT="$script" \
  "$h" bench "${tiny[@]}" --out "$w/hung-plot"
expect_rc 0 "a hung plotter: the bench still succeeds"
expect_eq "$(grep '^heat2d: bench: plots' <<<"$err")" \
  "heat2d: bench: plots skipped: $w/fakebin/python3 $script timed out after 1 s" "a hung plotter: the one line"
expect_eq "$(grep -c "^- Plots skipped: $w/fakebin/python3 $script timed out after 1 s" "$w/hung-plot/summary.md")" \
  1 "a hung plotter: the summary says so"
left=0
for p in $(cat "$w/fakepy.pids"); do
  [ "$(group_alive "$p")" = 0 ] || left=$((left + 1))
done
expect_eq "$(wc -l <"$w/fakepy.pids") $left" "3 0" "the helpers ran (probe, probe, plotter), none is left"
# SIGTERM while the plotter runs: it is ended with the bench, and that is no
# failure of the script.
: >"$w/fakepy.pids"
env -u HEAT2D_PYTHON PATH="$w/fakebin:$PATH" HEAT2D_PLOT_SCRIPT="$script" "$h" bench "${tiny[@]}" \
  --out "$w/plot-stopped" >/dev/null 2>"$w/plot-stopped.err" &
pid=$!
for _ in $(seq 100); do
  [ "$(wc -l <"$w/fakepy.pids")" -ge 2 ] && break
  sleep 0.1
done
kill -TERM "$pid"
set +e; wait "$pid"; status=$?; set -e
expect_eq "$status" 143 "SIGTERM during the plots: 128+15"
expect_eq "$(grep -c 'plots failed' "$w/plot-stopped.err" || true)" 0 "no 'plots failed' line"
expect_eq "$(grep -c '^- Plots skipped: interrupted by signal 15\.' "$w/plot-stopped/summary.md")" 1 \
  "the summary says the plots were interrupted"
expect_eq "$(group_alive "$(tail -n 1 "$w/fakepy.pids")")" 0 "the plotter is gone"
expect_failure 2 "heat2d: bench: HEAT2D_PLOT_TIMEOUT must be a positive number of seconds, got '0'" \
  env HEAT2D_PLOT_TIMEOUT=0 "$h" bench "${tiny[@]}" --out "$w/never"

# Run ids are unique to a bench, even for two started in the same second:
# the summary counts the runs in a folder by them.
run_of() { awk -F, -v c="$(col "$(head -n 1 "$1")" run)" 'NR > 1 {print $c}' "$1" | sort -u; }
HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$w/id1" >/dev/null 2>&1 &
p1=$!
HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$w/id2" >/dev/null 2>&1 &
p2=$!
wait "$p1"
wait "$p2"
id1=$(run_of "$w/id1/trials.csv") id2=$(run_of "$w/id2/trials.csv")
expect_eq "$(grep -cE '^[0-9]{8}-[0-9]{6}-[0-9]+-[0-9a-f]{4}$' <<<"$id1
$id2")" 2 "run ids are YYYYMMDD-HHMMSS-PID-XXXX"
expect_eq "$([ "$id1" != "$id2" ] && echo differ)" differ "two benches started together: ids differ"
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$w/id1"
expect_rc 0 "a second bench into the folder right after the first"
expect_eq "$(run_of "$w/id1/trials.csv" | wc -l)" 2 "two consecutive benches: two run ids"
expect_eq "$(grep -c '^trials.csv in this folder holds 2 trials from 2 runs; the tables pool them.$' \
  "$w/id1/summary.md")" 1 "the summary counts two runs"

# trials.csv is a ledger: one bench at a time. A second bench into the
# folder of a running one is refused up front and writes nothing there;
# the first one's file keeps one header and only its own rows.
d=$w/ledger
"$h" bench --methods cpu --sizes 8x8:1,1024x1024:20000 --repeats 1 --warmups 0 --out "$d" \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -f "$d/trials.csv" ] && [ "$(wc -l <"$d/trials.csv")" -ge 2 ] && break
  sleep 0.1
done
trial=$(trial_of "$pid")
before=$(cd "$d" && ls -l --time-style=+%s.%N && md5sum -- *)
run "$h" bench "${tiny[@]}" --out "$d"
expect_rc 1 "a second bench into a running bench's folder"
expect_eq "$err" "heat2d: bench: $d/trials.csv is in use by another bench (pid $pid); wait for it or choose another --out" \
  "a second bench: the one line names the first"
expect_eq "$(cd "$d" && ls -l --time-style=+%s.%N && md5sum -- *)" "$before" \
  "a second bench writes nothing into the folder"
kill -TERM "$pid"
set +e; { wait "$pid"; } 2>/dev/null; set -e
expect_eq "$(grep -c '^method,' "$d/trials.csv") $(wc -l <"$d/trials.csv")" "1 2" \
  "the first bench's file: one header, its one row"
expect_eq "$(run_of "$d/trials.csv")" "$(sed -n 's/^RUN=//p' "$d/environment.txt")" \
  "the row is the first bench's, and environment.txt has its run alone"

# A last line cut short (a crash mid-write) is set aside into
# trials.torn.csv, never glued to; the whole rows before it stay as they were.
d=$w/torn
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
good=$(cat "$d/trials.csv")
torn_tail='cpu,1,8,8,1,2.1739997464464977E-06,1.00000'
printf '%s' "$torn_tail" >>"$d/trials.csv"
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
expect_rc 0 "a bench after a torn last line"
expect_eq "$(head -n 2 "$d/trials.csv")" "$good" "the whole rows before the torn line are intact"
expect_eq "$(wc -l <"$d/trials.csv") $(run_of "$d/trials.csv" | wc -l)" "3 2" \
  "the new row follows them: two runs, one row each"
expect_eq "$(awk -F, '{print NF}' "$d/trials.csv" | sort -u)" \
  "$(head -n 1 "$d/trials.csv" | awk -F, '{print NF}')" "no row glued onto the torn line"
expect_eq "$(od -An -c "$d/trials.torn.csv" | tr -d ' \n')" \
  "$(printf '%s\n' "$torn_tail" | od -An -c | tr -d ' \n')" "trials.torn.csv holds the torn bytes"
expect_eq "$(grep -c "^- Set aside: the last line of trials.csv was cut short (1 line, ${#torn_tail} bytes, a write that did not finish); it is appended to $d/trials.torn.csv, and this run's rows follow the last whole row.$" \
  "$d/summary.md")" 1 "the summary says what was set aside and where"
expect_eq "$(sed -n '/^## [0-9]/,$p' "$d/summary.md" | awk -F'|' '$2 == " cpu " {gsub(/ /, "", $4); print $4}' | head -n 1)" 2 \
  "the summary counts both runs' trials"

# A file holding our header alone without its newline: the header is whole,
# it gets its newline; the bench's trial is counted.
d=$w/header-only
mkdir "$d"
printf '%s' "$(head -n 1 "$w/torn/trials.csv")" >"$d/trials.csv"
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
expect_rc 0 "a bench into a header without its newline"
expect_eq "$(head -n 1 "$d/trials.csv")" "$(head -n 1 "$w/torn/trials.csv")" "the header stays"
expect_eq "$(wc -l <"$d/trials.csv") $([ -e "$d/trials.torn.csv" ] && echo torn || echo none)" \
  "2 none" "one row after it, nothing set aside"
expect_eq "$(sed -n '/^## [0-9]/,$p' "$d/summary.md" | awk -F'|' '$2 == " cpu " {gsub(/ /, "", $4); print $4}' | head -n 1)" 1 \
  "the summary counts the new trial"
expect_eq "$(grep -c '^No trial finished' "$d/summary.md" || true)" 0 "nor says none finished"
# A header cut short is set aside, and the file begins anew.
d=$w/torn-header
mkdir "$d"
head -c 100 "$w/torn/trials.csv" >"$d/trials.csv"
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$d"
expect_rc 0 "a bench into a header cut short"
expect_eq "$(head -c 100 "$d/trials.torn.csv")" "$(head -c 100 "$w/torn/trials.csv")" \
  "the torn header is set aside"
expect_eq "$(wc -l <"$d/trials.csv")" 2 "trials.csv begins anew: header and the new row"
expect_eq "$(grep -c "^- Set aside: trials.csv held only a header cut short (1 line, 100 bytes" \
  "$d/summary.md")" 1 "the summary says so"
# Text without a newline that is no header of ours is not touched.
d=$w/not-ours
mkdir "$d"
printf 'a,b,c' >"$d/trials.csv"
expect_failure 1 "heat2d: bench: $d/trials.csv has other columns (another heat2d version?); choose another --out" \
  "$h" bench "${tiny[@]}" --out "$d"
expect_eq "$(cat "$d/trials.csv")|$(ls "$d" | paste -sd' ')" "a,b,c|trials.csv" \
  "a file not ours without a newline: left as it was, nothing beside it"

# A folder written before --ranks (the three ranks columns missing) is not
# appended to: its rows would not line up with the header.
mkdir "$w/old"
head -n 1 "$csv" | cut -d, -f1-27 >"$w/old/trials.csv"
run "$h" bench --sizes 16x16:3 --repeats 1 --warmups 0 --methods cpu --out "$w/old"
expect_rc 1 "append to a CSV from before --ranks"
expect_err_lines 1 "append to a CSV from before --ranks"
expect_err_has "has the columns of a heat2d before --ranks" "the old header is named"

# Nor is one written before --precision (the ranks columns, no precision).
mkdir "$w/pre-precision"
head -n 1 "$csv" | cut -d, -f1-30 >"$w/pre-precision/trials.csv"
run "$h" bench --sizes 16x16:3 --repeats 1 --warmups 0 --methods cpu --out "$w/pre-precision"
expect_rc 1 "append to a CSV from before --precision"
expect_eq "$err" "heat2d: bench: $w/pre-precision/trials.csv has the columns of a heat2d before --precision (no precision); choose another --out" \
  "the header without precision is named"
expect_eq "$(wc -l <"$w/pre-precision/trials.csv")" 1 "nothing appended to it"

# ---- --precision: each method in f64 and in f32, f32 its own rows ----------------
pm=cpu
if "$h" methods | grep -q '^omp '; then pm=cpu,omp; fi
p=$w/precision
run "$h" bench --methods "$pm" --precision f64,f32 --sizes 16x16:3 --repeats 2 --warmups 0 \
  --out "$p"
expect_rc 0 "bench --precision f64,f32"
ph=$(head -n 1 "$p/trials.csv")
# Columns only grow at the end: precision stays at 31, after the ranks
# columns; the label, every table's name for a row, then halo_depth (bench
# --halo-depth), then snapshot_writer and snapshot_bytes_written (bench
# --snapshot-writer), then program (bench --program), each appended after
# the last, are the last five.
expect_eq "$(cut -d, -f30,31 <<<"$ph")" "halo_bytes_per_step,precision" \
  "precision is column 31, after the ranks columns"
expect_eq "$(tr ',' '\n' <<<"$ph" | tail -n 5 | paste -sd,)" \
  "label,halo_depth,snapshot_writer,snapshot_bytes_written,program" \
  "label, halo_depth, the writer's columns, then a program's path are the last"
cp=$(col "$ph" precision)
want=""
for m in ${pm//,/ }; do want+="2 $m f32;2 $m f64;"; done
expect_eq "$(awk -F, -v c="$cp" 'NR > 1 {print $1, $c}' "$p/trials.csv" | sort | uniq -c |
  awk '{print $1, $2, $3}' | paste -sd';')" "${want%;}" \
  "two trials of each method in each precision; the method column has no -f32"
want=""
for m in ${pm//,/ }; do want+="$m,$m-f32,"; done
expect_eq "$(sed -n 's/^BENCH_METHODS=//p' "$p/environment.txt")" "${want%,}" \
  "each method followed by its -f32 twin"
ps=$p/summary.md
for m in ${pm//,/ }; do
  # The size table and the headline: one row each for m and m-f32.
  expect_eq "$(grep -c "^| $m-f32 | host" "$ps")" 2 "$m-f32 has its own rows"
  expect_eq "$(sed -n '/^## [0-9]/,$p' "$ps" | awk -F'|' -v m=" $m-f32 " '$2 == m {gsub(/ /, "", $4); print $4}' | head -n 1)" \
    2 "$m-f32 pools its own two trials"
  expect_eq "$(grep -cE "^\| $m-f32 \| [0-9.e+-]+ ms \| .* \| host memory, 8 B/cell(, measured on a busy machine)? \| [0-9.e+-]+ ms \| [0-9]+%( \([a-z ,]+\))? \|$" "$ps")" \
    1 "$m-f32 against host memory at 8 B/cell"
  expect_eq "$(grep -cE "^\| $m \| [0-9.e+-]+ ms \| .* \| host memory, 16 B/cell(, measured on a busy machine)? \| [0-9.e+-]+ ms \| [0-9]+%( \([a-z ,]+\))? \|$" "$ps")" \
    1 "$m against host memory at 16 B/cell"
  # GB/s: nx*ny*steps x the row's bytes per cell-step (8 in f32, 16 in f64)
  # over the median of the row's own trials, written as summary.md writes it.
  for row in "f32 $m-f32 8" "f64 $m 16"; do
    read -r prec label bytes <<<"$row"
    want=$(awk -F, -v c="$cp" -v m="$m" -v p="$prec" 'NR > 1 && $1 == m && $c == p {print $6}' \
      "$p/trials.csv" | sort -g | awk -v b="$bytes" '{v[NR] = $1} END {
        r = 16 * 16 * 3 * b / ((v[1] + v[2]) / 2) / 1e9
        if (r >= 1000) printf "%.0f", r; else if (r >= 10 || r < 0.1) printf "%.3g", r
        else printf "%.2f", r }')
    expect_eq "$(awk -F'|' -v m=" $label " '$2 == m && NF == 11 {gsub(/ /, "", $8); print $8}' "$ps" |
      head -n 1)" "$want" "$label: GB/s counts $bytes bytes a cell-step"
  done
done
expect_eq "$(grep -c '^A -f32 row computed in single precision' "$ps")" 1 "the summary says what -f32 counts"
expect_eq "$(grep -c '^A -f32 row' "$summary")" 0 "an f64-only summary does not"
if [ "$have_mpl" = yes ]; then
  # The plots read the precision column: f32 rows are lines and bars of their own.
  want=""
  for m in ${pm//,/ }; do want+="$m $m-f32 "; done
  expect_eq "$("$py" -c 'import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1])
import plot_bench
print(" ".join(plot_bench.method_order(plot_bench.read_trials(Path(sys.argv[2])))))' \
    "$(dirname "$0")/../tools" "$p")" "${want% }" "plot_bench.py labels f32 rows METHOD-f32"
  expect_eq "$(head -c 8 "$p/headline.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" \
    "89504e470d0a1a0a" "headline.png with f32 rows is a PNG"
else
  skip "the plots of f32 rows" "no python with matplotlib"
fi

# ---- --ranks: a distributed method under mpirun, P ranks per trial ---------------
if ! have_method "$h" mpi-cpu "--ranks (configure with -DHEAT2D_MPI=ON)"; then
  : # said
elif ! command -v mpirun >/dev/null; then
  skip "--ranks" "no mpirun on PATH"
else
  r=$w/ranks
  run "$h" bench --methods mpi-cpu --ranks 1,2 --sizes 24x20:5 --weak 24x20:5 \
    --repeats "$mpi_repeats" --warmups 0 --out "$r"
  expect_rc 0 "bench --ranks 1,2"
  rh=$(head -n 1 "$r/trials.csv")
  expect_eq "$(cut -d, -f28-30 <<<"$rh")" \
    "ranks,decomp,halo_bytes_per_step" "the ranks columns are 28 to 30, after the original's"
  cr=$(col "$rh" ranks) cd=$(col "$rh" decomp) chb=$(col "$rh" halo_bytes_per_step)
  # The trials at each P, the method's own name, and what `heat2d run` reports:
  # 1 rank is 1x1 with no halo; 2 ranks split 24x20 into 2x1, whose one inner
  # edge moves 16 bytes (two fp64 rows, both ways) per cell of its length:
  # 16*((PX-1)*ny + (PY-1)*nx) = 16*20 = 320.
  expect_eq "$(awk -F, -v r="$cr" -v d="$cd" -v hb="$chb" 'NR > 1 {print $1, $r, $d, $hb}' \
    "$r/trials.csv" | sort | uniq -c | awk '{print $1, $2, $3, $4, $5}' | paste -sd';')" \
    "$mpi_repeats mpi-cpu 1 1x1 0;$((2 * mpi_repeats)) mpi-cpu 2 2x1 320" \
    "rows per P with decomposition and halo bytes"
  # --weak 24x20:5 at P=1 is the --sizes run already; at P=2 the grid is 48x20.
  expect_eq "$(awk -F, 'NR > 1 {print $3 "x" $4}' "$r/trials.csv" | sort | uniq -c |
    awk '{print $1, $2}' | paste -sd';')" "$((2 * mpi_repeats)) 24x20;$mpi_repeats 48x20" \
    "weak: 48x20 at 2 ranks, 24x20 not twice"
  one=$("$h" run --method mpi-cpu --nx 24 --ny 20 --steps 5)
  # bench adds these itself when root; a direct mpirun needs them here.
  two=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun -q --oversubscribe -np 2 "$h" run --method mpi-cpu --nx 24 --ny 20 --steps 5)
  expect_eq "$(sed -n 's/^DECOMP=//p;s/^HALO_BYTES_PER_STEP=//p' <<<"$two" | paste -sd' ')" \
    "2x1 320" "heat2d run on 2 ranks reports the same"
  expect_eq "$(sed -n 's/^DECOMP=//p;s/^HALO_BYTES_PER_STEP=//p' <<<"$one" | paste -sd' ')" \
    "1x1 0" "heat2d run on 1 rank reports the same"
  # The Scaling table: efficiency T1/(P*TP) from the CSV's medians.
  median() { sort -g | awk '{v[NR] = $1}
    END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
  med() { awk -F, -v r="$cr" -v p="$1" -v nx="$2" 'NR > 1 && $r == p && $3 == nx {print $6}' \
    "$r/trials.csv" | median; }
  t1=$(med 1 24) t2=$(med 2 24) w2=$(med 2 48)
  sc=$(awk '/^### Scaling of mpi-cpu at 24x20, 5 steps$/ {on = 1; next} /^##/ {on = 0}
    on && /^\| [0-9]/' "$r/summary.md")
  expect_eq "$(awk -F'|' '{gsub(/ /, ""); print $2, $3, $5}' <<<"$sc" | paste -sd';')" \
    "1 1x1 0;2 2x1 320" "Scaling table: P, decomposition, halo bytes"
  expect_eq "$(awk -F'|' '$2 == " 2 " {gsub(/ /, "", $7); print $7}' <<<"$sc")" \
    "$(awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.3f", a / (2 * b)}')" \
    "efficiency at P=2 is T1/(2*T2) of the CSV medians"
  # 24x20: p1 and p2; 48x20: p2; the headline (48x20, the largest): p2.
  expect_eq "$(grep -c '^| mpi-cpu-p[12] | host (' "$r/summary.md")" 4 \
    "each P is its own row in the size tables and the headline"
  wk=$(awk '/^### Weak scaling of mpi-cpu, 24x20 cells per rank, 5 steps$/ {on = 1; next}
    /^##/ {on = 0} on && /^\| [0-9]/' "$r/summary.md")
  expect_eq "$(awk -F'|' '{gsub(/ /, ""); print $2, $3, $4, $6}' <<<"$wk" | paste -sd';')" \
    "1 24x20 1x1 0;2 48x20 2x1 320" "Weak scaling table: P, grid, decomposition, halo bytes"
  expect_eq "$(awk -F'|' '$2 == " 2 " {gsub(/ /, "", $7); print $7}' <<<"$wk")" \
    "$(awk -v a="$t1" -v b="$w2" 'BEGIN {printf "%.3f", a / b}')" \
    "weak efficiency at P=2 is T1/T2 of the CSV medians"
  if [ "$have_mpl" = yes ]; then
    expect_eq "$(head -c 8 "$r/scaling.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" \
      "89504e470d0a1a0a" "scaling.png is a PNG"
  else
    skip "scaling.png" "no python with matplotlib"
  fi

  # --halo-depth 1,3: mpi-cpu at each depth on each P, its own rows
  # (METHOD-hK-pP; K=1 labelled as without the option), the depth in its
  # column as the run reported it, a scaling table per depth, and the table
  # of depths: T(K=1)/T(K) of the CSV medians at each P, one best K a P.
  refuse "--halo-depth '0,2': each item must be a positive integer" --methods mpi-cpu --ranks 2 \
    --halo-depth 0,2
  if have_method "$h" mpi-cuda "--halo-depth refused for mpi-cuda"; then
    refuse "--halo-depth needs a method that keeps deep halos in --methods" --methods mpi-cuda \
      --ranks 2 --halo-depth 2
  fi
  r=$w/halo-depth
  run "${noplots[@]}" "${no_leak_scan[@]}" "$h" bench --methods mpi-cpu --ranks 1,2 \
    --halo-depth 1,3 --sizes 24x20:6 \
    --repeats "$mpi_repeats" --warmups 0 --out "$r"
  expect_rc 0 "bench --ranks 1,2 --halo-depth 1,3"
  rh=$(head -n 1 "$r/trials.csv")
  cr=$(col "$rh" ranks) cl=$(col "$rh" label) ck=$(col "$rh" halo_depth)
  expect_eq "$(awk -F, -v r="$cr" -v l="$cl" -v k="$ck" 'NR > 1 {print $1, $r, $k, $l}' \
    "$r/trials.csv" | sort | uniq -c | awk '{print $1, $2, $3, $4, $5}' | paste -sd';')" \
    "$(for c in "1 1 mpi-cpu-p1" "1 3 mpi-cpu-h3-p1" "2 1 mpi-cpu-p2" "2 3 mpi-cpu-h3-p2"; do
      echo "$mpi_repeats mpi-cpu $c"; done | paste -sd';')" \
    "rows per P and depth: method, ranks, halo_depth, label"
  expect_eq "$(grep -c '^### Scaling of mpi-cpu\(-h3\)\? at 24x20, 6 steps$' "$r/summary.md")" 2 \
    "a scaling table for each depth"
  hd=$(awk '/^### Halo depth of mpi-cpu at 24x20, 6 steps$/ {on = 1; next} /^##/ {on = 0}
    on && /^\| [0-9]/' "$r/summary.md")
  expect_eq "$(awk -F'|' '{gsub(/ /, ""); print $2, $3}' <<<"$hd" | paste -sd';')" \
    "1 1;1 3;2 1;2 3" "the depth table: each P, then each K"
  medk() { awk -F, -v r="$cr" -v k="$ck" -v p="$1" -v d="$2" 'NR > 1 && $r == p && $k == d {print $6}' \
    "$r/trials.csv" | median; }
  # The ratio as the summary writes it (summary_ratio_text): 2 decimals from
  # 0.1 to 10, whole from 1000 (a loaded machine can make it that large),
  # else 3 significant digits.
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {x = a / b; if (x >= 1000) printf "%.0f", x; else if (x >= 10 || x < 0.1) printf "%.3g", x; else printf "%.2f", x}'; }
  for p in 1 2; do
    t_one=$(medk "$p" 1) t_deep=$(medk "$p" 3)
    expect_eq "$(awk -F'|' -v p="$p" '$2 == " " p " " && $3 == " 3 " {gsub(/ /, "", $5); print $5}' <<<"$hd")" \
      "$(ratio "$t_one" "$t_deep")" \
      "at P=$p, K=3 against K=1 is T(K=1)/T(K=3) of the CSV medians"
    best=$(awk -v a="$t_one" -v b="$t_deep" 'BEGIN {print (b < a) ? 3 : 1}')
    expect_eq "$(awk -F'|' -v p="$p" '$2 == " " p " " && $6 ~ /best/ {gsub(/ /, "", $3); print $3}' <<<"$hd")" \
      "$best" "at P=$p the best K is the one with the least median"
  done
fi

# Every method's loop is set against a measured limit.
expect_eq "$(grep -c '^HOST_COPY_GBS=' "$b/bandwidth.txt")" 1 "bench measured the host bandwidth"
expect_eq "$(grep -c '^| method | loop per step |' "$summary")" 2 "a limits table per size"
expect_eq "$(grep -cE '^\| cpu \| [0-9.e+-]+ ms \| .* \| host memory, 16 B/cell(, measured on a busy machine)? \| [0-9.e+-]+ ms \| [0-9]+%( \([a-z ,]+\))? \|$' "$summary")" 2 \
  "cpu against host memory bandwidth at both sizes"

# A plot is reported only when its file is an image: a plotter that names a
# file it wrote as text fails the bench, and the summary shows no picture.
if have_matplotlib "a plotter whose pictures are text"; then
  cat >"$w/textplot.py" <<'PY'
import sys, pathlib
folder = pathlib.Path(sys.argv[1])
for name in ("headline.png", "phases.png"):
    (folder / name).write_text("not an image\n")
    print(f"PLOT={folder / name}")
PY
  run env HEAT2D_PLOT_SCRIPT="$w/textplot.py" "$h" bench --methods cpu --sizes 8x8:1 --repeats 1 \
    --warmups 0 --out "$w/textplot"
  expect_rc 1 "a plotter whose pictures are text: a failure"
  expect_err_has "heat2d: bench: plots failed: it reported $w/textplot/headline.png, which is not an image" \
    "a plotter whose pictures are text: the line names the file"
  expect_out_lacks "PLOT=" "no picture that is not one is reported"
  expect_eq "$(grep -c '](headline.png)\|](phases.png)' "$w/textplot/summary.md")" 0 \
    "the summary shows neither text file as a picture"
  # A plotter that exits 0 and makes none of its pictures failed too.
  printf 'import sys\nsys.exit(0)\n' >"$w/lazy.py"
  run env HEAT2D_PLOT_SCRIPT="$w/lazy.py" "$h" bench "${tiny[@]}" --out "$w/lazy"
  made="exited 0 without making time_per_step.png, headline.png, phases.png, field.png"
  expect_eq "$rc/$(grep '^heat2d: bench: plots' <<<"$err")" "1/heat2d: bench: plots failed: $made" \
    "a plotter that makes nothing: a failure, its line"
  expect_eq "$(grep -c "^- FAILED: .* $w/lazy.py: $made\$" "$w/lazy/summary.md")" 1 \
    "a plotter that makes nothing: the summary says so"
fi

# ---- names cannot forge lines ----------------------------------------------------------------
# --out with a newline in its name: RESULTS=, CSV=, SUMMARY= and the notes
# that name the folder print it escaped, and no line is forged.
o=$w/$'o\nFORGED=1'
run env HEAT2D_PYTHON=false "$h" bench "${tiny[@]}" --out "$o"
expect_eq "$rc/$(grep -c '^FORGED=' <<<"$out" || true)" 0/0 "bench --out NAME<newline>...: no forged line"
expect_eq "$(grep '^RESULTS=\|^CSV=\|^SUMMARY=' <<<"$out")" "RESULTS=$w/o\\nFORGED=1
CSV=$w/o\\nFORGED=1/trials.csv
SUMMARY=$w/o\\nFORGED=1/summary.md" "bench --out: the folder's name escaped"
expect_eq "$(grep -c "^NOTE: Plots skipped .* then: python3 .*plot_bench.py $w/o\\\\nFORGED=1\$" <<<"$out")" 1 \
  "bench --out: a note naming the folder escapes it"

# ---- a requested axis that yields no rows is a note ----------------------------------------
if "$h" methods | grep -q '^acc-each '; then
  takers=$("$h" run --method acc-each --nx 8 --ny 8 --steps 2 --output-every 1 2>&1 |
    sed -n 's/.*(--output-every applies to \(.*\))$/\1/p')
  run "${noplots[@]}" "$h" bench --methods acc-each --output-every 1 --sizes 16x16:2 --repeats 1 \
    --warmups 0 --out "$w/no-axis"
  note="--output-every 1: no method in the list takes it (--output-every applies to $takers); it adds no rows."
  expect_eq "$rc/$(grep -c -- "^NOTE: $note\$" <<<"$out")/$(grep -c -- "^- $note\$" "$w/no-axis/summary.md")" \
    "0/1/1" "bench --output-every that no listed method takes: the note, on stdout and in the summary"
fi

# ---- a busy machine is said -------------------------------------------------------------------
# Other work on the cores (a busy loop on each, and one more) slows every
# method, and one spread over several cores (omp) most: the summary says so
# at the top, and omp's rows carry the warning; cpu's (one core) do not. A
# bench on a machine that stayed quiet (measured here as the bench measures
# it: the cores' busy time less the bench's own) has no such note.
# The bench judges only a size that lasts BENCH_LOAD_MIN_S (half a second):
# each run below doubles its steps until its methods' times alone add up to
# more than that, so that no assertion rests on a size left unjudged.
if "$h" methods | grep -q '^omp '; then
  busy_bench=(env HEAT2D_PYTHON=false "$h" bench --methods cpu,omp --repeats 1 --warmups 0)
  busy_steps=400
  # judged_run OUT: runs the bench at 512x512/$busy_steps into OUT, doubling
  # busy_steps until the trials' total_s sum past 0.6 s; rc as run's.
  judged_run() {
    for _ in 1 2 3 4 5 6 7 8; do
      rm -rf "$1"
      run "${busy_bench[@]}" --sizes "512x512:$busy_steps" --out "$1"
      [ "$rc" -eq 0 ] || return 0
      awk -F, -v c="$(col "$(head -n 1 "$1/trials.csv")" total_s)" \
        'NR > 1 {t += $c} END {exit !(t > 0.6)}' "$1/trials.csv" && return 0
      busy_steps=$((busy_steps * 2))
    done
    ko "busy: no size of 512x512 lasted the half second the bench judges (last: $busy_steps steps)"
  }
  stat_busy() { awk '/^cpu[0-9]/ {b += $2 + $3 + $4 + $7 + $8 + $9} END {print b}' /proc/stat; }
  t0=$(stat_busy)
  TIMEFORMAT='%R %U %S'
  { time judged_run "$w/quiet"; } 2>"$w/quiet.time"
  t1=$(stat_busy)
  other=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" \
    '{o = ((b - a) / hz - $2 - $3) / $1; printf "%.2f", o < 0 ? 0 : o}' "$w/quiet.time")
  if awk -v o="$other" 'BEGIN {exit !(o < 0.05)}'; then
    expect_eq "$rc/$(grep -ci 'busy machine' "$w/quiet/summary.md" || true)" 0/0 "a quiet machine: no note"
  else
    echo "note: other work kept $other cores busy during the quiet bench: its absence of a note is not asserted" >&2
  fi
  hogs=()
  for _ in $(seq $(($(nproc) + 1))); do
    yes >/dev/null &
    hogs+=($!)
  done
  judged_run "$w/busy"
  kill "${hogs[@]}"
  wait "${hogs[@]}" 2>/dev/null || true
  bs=$w/busy/summary.md
  expect_eq "$rc/$(grep -c "^\*\*Busy machine\*\*: other work kept cores busy while 512x512/$busy_steps ran ([0-9.]* of [0-9]* cores, on average); the load average was [0-9.]* when the bench started (environment.txt)\. " "$bs")" \
    0/1 "busy: the summary says so"
  expect_eq "$([ "$(grep -n '^\*\*Busy machine' "$bs" | cut -d: -f1)" -lt "$(grep -n '^## Headline' "$bs" | cut -d: -f1)" ] 2>/dev/null && echo top)" \
    top "busy: said at the top, before the headline"
  expect_eq "$(grep -c '^| cpu .*\*\*busy machine:' "$bs" || true)" 0 "busy: cpu's rows (one core) carry no warning"
  # The host bandwidth was measured beside the same work: its bound is
  # marked, with the share of the cores the probe had.
  expect_eq "$(awk -F= '$1 == "HOST_COPY_CPU_SHARE" {print ($2 < 0.8) ? "busy" : "quiet " $2}' "$w/busy/bandwidth.txt")" \
    busy "busy: the host probe had the cores part of the time"
  expect_eq "$(grep -cE '^\| cpu \| .* \| host memory, 16 B/cell, measured on a busy machine \| ' "$bs")" 1 \
    "busy: cpu's bound is marked as measured on a busy machine"
  if [ "$(grep -c '^| omp | host ([2-9][0-9]* threads)' "$bs" || true)" -gt 0 ]; then
    expect_eq "$(grep -cE '^\| omp \| host \([0-9]+ threads\), \*\*busy machine: other work on [0-9.]+ of [0-9]+ cores\*\* \|' "$bs")" \
      2 "busy: omp's rows (its size's and the headline's) carry the warning"
  fi
fi
finish
