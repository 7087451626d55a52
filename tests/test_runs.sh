#!/usr/bin/env bash
# heat2d run: the KEY=VALUE protocol, the transfer report and field files.
# usage: test_runs.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# The protocol in the original's order, then heat2d's keys.
run "$bin/heat2d" run --method cpu --nx 25 --ny 21 --steps 7 --save "$w/cpu.dat"
expect_rc 0 "run cpu"
expect_eq "$(grep -oE '^[A-Z_]+=' <<<"$out" | head -n 10 | tr -d '\n')" \
  "METHOD=NX=NY=MASS=CENTRE=MIN=MAX=TOTAL_S=CHECK=CPU_LOOP_S=" "cpu key order"
expect_eq "$(key METHOD)" "CPU_REFERENCE" "METHOD"
expect_eq "$(key NX)" "25" "NX"
expect_eq "$(key NY)" "21" "NY"
expect_eq "$(key STEPS)" "7" "STEPS"
expect_eq "$(key DEVICE)" "host" "cpu runs on the host"
expect_eq "$(key H2D_COUNT)/$(key D2H_COUNT)" "0/0" "cpu moves nothing"
expect_eq "$(tail -n 1 <<<"$out")" "FIELD_FILE=$w/cpu.dat" "FIELD_FILE last"
# Reals in %24.16E: two blanks before a positive mantissa.
expect_eq "$(grep '^MASS=' <<<"$out" | cut -c6- | wc -c | tr -d ' ')" "25" "MASS is 24 wide"
# The field file: header, then nx*ny values.
expect_eq "$(head -n 1 "$w/cpu.dat")" "25 21" "field header"
expect_eq "$(wc -l <"$w/cpu.dat" | tr -d ' ')" "526" "field line count"
centre=$(key CENTRE)
# 0-based centre (12, 10) is line 2 + 10*25 + 12 of the file.
expect_eq "$(sed -n "$((2 + 10 * 25 + 12))p" "$w/cpu.dat" | tr -d ' ')" "$centre" "CENTRE is the middle cell"
# The mass is the sum of the field (to rounding, the file is %.16E).
sum=$(awk 'NR > 1 { s += $1 } END { printf "%.12f", s }' "$w/cpu.dat")
expect_eq "$sum" "$(awk -v m="$(key MASS)" 'BEGIN { printf "%.12f", m }')" "MASS is the field's sum"

# Without an offloading build the OpenACC methods run on the host, say so,
# and nothing crosses, as their runtime's events count; the OpenMP target
# methods run there when asked (OMP_TARGET_OFFLOAD=DISABLED, which the
# tests of an offload build without a GPU set) and report the model's
# nothing, since no OpenMP interface counts it. A GPU build reports the
# measured copies (tested by check --gpu).
for m in acc-each acc-resident omp-target-each omp-target-resident; do
  if have_method "$bin/heat2d" "$m" "$m on the host"; then
    run "$bin/heat2d" run --method "$m" --nx 25 --ny 21 --steps 8
    expect_rc 0 "run $m"
    device=$(sed -n 's/^DEVICE=//p' <<<"$out")
    if [ "${device%% *}" = host ]; then
      if [ "${m#omp-target}" = "$m" ]; then counted=measured; else counted=model; fi
      expect_eq "$(key TRANSFERS)" "$counted" "$m's transfers: $counted"
      expect_eq "$(key H2D_COUNT)/$(key H2D_BYTES)/$(key D2H_COUNT)/$(key D2H_BYTES)" "0/0/0/0" \
        "$m on the host moves nothing"
    else
      skip "$m on the host" "it ran on $device (heat2d check --gpu tests that)"
    fi
  fi
done
for m in acc-resident omp-target-resident; do
  have_method "$bin/heat2d" "$m" "$m's phases" || continue
  run "$bin/heat2d" run --method "$m" --nx 25 --ny 21 --steps 8
  expect_eq "$(grep -oE '^[A-Z_]+=' <<<"$out" | sed -n '10,13p' | tr -d '\n')" \
    "ENTER_S=GPU_LOOP_S=READBACK_S=EXIT_S=" "$m phases"
