#!/usr/bin/env bash
# Bad input and faults: one clear line on stderr, a non-zero exit, never a
# crash, never a half-written file. Every row of the README's table "Bad
# input, faults and what is checked" is asserted here with its exact message
# and exit status.
# usage: test_cli_errors.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
# As root, run in a private mount namespace, so that the tmpfs file systems
# mounted below (disk full, read-only) go away with this process whatever
# happens to it.
if [ "$(id -u)" = 0 ] && [ -z "${HEAT2D_TEST_NS:-}" ] && command -v unshare >/dev/null &&
  unshare --mount --propagation private true 2>/dev/null; then
  HEAT2D_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
s=$(mktemp -d)
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done
  rm -rf "$s"
}
trap cleanup EXIT
h=$bin/heat2d
cpu=$bin/cpu_reference

# expect_no_files DIR DESCRIPTION: DIR holds nothing (no field file, no
# temporary file)
expect_no_files() { expect_eq "$(ls -A "$1")" "" "$2: no file left in $1"; }

# ---- sizes --------------------------------------------------------------------------
seed_programs_of "$h" "the seed programs' refusals"
seed_rejects() { # ARGS... -- TEXT: every seed program, exit 1, "PROG: TEXT"
  local text=${!#}
  local args=("${@:1:$#-1}")
  for prog in "${seed_programs[@]}"; do
    expect_failure 1 "$bin/$prog: $text" "$bin/$prog" "${args[@]}"
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
seed_rejects 4 64 "nx and ny must be >= 5, steps must be >= 1"
seed_rejects 64 4 "nx and ny must be >= 5, steps must be >= 1"
seed_rejects 18446744073709551616 "nx is too large: '18446744073709551616'"
seed_rejects 9223372036854775808 64 "grid 9223372036854775808x64 is too large: nx*ny*8 bytes overflows"
seed_rejects 64 64 5 "" "field_path must not be empty"
seed_rejects 25 21 3 "$s/no/such/dir/f.dat" \
  "cannot write field file '$s/no/such/dir/f.dat': No such file or directory"
expect_no_files "$s" "seed program, missing directory"
for prog in "${seed_programs[@]}"; do
  expect_failure 1 "$bin/$prog: usage: $bin/$prog [nx [ny [steps [field_path]]]]" \
    "$bin/$prog" 1 2 3 4 5
done

# The memory this process may use (physical memory, or a tighter cgroup or
# ulimit -v), as heat2d info reports it, in the message's format; physical
# memory as heat2d_physical_memory reads it.
mem_gb=$(awk -v p="$(getconf _PHYS_PAGES)" -v s="$(getconf PAGESIZE)" 'BEGIN { printf "%.3g", p * s / 1e9 }')
limit_source=$("$bin/heat2d" info | sed -n 's/^MEMORY_LIMIT_SOURCE=//p')
limit_gb=$("$bin/heat2d" info | sed -n 's/^MEMORY_LIMIT_BYTES=//p' | awk '{ printf "%.3g", $1 / 1e9 }')
if [ "$limit_source" = "physical memory" ]; then
  expect_eq "$limit_gb" "$mem_gb" "the limit is physical memory: the machine's"
  mem_text="this machine's $mem_gb GB of memory"
else
  mem_text="the $limit_gb GB $limit_source allows"
fi
seed_rejects 2147483648 64 \
  "grid 2147483648x64 needs 2 x 1.1e+03 GB, more than $mem_text"

r() { echo "heat2d: run: $*"; } # the run command's message prefix
expect_failure 2 "$(r "--nx must be a positive integer, got 'abc'")" "$h" run --method cpu --nx abc
expect_failure 2 "$(r "--nx must be a positive integer, got '-5'")" "$h" run --method cpu --nx -5
expect_failure 2 "$(r "--nx must be a positive integer, got '0'")" "$h" run --method cpu --nx 0
expect_failure 2 "$(r "--ny must be a positive integer, got '64x'")" "$h" run --method cpu --ny 64x
expect_failure 2 "$(r "--steps must be a positive integer, got '1e3'")" "$h" run --method cpu --steps 1e3
expect_failure 2 "$(r "nx and ny must be >= 5")" "$h" run --method cpu --nx 4
expect_failure 2 "$(r "--nx is too large: '18446744073709551616'")" \
  "$h" run --method cpu --nx 18446744073709551616
expect_failure 1 "$(r "grid 9223372036854775808x64 is too large: nx*ny*8 bytes overflows")" \
  "$h" run --method cpu --nx 9223372036854775808 --ny 64
expect_failure 1 "$(r "grid 4294967296x4294967296 is too large: nx*ny*8 bytes overflows")" \
  "$h" run --method cpu --nx 4294967296 --ny 4294967296
expect_failure 1 "$(r "grid 2147483648x64 needs 2 x 1.1e+03 GB, more than $mem_text")" \
  "$h" run --method cpu --nx 2147483648 --ny 64
expect_failure 1 "$(r "grid 1000000x1000000 needs 2 x 8e+03 GB, more than $mem_text")" \
  "$h" run --method cpu --nx 1000000 --ny 1000000
# An address-space limit (ulimit -v 256 MiB) far below the machine's memory:
# refused up front, naming the limit that binds. (Not in a sanitizer build,
# whose shadow memory alone is above any such limit.)
sanitized=false
is_sanitized "$bin/heat2d" && sanitized=true
if ! $sanitized; then
  run bash -c 'ulimit -v 262144; exec "$@"' - "$h" info
  expect_eq "$(key MEMORY_LIMIT_BYTES)/$(sed -n 's/^MEMORY_LIMIT_SOURCE=//p' <<<"$out")" \
    "268435456/RLIMIT_AS (ulimit -v)" "info under ulimit -v names RLIMIT_AS"
  expect_failure 1 "$(r "grid 8192x8192 needs 2 x 0.537 GB, more than the 0.268 GB RLIMIT_AS (ulimit -v) allows")" \
    bash -c 'ulimit -v 262144; exec "$@"' - "$h" run --method cpu --nx 8192 --ny 8192 --steps 1
  expect_eq "$out" "" "refused under ulimit -v: nothing on stdout"
  expect_failure 1 "$cpu: grid 8192x8192 needs 2 x 0.537 GB, more than the 0.268 GB RLIMIT_AS (ulimit -v) allows" \
    bash -c 'ulimit -v 262144; exec "$@"' - "$cpu" 8192 8192 1
else
  skip "ulimit -v" "a sanitizer build, whose shadow memory alone is above any such limit"
fi
# Control characters in an argument are escaped: the message stays one line.
expect_failure 2 "$(r "--nx must be a positive integer, got '4\\n2\\x1b[0m'")" \
  "$h" run --method cpu --nx $'4\n2\e[0m'

# ---- options ------------------------------------------------------------------------
run "$h"; expect_rc 2 "heat2d without a command"
expect_failure 2 "heat2d: unknown command 'frobnicate' (try heat2d --help)" "$h" frobnicate
# A typo of a command names the command meant.
expect_failure 2 "heat2d: unknown command 'bnech' (did you mean heat2d bench?)" "$h" bnech
expect_failure 2 "heat2d: unknown command 'methodz' (did you mean heat2d methods?)" "$h" methodz
expect_failure 2 "heat2d: unknown command 'rn' (did you mean heat2d run?)" "$h" rn
expect_failure 2 "$(r "unknown method 'nope' (heat2d methods lists them)")" "$h" run --method nope
expect_failure 2 "$(r "--method is required")" "$h" run
expect_failure 2 "$(r "option '--steps' needs a value")" "$h" run --method cpu --steps
expect_failure 2 "$(r "unknown option '--bogus'")" "$h" run --method cpu --bogus
# An unknown option names the nearest known one, or the ones it abbreviates.
expect_failure 2 "$(r "unknown option '--stpes' (did you mean --steps?)")" "$h" run --method cpu --stpes 3
expect_failure 2 "$(r "unknown option '--nxx=5' (did you mean --nx?)")" "$h" run --method cpu --nxx=5
expect_failure 2 "$(r "unknown option '--s' (it abbreviates --steps, --save, --snapshot-copy, --snapshot-writer, --save-every, --start-time)")" \
  "$h" run --method cpu --s 3
expect_failure 2 "heat2d: check: unknown option '--gpus' (did you mean --gpu?)" "$h" check --gpus
expect_failure 2 "heat2d: compare: unknown option '--atoll' (did you mean --atol?)" "$h" compare --atoll 1 a b
# -h is --help for every command, and heat2d help CMD prints the same.
for c in run compare check bench info methods; do
  run "$h" "$c" --help
  long=$out
  expect_rc 0 "$c --help"
  run "$h" "$c" -h
  expect_rc 0 "$c -h"
  expect_eq "$out" "$long" "$c -h prints what $c --help prints"
  expect_eq "$(head -c 13 <<<"$out")" "usage: heat2d" "$c -h: a usage text"
  run "$h" help "$c"
  expect_rc 0 "help $c"
  expect_eq "$out" "$long" "heat2d help $c prints $c's --help"
done
expect_failure 2 "heat2d: unknown command 'nope' (try heat2d --help)" "$h" help nope
# Help and version that cannot be written fail like every other output.
for args in "--help" "--version" "help" "help run" "run --help" "bench -h"; do
  expect_failure 1 "heat2d: cannot write to standard output: No space left on device" \
    bash -c '"$@" >/dev/full' - "$h" $args
done
# An option a method does not take is a usage error (exit 2), as --pinned is;
# so is --snapshot-copy without --output-every.
for copy in plain overlap; do
  expect_failure 2 "$(r "--snapshot-copy needs --output-every")" \
    "$h" run --method cpu --nx 8 --ny 8 --steps 2 --snapshot-copy "$copy"
done
# The fault hook's target must be a method, not a typo that disables it.
for typo in typo cpuu CPU; do
  expect_failure 1 "$(r "HEAT2D_FAULT_METHOD=$typo is not a method of this build (heat2d methods lists them)")" \
    env HEAT2D_FAULT_NAN_AT_STEP=1 HEAT2D_FAULT_METHOD="$typo" "$h" run --method cpu --nx 8 --ny 8 --steps 2
done
# HEAT2D_MPI_CUDA_AWARE takes 0 alone; any other value is refused, not
# ignored, before MPI starts or a GPU is looked for.
if have_method "$h" mpi-cuda "HEAT2D_MPI_CUDA_AWARE refused"; then
  for value in 1 no false; do
    expect_failure 1 "$(r "mpi-cuda: HEAT2D_MPI_CUDA_AWARE=$value: 0 (halos staged through host memory) is its only setting; unset, the MPI library is asked")" \
      env HEAT2D_MPI_CUDA_AWARE="$value" "$h" run --method mpi-cuda --nx 8 --ny 8 --steps 2
  done
fi
# HEAT2D_CUDA_TB_VARIANT names a variant of the build, or cuda-tb refuses
# to run (before it looks for a GPU): never the default in its place.
if have_method "$h" cuda-tb "HEAT2D_CUDA_TB_VARIANT refused"; then
  for typo in 7m6f 8R4FS x; do
    expect_failure 1 "$(r "cuda-tb: HEAT2D_CUDA_TB_VARIANT=$typo is not a variant (8r4qsd, 9r6qsp, 8r4qsdg, 9r6qspg, 7r6qspg, 8r4fsd, 9r6fsp, 7r6fspg, 8r4sl, 4r4sl, 2r4sl)")" \
      env HEAT2D_CUDA_TB_VARIANT="$typo" "$h" run --method cuda-tb --nx 8 --ny 8 --steps 2
  done
fi
expect_failure 2 "heat2d: help: unexpected argument 'extra'" "$h" help run extra
expect_failure 2 "$(r "unexpected argument 'extra'")" "$h" run --method cpu --nx 10 extra
expect_failure 2 "$(r "--save needs a file name")" "$h" run --method cpu --save ""
expect_failure 2 "$(r "--alpha 0.3 is unstable: explicit 5-point diffusion needs alpha <= 1/4")" \
  "$h" run --method cpu --alpha 0.3
expect_failure 2 "$(r "--alpha 0.2500001 is unstable: explicit 5-point diffusion needs alpha <= 1/4")" \
  "$h" run --method cpu --alpha 0.2500001
for a in 0 -0.1 nan inf abc " 0.1" ""; do
  expect_failure 2 "$(r "--alpha must be a positive number, got '$a'")" "$h" run --method cpu --alpha "$a"
done
for pr in f16 F32 double ""; do
  expect_failure 2 "$(r "--precision '$pr' is not one of f64, f32")" "$h" run --method cpu --precision "$pr"
done
expect_failure 2 "$(r "option '--precision' needs a value")" "$h" run --method cpu --precision
expect_failure 2 "heat2d: check: --precision 'f16' is not one of f64, f32" "$h" check --precision f16
run "$h" run --method cpu --nx 25 --ny 21 --steps 7 --alpha 0.25
expect_rc 0 "alpha 1/4 is stable"
expect_eq "$(key ALPHA)" "2.5000000000000000E-01" "ALPHA reported"
run "$h" run --method omp --nx 25 --ny 21 --steps 7 --alpha 0.05
expect_eq "$rc/$(key ALPHA)/$(key CHECK)" "0/5.0000000000000003E-02/PASS" "another alpha runs and passes"

c() { echo "heat2d: compare: $*"; }
expect_failure 2 "$(c "usage: heat2d compare REF CAND... [--atol A] [--rtol R]")" "$h" compare a
expect_failure 2 "$(c "--atol must be a non-negative number, got '-1'")" "$h" compare a b --atol -1
expect_failure 2 "$(c "--rtol must be a non-negative number, got 'nan'")" "$h" compare a b --rtol nan
expect_failure 2 "$(c "--rtol must be a non-negative number, got 'inf'")" "$h" compare a b --rtol inf
expect_failure 2 "$(c "--atol must be a non-negative number, got ' 1'")" "$h" compare a b --atol " 1"
expect_failure 2 "$(c "--atol must be a non-negative number, got '1e-12x'")" "$h" compare a b --atol 1e-12x
expect_failure 1 "heat2d: check: cannot write to '$s/no/such': No such file or directory" \
  "$h" check --keep "$s/no/such"

# ---- output files: nothing, not even a temporary file, is left on failure ---------------
expect_failure 1 "$(r "cannot write field file '$s/no/such/dir/f.dat': No such file or directory")" \
  "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$s/no/such/dir/f.dat"
expect_no_files "$s" "missing directory"
echo "not a directory" >"$s/file"
expect_failure 1 "$(r "cannot write field file '$s/file/x.dat': Not a directory")" \
  "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$s/file/x.dat"
expect_eq "$(ls -A "$s")" "file" "under a regular file: nothing new"
rm "$s/file"
mkdir "$s/dir"
expect_failure 1 "$(r "cannot write field file '$s/dir': Is a directory")" \
  "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$s/dir"
expect_no_files "$s/dir" "a directory as the output"
rmdir "$s/dir"
if [ "$(id -u)" != 0 ]; then
  mkdir "$s/ro" && chmod 555 "$s/ro"
  expect_failure 1 "$(r "cannot write field file '$s/ro/f.dat': Permission denied")" \
    "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$s/ro/f.dat"
  expect_no_files "$s/ro" "read-only directory"
  chmod 755 "$s/ro" && rmdir "$s/ro"
else
  skip "a read-only directory" "root, whom permission bits do not stop (the read-only tmpfs below stands in)"
fi

# Disk full, a device: /dev/full fails every write with ENOSPC. The summary
# was printed; the exit status and the one line say the run failed.
if [ -c /dev/full ]; then
  expect_failure 1 "$(r "cannot write field file '/dev/full': No space left on device")" \
    "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save /dev/full
  expect_eq "$(key CHECK)" "PASS" "the run itself passed before the write failed"
  expect_out_lacks "FIELD_FILE=" "no FIELD_FILE line for a failed write"
  expect_failure 1 "$cpu: cannot write field file '/dev/full': No space left on device" \
    "$cpu" 25 21 3 /dev/full
  # A device is written in place, never replaced by a regular file.
  expect_eq "$([ -c /dev/full ] && echo device)" "device" "/dev/full is still a device"
  # The report itself into a full disk: the reason is ENOSPC, as the write
  # gave it, not stdio's "Input/output error".
  for prog in "$h run --method cpu --nx 25 --ny 21 --steps 3" "$h methods" "$cpu 25 21 3"; do
    who=heat2d
    [ "${prog%% *}" = "$cpu" ] && who=$cpu
    expect_failure 1 "$who: cannot write to standard output: No space left on device" \
      bash -c '$0 >/dev/full' "$prog"
  done
else
  skip "disk full on /dev/full" "no /dev/full device here"
fi
if [ -c /dev/null ]; then
  run "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save /dev/null
  expect_eq "$rc/$([ -c /dev/null ] && echo device)" "0/device" "--save /dev/null leaves the device"
else
  skip "--save /dev/null" "no /dev/null device here"
fi

# Disk full, a real file system: a 64 KiB tmpfs, where the ~13 KiB of the
# 25x21 field fit and the ~250 KiB of a 100x100 field do not.
full=$s/full
mkdir "$full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
  mounts+=("$full")
  expect_failure 1 "$(r "cannot write field file '$full/f.dat': No space left on device")" \
    "$h" run --method cpu --nx 100 --ny 100 --steps 3 --save "$full/f.dat"
  expect_no_files "$full" "disk full"
  # An existing file is kept as it was: the new one was never renamed over it.
  echo "previous result" >"$full/keep.dat"
  expect_failure 1 "$(r "cannot write field file '$full/keep.dat': No space left on device")" \
    "$h" run --method cpu --nx 100 --ny 100 --steps 3 --save "$full/keep.dat"
  expect_eq "$(ls -A "$full")/$(cat "$full/keep.dat")" "keep.dat/previous result" \
    "disk full: the old file untouched, no temporary file"
  rm "$full/keep.dat"
  expect_failure 1 "$cpu: cannot write field file '$full/f.dat': No space left on device" \
    "$cpu" 100 100 3 "$full/f.dat"
  expect_no_files "$full" "disk full, seed program"
  run "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$full/small.dat"
  expect_eq "$rc/$(ls -A "$full")" "0/small.dat" "a field that fits is written"
  umount "$full"

  # Read-only file system: root's permission bypass does not apply.
  mount -t tmpfs -o size=64k,ro tmpfs "$full"
  expect_failure 1 "$(r "cannot write field file '$full/f.dat': Read-only file system")" \
    "$h" run --method cpu --nx 25 --ny 21 --steps 3 --save "$full/f.dat"
  umount "$full"
  mounts=()
else
  skip "the tmpfs disk-full and read-only cases" \
    "mounting needs root with CAP_SYS_ADMIN (/dev/full and the file size limit below still test a failing write)"
fi

# A file size limit (RLIMIT_FSIZE, ulimit -f 8 = 8 KiB): write() fails with
# EFBIG because the programs ignore SIGXFSZ, which would kill them with the
# temporary file left behind.
lim=$s/limit
mkdir "$lim"
expect_failure 1 "$(r "cannot write field file '$lim/f.dat': File too large")" \
  bash -c 'ulimit -f 8; exec "$@"' - "$h" run --method cpu --nx 100 --ny 100 --steps 3 --save "$lim/f.dat"
expect_no_files "$lim" "file size limit"
expect_failure 1 "$cpu: cannot write field file '$lim/f.dat': File too large" \
  bash -c 'ulimit -f 8; exec "$@"' - "$cpu" 100 100 3 "$lim/f.dat"
expect_no_files "$lim" "file size limit, seed program"
# --snapshot-writer's files go to a scratch folder in TMPDIR, removed with
# the run: a write that fails there says so, and where to turn.
writers=text
"$h" info | grep -q '^NETCDF=NetCDF' && writers="text netcdf"
for writer in $writers; do
  file=step_1.dat what="field file"
  [ "$writer" = netcdf ] && file=snapshots.nc what=series
  run bash -c 'ulimit -f 8; exec "$@"' - env TMPDIR="$lim" "$h" run --method cpu --nx 100 --ny 100 \
    --steps 2 --output-every 1 --snapshot-writer "$writer"
  expect_eq "$rc/$(sed 's/heat2d-snapshots-[0-9]*-[A-Za-z0-9]*/SCRATCH/' <<<"$err")" \
    "1/$(r "cannot write $what '$lim/SCRATCH/$file': File too large (in --snapshot-writer's scratch folder, removed with the run; set TMPDIR to write it elsewhere)")" \
    "--snapshot-writer $writer, a write that fails: its line says the folder is gone"
  expect_no_files "$lim" "--snapshot-writer $writer, a write that fails"
done

# Interrupted in the middle of the write (SIGTERM, as from Ctrl-C or a batch
# system's time limit): the process dies of the signal and removes its
# temporary file first. Killed as soon as the temporary file appears; should
# the write win the race, the file must be complete instead.
sig=$s/signal
mkdir "$sig"
"$cpu" 1500 1500 1 "$sig/f.dat" >/dev/null &
pid=$!
for _ in $(seq 1000); do
  ls "$sig" | grep -q '\.tmp\.' && break
  sleep 0.01
done
kill -TERM "$pid" 2>/dev/null || true
set +e; wait "$pid"; rc=$?; set -e
expect_eq "$(ls -A "$sig" | grep -c '\.tmp\.' || true)" "0" "SIGTERM during the write: no temporary file"
if [ "$rc" = 143 ]; then
  expect_no_files "$sig" "SIGTERM during the write"
else
  expect_eq "$rc/$(wc -l <"$sig/f.dat" | tr -d ' ')" "0/$((1500 * 1500 + 1))" \
    "the write finished before SIGTERM: the file is complete"
fi

# ---- field files ----------------------------------------------------------------------
"$cpu" 5 5 3 "$s/good.dat" >/dev/null
"$cpu" 7 6 3 "$s/other.dat" >/dev/null
good=$s/good.dat
# bad NAME AWK: a copy of good.dat edited by an awk program
bad() { awk "$2" "$good" >"$s/$1"; }
bad truncated.dat 'NR < 26'
bad garbled.dat 'NR == 5 { print "1.0e-3x"; next } { print }'
bad nan.dat 'NR == 9 { print "NaN"; next } { print }'
bad inf.dat 'NR == 9 { print "-Infinity"; next } { print }'
bad huge.dat 'NR == 9 { print "1.0E+999"; next } { print }'
bad header_words.dat 'NR == 1 { print "nx ny"; next } { print }'
bad header_one.dat 'NR == 1 { print "5"; next } { print }'
bad header_small.dat 'NR == 1 { print "4 5"; next } NR <= 21 { print }'
bad header_overflow.dat 'NR == 1 { print "99999999999 99999999999"; next } { print }'
bad empty_line.dat 'NR == 4 { print ""; next } { print }'
bad differs.dat 'NR == 14 { print "  1.0000000000000000E+00"; next } { print }'
: >"$s/empty.dat"
printf '5 5\n' | cat - <(tail -n +2 "$good" | head -c 321) >"$s/cut.dat"

expect_failure 1 "$(c "cannot open field file '$s/missing.dat': No such file or directory")" \
  "$h" compare "$good" "$s/missing.dat"
expect_failure 1 "$(c "cannot read field file '$s': Is a directory")" "$h" compare "$good" "$s"
expect_failure 1 "$(c "$s/truncated.dat: expected 25 values, found 24")" "$h" compare "$good" "$s/truncated.dat"
expect_failure 1 "$(c "$s/cut.dat:14: invalid number")" "$h" compare "$good" "$s/cut.dat"
expect_failure 1 "$(c "$s/garbled.dat:5: invalid number")" "$h" compare "$good" "$s/garbled.dat"
expect_failure 1 "$(c "$s/nan.dat:9: non-finite value")" "$h" compare "$good" "$s/nan.dat"
expect_failure 1 "$(c "$s/inf.dat:9: non-finite value")" "$h" compare "$s/inf.dat" "$good"
expect_failure 1 "$(c "$s/huge.dat:9: non-finite value")" "$h" compare "$good" "$s/huge.dat"
expect_failure 1 "$(c "$s/empty.dat: invalid nx/ny header")" "$h" compare "$good" "$s/empty.dat"
expect_failure 1 "$(c "$s/header_one.dat: invalid nx/ny header")" "$h" compare "$good" "$s/header_one.dat"
expect_failure 1 "$(c "$s/header_words.dat: non-integer dimensions")" "$h" compare "$good" "$s/header_words.dat"
expect_failure 1 "$(c "$s/header_small.dat: too small dimensions 4x5")" "$h" compare "$good" "$s/header_small.dat"
expect_failure 1 "$(c "$s/header_overflow.dat: dimensions 99999999999x99999999999 too large (nx*ny overflows)")" \
  "$h" compare "$good" "$s/header_overflow.dat"
expect_failure 1 "$(c "$s/empty_line.dat:4: empty numeric line")" "$h" compare "$good" "$s/empty_line.dat"
expect_failure 1 "$(c "shape mismatch: $good is 5x5, $s/other.dat is 7x6")" "$h" compare "$good" "$s/other.dat"
expect_failure 1 "heat2d: COMPARE=FAIL: full-field numerical differences" "$h" compare "$good" "$s/differs.dat"
expect_out_has "FILE=$s/differs.dat MAX_ABS_DIFF=" "the failing comparison's numbers are printed"
expect_out_has "WORST_INDEX=12 FAILURES=1" "the failing cell"

# ---- field files that never end, or end wrong: refused as soon as they
# cannot match their header, in memory bounded by it, never a signal ---------------------
# (cmp_rlimit CMD...: CMD under a 200 MB address-space limit, where the
# build allows one: a sanitizer's shadow memory alone is more.)
cmp_rlimit() {
  if ! $sanitized; then bash -c 'ulimit -v 204800; exec "$@"' - "$@"; else "$@"; fi
}
start=$(date +%s)
expect_failure 1 "$(c "/dev/zero:1: line longer than 4096 bytes (not a field file)")" \
  cmp_rlimit timeout 20 "$h" compare "$good" /dev/zero
expect_failure 1 "$(c "/dev/zero:1: line longer than 4096 bytes (not a field file)")" \
  cmp_rlimit timeout 20 "$h" compare /dev/zero "$good"
expect_eq "$(( $(date +%s) - start < 10 ))" 1 "/dev/zero is refused at once"
# One value more than the header's count: the original's message for a file.
{ cat "$good"; echo "  1.0000000000000000E+00"; } >"$s/extra.dat"
expect_failure 1 "$(c "$s/extra.dat: expected 25 values, found 26")" "$h" compare "$good" "$s/extra.dat"
# A valid field, then 10 GiB of holes: refused from its size, before any
# value; left as it was.
cp "$good" "$s/sparse.dat"
if truncate -s 10G "$s/sparse.dat" 2>/dev/null; then
  expect_failure 1 "$(c "$s/sparse.dat: 10737418240 bytes, more than a 5x5 field file can hold (at most 102454)")" \
    cmp_rlimit timeout 20 "$h" compare "$good" "$s/sparse.dat"
  expect_eq "$(stat -c %s "$s/sparse.dat")/$(head -c 4 "$s/sparse.dat")" "10737418240/5 5" \
    "the sparse file is left as it was"
else
  skip "a 10 GiB sparse file" "this file system cannot make one"
fi
rm -f "$s/sparse.dat"
# Streams: through a pipe as /dev/stdin, and a FIFO; the writer of an
# endless one is left to its SIGPIPE.
run bash -c 'cat "$1" | "$2" compare "$1" /dev/stdin' - "$good" "$h"
expect_eq "$rc/$(tail -n 1 <<<"$out")" "0/COMPARE=PASS" "a field through a pipe"
expect_failure 1 "$(c "/dev/stdin: invalid nx/ny header")" \
  bash -c 'yes 1.0 | exec "$@"' - timeout 20 "$h" compare "$good" /dev/stdin
expect_failure 1 "$(c "/dev/stdin:27: more values than its 5x5 header gives (25)")" \
  bash -c '{ echo "5 5"; yes 1.0; } | exec "$@"' - timeout 20 "$h" compare "$good" /dev/stdin
mkfifo "$s/fifo"
{ echo "5 5"; yes "  1.0000000000000000E+00"; } >"$s/fifo" 2>/dev/null &
writer=$!
expect_failure 1 "$(c "$s/fifo:27: more values than its 5x5 header gives (25)")" \
  cmp_rlimit timeout 20 "$h" compare "$good" "$s/fifo"
set +e; wait "$writer"; set -e
rm "$s/fifo"
# A file cut short while compare reads it (by a background truncate, so the
# moment varies): one line and exit 1 whatever the moment, never a signal.
{ echo "2000 2000"; yes "  1.0000000000000000E+00" | head -n 4000000; } >"$s/big.dat"
cp "$s/big.dat" "$s/big_ref.dat"
( sleep 0.05; truncate -s 1000000 "$s/big.dat" ) &
cutter=$!
run "$h" compare "$s/big_ref.dat" "$s/big.dat"
set +e; wait "$cutter"; set -e
expect_rc 1 "a file cut short while read"
expect_err_lines 1 "a file cut short while read: one line"
if grep -qE "^heat2d: compare: $s/big\.dat(: shrank while being read \(100000010 bytes when opened, [0-9]+ read\)|: changed while being read|: expected 4000000 values, found [0-9]+|:[0-9]+: invalid number)$" <<<"$err"; then ok; else
  ko "a file cut short while read: the line says so: $err"; fi
rm -f "$s/big.dat" "$s/big_ref.dat"

# ---- a field that turns non-finite: the run stops at the step ---------------------------
# HEAT2D_FAULT_NAN_AT_STEP=K writes a NaN into cell (nx-2, ny-2) after step K
# in the methods that check every step.
out_dir=$s/fault
mkdir "$out_dir"
for m in cpu omp; do
  have_method "$h" "$m" "HEAT2D_FAULT_NAN_AT_STEP in $m" || continue
  for k in 1 5 10; do
    expect_failure 1 "$(r "non-finite value at cell (28, 18) after step $k")" \
      env HEAT2D_FAULT_NAN_AT_STEP=$k "$h" run --method $m --nx 30 --ny 20 --steps 10 --save "$out_dir/f.dat"
    expect_eq "$out" "" "$m NaN after step $k: no summary printed"
    expect_no_files "$out_dir" "$m NaN after step $k"
  done
done
expect_failure 1 "$cpu: non-finite value at cell (28, 18) after step 5" \
  env HEAT2D_FAULT_NAN_AT_STEP=5 "$cpu" 30 20 10
if have_method "$h" acc-each "HEAT2D_FAULT_NAN_AT_STEP refused by acc-each"; then
  expect_failure 1 "$(r "HEAT2D_FAULT_NAN_AT_STEP: acc-each does not check every step ($("$bin/heat2d" methods | awk '$1 ~ /^(cpu|omp|mpi-cpu)$/ {print $1}' | paste -sd, - | sed 's/,/, /g') do)")" \
    env HEAT2D_FAULT_NAN_AT_STEP=5 "$h" run --method acc-each --nx 30 --ny 20 --steps 10
fi
expect_failure 1 "$(r "HEAT2D_FAULT_NAN_AT_STEP=11 is past the run's 10 steps")" \
  env HEAT2D_FAULT_NAN_AT_STEP=11 "$h" run --method cpu --nx 30 --ny 20 --steps 10
expect_failure 1 "$(r "HEAT2D_FAULT_NAN_AT_STEP must be a positive integer, got 'x'")" \
  env HEAT2D_FAULT_NAN_AT_STEP=x "$h" run --method cpu --nx 30 --ny 20 --steps 10

# An offload build on a machine without a GPU refuses to run its OpenACC
# methods on the host unless asked to by name (ACC_DEVICE_TYPE=host).
if [ "$("$bin/heat2d" info | sed -n 's/^OPENACC=//p')" = "nvptx offload" ] &&
  ! nvidia-smi -L >/dev/null 2>&1; then
  run env -u ACC_DEVICE_TYPE "$bin/heat2d" run --method acc-resident --nx 8 --ny 8 --steps 1
  expect_rc 1 "offload build, no GPU: acc-resident refused"
  expect_err_lines 1 "offload build, no GPU: one line"
  if grep -qE '^heat2d: run: acc-resident: (no CUDA device: |OpenACC kernels ran on the host, not a GPU).*; set ACC_DEVICE_TYPE=host to run the OpenACC methods on the host$' <<<"$err"; then ok; else
    ko "offload build, no GPU: the line names the missing GPU and how to ask for the host: $err"; fi
  run env ACC_DEVICE_TYPE=host "$bin/heat2d" run --method acc-resident --nx 8 --ny 8 --steps 1
  expect_rc 0 "offload build, ACC_DEVICE_TYPE=host: runs on the host"
  expect_eq "$(key DEVICE)" "host(ACC_DEVICE_TYPE=host)" "offload build, ACC_DEVICE_TYPE=host: DEVICE=host, and why"
else
  skip "an offload build's refusal of the host" "not an OpenACC offload build on a machine without a GPU"
fi
# The same for the OpenMP target methods, whose builds always offload: the
# host is OpenMP's OMP_TARGET_OFFLOAD=DISABLED, asked for by name.
if have_method "$h" omp-target-each "OpenMP target's refusal of the host" &&
  ! nvidia-smi -L >/dev/null 2>&1; then
  for m in omp-target-each omp-target-resident; do
    run env -u OMP_TARGET_OFFLOAD "$bin/heat2d" run --method "$m" --nx 8 --ny 8 --steps 1
    expect_rc 1 "OpenMP offload, no GPU: $m refused"
    expect_err_lines 1 "OpenMP offload, no GPU: $m: one line"
    if grep -qE "^heat2d: run: $m: (no CUDA device: |OpenMP target regions ran on the host, not a GPU).*; set OMP_TARGET_OFFLOAD=DISABLED to run the OpenMP target methods on the host\$" <<<"$err"; then ok; else
      ko "OpenMP offload, no GPU: $m's line names the missing GPU and how to ask for the host: $err"; fi
    run env OMP_TARGET_OFFLOAD=disabled "$bin/heat2d" run --method "$m" --nx 8 --ny 8 --steps 1
    expect_rc 0 "OMP_TARGET_OFFLOAD=disabled (any case): $m runs on the host"
    expect_eq "$(key DEVICE)" "host(OMP_TARGET_OFFLOAD=DISABLED)" "$m on the host: DEVICE=host, and why"
  done
  # Refused before the run, each in one line naming what is wrong.
  expect_failure 1 "$(r "omp-target-resident: HEAT2D_OMP_TARGET_SCHEDULE=fast is not a schedule (seed, collapse, rows, args-rows, columns, columns2)")" \
    env OMP_TARGET_OFFLOAD=DISABLED HEAT2D_OMP_TARGET_SCHEDULE=fast "$h" run --method omp-target-resident --nx 8 --ny 8 --steps 1
  expect_failure 1 "$(r "omp-target-resident: HEAT2D_OMP_TARGET_TEAMS=many is not a positive integer")" \
    env OMP_TARGET_OFFLOAD=DISABLED HEAT2D_OMP_TARGET_TEAMS=many "$h" run --method omp-target-resident --nx 8 --ny 8 --steps 1
fi

# Snapshots asked of what cannot take them, or asked wrongly.
expect_failure 2 "heat2d: run: --output-every must be a positive integer, got '0'" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --output-every 0
expect_failure 2 "heat2d: run: --snapshot-copy 'fast' is not one of plain, overlap" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --output-every 1 --snapshot-copy fast
expect_failure 2 "heat2d: run: --save-every needs --output-every" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --save-every "$s"
: >"$s/plain"
expect_failure 1 "heat2d: run: --save-every: cannot create '$s/plain/x': Not a directory" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --output-every 1 --save-every "$s/plain/x"
expect_failure 1 "heat2d: run: --save-every: '$s/plain' is not a directory" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --output-every 1 --save-every "$s/plain"
run "$h" run --method acc-each --nx 8 --ny 8 --steps 3 --output-every 1
if have_method "$h" acc-each "acc-each refuses snapshots"; then
  expect_rc 2 "acc-each takes no snapshots"
  expect_err_lines 1 "acc-each takes no snapshots: one line"
  expect_err_has "heat2d: run: acc-each takes no snapshots (--output-every applies to cpu, omp, " \
    "acc-each takes no snapshots: the message names those that do, omp among them"
fi
run "$h" run --method cpu --nx 8 --ny 8 --steps 3 --output-every 1 --snapshot-copy overlap
expect_rc 2 "cpu copies no snapshots overlapped"
expect_err_has "heat2d: run: cpu copies its snapshots plain only (overlapped: " \
  "cpu copies plain: the message names the methods that overlap"

# Deep halos: a depth of at least 1, and only for the methods that keep
# them (mpi-cpu in an MPI build; test_mpi runs it).
expect_failure 2 "heat2d: run: --halo-depth must be a positive integer, got '0'" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --halo-depth 0
if "$h" methods | grep -q '^mpi-cpu '; then deep="mpi-cpu"; else deep="no method of this build"; fi
expect_failure 2 "heat2d: run: cpu keeps no deep halos (--halo-depth applies to $deep)" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 3 --halo-depth 2
run "$h" run --method cpu --nx 8 --ny 8 --steps 3 --halo-depth 1
expect_rc 0 "cpu with --halo-depth 1, the default"
expect_out_lacks "HALO_DEPTH=" "cpu prints no halo depth"

finish