done

# Odd and even step counts hand back the right buffer: 7 and 8 steps differ.
run "$bin/heat2d" run --method cpu --nx 25 --ny 21 --steps 8; c8=$(key CENTRE)
expect_eq "$([ "$c8" != "$centre" ] && echo differ)" "differ" "7 and 8 steps differ"

# Peak memory of a run that saves its field: the two arrays plus a little;
# the field file is streamed, not built in memory. (Not in a sanitizer
# build: AddressSanitizer's shadow memory and quarantine add their own.)
if is_sanitized "$bin/heat2d"; then
  skip "peak memory" "a sanitizer build, whose shadow memory and quarantine add their own"
else
peak_kb=$(python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
  "$bin/cpu_reference" 2048 2048 3 "$w/big.dat")
arrays_kb=$((2 * 2048 * 2048 * 8 / 1024))
expect_eq "$([ "$peak_kb" -le $((arrays_kb + 16384)) ] && echo ok || echo "$peak_kb KiB")" "ok" \
  "peak memory within 16 MiB of the two arrays ($arrays_kb KiB)"
expect_eq "$(wc -l <"$w/big.dat" | tr -d ' ')" "$((2048 * 2048 + 1))" "big field line count"
fi

# --precision f32 on every host method: PRECISION=f32, the field within the
# stated bound of cpu's f64 field ((1 + 7*steps) * 2^-24 for max |u0| = 1),
# not equal to it (it really is float), and the same bits as cpu's f32 run.
# A transfer model in 4-byte cells: cuda-each's bytes are half f64's.
steps=31
bound=$(awk -v s=$steps 'BEGIN { printf "%.17g", (1 + 7 * s) * 2^-24 }')
run "$bin/heat2d" run --method cpu --nx 37 --ny 29 --steps $steps --save "$w/f64.dat"
expect_rc 0 "cpu f64 for the f32 runs"
expect_eq "$(key PRECISION)" "f64" "PRECISION defaults to f64"
run "$bin/heat2d" run --method cpu --nx 37 --ny 29 --steps $steps --precision f32 --save "$w/cpu32.dat"
expect_rc 0 "cpu f32"
for m in $("$bin/heat2d" methods | awk '$1 !~ /cuda/ { print $1 }'); do
  run "$bin/heat2d" run --method "$m" --nx 37 --ny 29 --steps $steps --precision f32 --save "$w/$m.f32"
  expect_rc 0 "$m f32"
  expect_eq "$(key PRECISION)" "f32" "$m f32: PRECISION"
  run "$bin/heat2d" compare "$w/f64.dat" "$w/$m.f32" --atol "$bound" --rtol 0
  expect_rc 0 "$m f32 within the bound $bound of cpu f64 ($out)"
  diff=$(sed -n 's/.*MAX_ABS_DIFF=\([^ ]*\).*/\1/p' <<<"$out")
  expect_eq "$(awk -v d="$diff" 'BEGIN { print (d > 0) ? "float" : "same as f64" }')" "float" \
    "$m f32 differs from f64 (max diff $diff)"
  run "$bin/heat2d" compare "$w/cpu32.dat" "$w/$m.f32" --atol 0 --rtol 0
  expect_rc 0 "$m f32 bit-identical to cpu f32"
done
if have_method "$bin/heat2d" cuda-each "cuda-each's f32 transfers"; then
  run "$bin/heat2d" run --method cuda-each --nx 37 --ny 29 --steps 3 --precision f32
  if [ "$rc" = 0 ]; then
    expect_eq "$(key H2D_BYTES)/$(key D2H_BYTES)" "$((3 * 37 * 29 * 4))/$((3 * 37 * 29 * 4))" \
      "cuda-each f32 moves 4-byte cells"
  elif grep -q '^heat2d: run: cuda-each: no CUDA device: ' <<<"$err"; then
    skip "cuda-each's f32 transfers" "no GPU"
  else
    ko "cuda-each f32: runs, or says there is no GPU: exit $rc, $err"
  fi
fi

# Methods list: every method the build has, cpu first.
run "$bin/heat2d" methods
expect_eq "$(head -n 1 <<<"$out" | awk '{print $1}')" "cpu" "methods lists cpu first"

# Snapshots: every K steps and after the last, each written as the field
# after its step, bit for bit cpu's; the names sort by step.
for m in cpu omp acc-resident omp-target-resident; do
  have_method "$bin/heat2d" "$m" "$m's snapshot files" || continue
  d=$w/snap-$m
  mkdir -p "$d"
  run "$bin/heat2d" run --method "$m" --nx 37 --ny 23 --steps 17 --output-every 5 --save-every "$d"
  expect_rc 0 "$m --output-every 5 --save-every"
  expect_eq "$(key OUTPUT_EVERY) $(key SNAPSHOT_COPY) $(key SNAPSHOTS)" "5 plain 4" "$m: 4 snapshots of 17 steps"
  expect_eq "$(ls "$d" | paste -sd' ')" "heat2d_series.txt step_05.dat step_10.dat step_15.dat step_17.dat" \
    "$m: snapshot files by step"
  for s in 5 10 15 17; do
    "$bin/heat2d" run --method cpu --nx 37 --ny 23 --steps "$s" --save "$w/ref.dat" >/dev/null
    run "$bin/heat2d" compare "$w/ref.dat" "$d/step_$(printf %02d "$s").dat" --atol 0 --rtol 0
    expect_rc 0 "$m: the snapshot after step $s is cpu's field after $s steps"
  done
done
# omp on 4 threads (a grid of 4 bands of 16k cells): its snapshots, as
# text files and as every record of a series, byte for byte cpu's, in f64
# and f32, for a K that does not divide the steps.
if have_method "$bin/heat2d" omp "omp's snapshots on 4 threads"; then
  # A grid too small for two threads' bands runs on one, and says so.
  run "$bin/heat2d" run --method omp --nx 8 --ny 8 --steps 1
  expect_eq "$(sed -n 's/^DEVICE=//p' <<<"$out")" "host (1 thread)" "omp on one thread: 'thread', singular"
  for prec in f64 f32; do
    for m in cpu omp; do
      mkdir -p "$w/threads-$m-$prec"
      run env OMP_NUM_THREADS=4 "$bin/heat2d" run --method "$m" --nx 301 --ny 223 --steps 20 \
        --output-every 7 --precision "$prec" --save-every "$w/threads-$m-$prec"
      expect_rc 0 "$m $prec: snapshots of 301x223"
    done
    expect_eq "$(key DEVICE)/$(key SNAPSHOTS)" "host(4threads)/3" "omp $prec: 4 threads, 3 snapshots"
    bad=0
    for f in step_07.dat step_14.dat step_20.dat; do
      cmp -s "$w/threads-cpu-$prec/$f" "$w/threads-omp-$prec/$f" || { bad=1; ko "omp $prec: $f is not cpu's"; }
    done
    [ $bad = 1 ] || ok
    "$bin/heat2d" info | grep -q '^NETCDF=NetCDF' || continue
    for m in cpu omp; do
      run env OMP_NUM_THREADS=4 "$bin/heat2d" run --method "$m" --nx 301 --ny 223 --steps 20 \
        --output-every 7 --precision "$prec" --save-every "$w/threads-$m-$prec.nc"
      expect_rc 0 "$m $prec: a series of 301x223"
    done
    for s in 0 7 14 20; do
      run "$bin/heat2d" compare "$w/threads-cpu-$prec.nc:$s" "$w/threads-omp-$prec.nc:$s" --atol 0 --rtol 0
      expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "omp $prec: the series' record of step $s is cpu's"
    done
  done
fi
for m in acc-resident omp-target-resident; do
  have_method "$bin/heat2d" "$m" "$m's f32 snapshots" || continue
  run "$bin/heat2d" run --method "$m" --nx 30 --ny 20 --steps 10 --output-every 3 --precision f32
  expect_rc 0 "$m f32 snapshots"
  expect_eq "$(key SNAPSHOTS)" 4 "$m f32: 3, 6, 9 and 10"
done

# The conventions of a command line: --version, and --help for heat2d and
# every command on stdout with status 0; each usage names every option the
# command takes.
run "$bin/heat2d" --version
expect_rc 0 "heat2d --version"
expect_eq "$(grep -cE '^heat2d [0-9]+\.[0-9]+\.[0-9]+ \(.+\)$' <<<"$out")" 1 "--version: heat2d X.Y.Z (revision)"
for c in run compare check info methods bench; do
  run "$bin/heat2d" "$c" --help
  expect_rc 0 "heat2d $c --help"
  expect_eq "$err" "" "heat2d $c --help: nothing on stderr"
  expect_eq "$(head -n 1 <<<"$out" | cut -d' ' -f1-3)" "usage: heat2d $c" "heat2d $c --help: its usage"
done
run "$bin/heat2d" run --help
for o in --method --nx --ny --steps --alpha --precision --pinned --save --output-every --snapshot-copy --snapshot-writer --save-every --halo-depth; do
  expect_out_has "$o" "run --help names $o"
done
run "$bin/heat2d" bench --help
for o in --methods --sizes --warmups --repeats --out --pinned-too --ranks --weak --precision --budget --full --output-every --snapshot-copy --snapshot-writer; do
  expect_out_has "$o" "bench --help names $o"
done
run "$bin/heat2d" --help
expect_rc 0 "heat2d --help"
for o in --precision --ranks --weak --version --budget --full --output-every --snapshot-copy --save-every --halo-depth; do
  expect_out_has "$o" "heat2d --help names $o"
done

# --snapshot-writer text: step files into a scratch folder under $TMPDIR,
# gone afterwards; a file-size limit shows they are written, and that a
# failed write leaves nothing behind either.
scratch_root=$(mktemp -d)
run env TMPDIR="$scratch_root" "$bin/heat2d" run --method cpu --nx 40 --ny 30 --steps 20 --output-every 5 --snapshot-writer text
expect_rc 0 "--snapshot-writer text"
expect_eq "$(key SNAPSHOTS)" 4 "--snapshot-writer text: snapshots"
expect_eq "$(ls -A "$scratch_root")" "" "--snapshot-writer text leaves no scratch folder"
run bash -c "ulimit -f 1; TMPDIR='$scratch_root' '$bin/heat2d' run --method cpu --nx 40 --ny 30 --steps 20 --output-every 5 --snapshot-writer text"
expect_rc 1 "--snapshot-writer text under a 1 KiB file limit"
expect_err_has "$scratch_root/heat2d-snapshots-" "--snapshot-writer text writes into its scratch folder"
expect_err_has "/step_05.dat': File too large" "--snapshot-writer text writes the step files"
expect_eq "$(ls -A "$scratch_root")" "" "a failed --snapshot-writer text leaves no scratch folder"
run bash -c "ulimit -f 1; TMPDIR='$scratch_root' '$bin/heat2d' run --method cpu --nx 40 --ny 30 --steps 20 --output-every 5"
expect_rc 0 "without --snapshot-writer no step file is written"
expect_failure 1 "heat2d: run: --snapshot-writer text: cannot make a scratch folder in $scratch_root/none: No such file or directory" \
  env TMPDIR="$scratch_root/none" "$bin/heat2d" run --method cpu --nx 40 --ny 30 --steps 20 --output-every 5 --snapshot-writer text
expect_failure 2 "heat2d: run: --snapshot-writer needs --output-every" \
  "$bin/heat2d" run --method cpu --nx 40 --ny 30 --steps 20 --snapshot-writer text
expect_failure 2 "heat2d: run: --snapshot-writer 'csv' is not one of none, text, netcdf" \
  "$bin/heat2d" run --method cpu --nx 40 --ny 30 --steps 20 --output-every 5 --snapshot-writer csv
rmdir "$scratch_root"

finish
