#!/usr/bin/env bash
# What a field file costs: writing and reading an N x N field (4096² by
# default) as text and as NetCDF (deflate off, the default, and deflate
# level 1 with shuffle), side by side on this machine; time and size.
#
#   tools/tuning/field_format_speed.sh [BIN_DIR]          # default build/bin
#   N=2048 STEPS=10 REPEATS=5 RECORDS=5 PAUSE=4 OUT=/tmp/ff.txt tools/tuning/field_format_speed.sh
#
# Memory, the same for every format: each write and each read gets memory
# that was freed just before (the file's last version, removed first, and
# the last read's field), then again after PAUSE seconds (default 4, 0 to
# skip): a VM with free page reporting (the dev VM) has by then handed
# freed memory back to its host, and getting it again costs the host a
# price per byte that no format changes; a table of its own.
# write: the time `heat2d run --method cpu --steps STEPS --save F` spends
#        outside its loop (wall less TOTAL_S) less that of the same run
#        without --save (medians of REPEATS runs, interleaved, so that a
#        noisy machine disturbs every variant alike).
# read:  heat2d_field_load alone, timed inside one process by
#        tools/tuning/field_read_time.c (built here against BIN_DIR's
#        build, BIN_DIR/../src/lib/libheat2d_*.a, its rooms), median of REPEATS reads of
#        each file in turn: the file into memory the read allocates, every
#        value checked finite, the same work for every format. The page
#        cache holds every file whole (fincore's share is printed).
# Earlier revisions took median(`heat2d compare F F F`) less median(`heat2d
# compare F F`) for the read: unfair to the faster format, as it held a
# comparison pass too, and the first touch of a third field's memory,
# which on the dev VM costs whatever the host's state makes it; their
# writes took memory in whatever state the last run left it.
# series: RECORDS snapshots every STEPS steps written as text step files and
#        as one .nc series: SNAPSHOT_CALLBACK_S (check and write), medians.
# heat2d's field after STEPS steps is the unit heat at the centre, spread a
# few cells: mostly zeros, which deflate shrinks to nothing. A dense field
# (every cell a full-precision value, as a model's) is measured too, written
# by Python's netCDF4 through the same library in 1 MiB chunks of rows (a
# compressed field's), where it is installed. The output goes to OUT
# (results/dev-vm/field_format.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(cd "${1:-build/bin}" && pwd)
h=$bin/heat2d
N=${N:-4096}
STEPS=${STEPS:-20}
REPEATS=${REPEATS:-3}
OUT=${OUT:-results/dev-vm/field_format.txt}
scratch=$(mktemp -d "${SCRATCH:-/var/tmp}/field_format.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
"$h" info | grep -q '^NETCDF=NetCDF' || { echo "field_format_speed: $h has no NetCDF" >&2; exit 1; }
PAUSE=${PAUSE:-4}
# The read timer, against the library heat2d itself was built from.
lib=$(dirname "$bin")/src/lib
[ -f "$lib/libheat2d_io.a" ] || { echo "field_format_speed: no $lib/libheat2d_io.a beside $h" >&2; exit 1; }
reader=$scratch/field_read_time
# shellcheck disable=SC2046 # the link flags are words
"${CC:-cc}" -O2 -std=c11 -Isrc/lib/io -Isrc/lib/sys -Isrc/lib/core -Isrc/lib/numbers \
  tools/tuning/field_read_time.c "$lib"/libheat2d_{io,sys,core,numbers}.a \
  "$lib/libheat2d_process_serial.a" $(pkg-config --libs netcdf 2>/dev/null || echo -lnetcdf) \
  $(pkg-config --libs hdf5 2>/dev/null) \
  -lm -lpthread -o "$reader" || { echo "field_format_speed: cannot build $reader" >&2; exit 1; }

now() { date +%s.%N; }
# outside CMD...: seconds a run took outside its loop (wall less TOTAL_S):
# start, set-up, the save, exit; the loop's own noise left out
outside() {
  local t0 t1 total
  t0=$(now)
  total=$("$@" | sed -n 's/^TOTAL_S= *//p')
  t1=$(now)
  echo "$t1 - $t0 - $(printf '%.9f' "$total")" | bc -l
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

run_args=(run --method cpu --nx "$N" --ny "$N" --steps "$STEPS")
variants=(text nc0 nc1)
declare -A file env
file[text]=$scratch/field.dat env[text]=""
file[nc0]=$scratch/field0.nc env[nc0]=HEAT2D_NETCDF_DEFLATE=0
file[nc1]=$scratch/field1.nc env[nc1]=HEAT2D_NETCDF_DEFLATE=1
# writes PAUSE: REPEATS rounds of a run without --save ("bare") and one
# saving each variant, each PAUSE s after the file's last version was
# removed (its page cache the new one's memory); "name seconds" a line.
writes() {
  local _ v
  for _ in $(seq "$REPEATS"); do
    sleep "$1"
    echo "bare $(outside "$h" "${run_args[@]}")"
    for v in "${variants[@]}"; do
      rm -f "${file[$v]}"
      sleep "$1"
      echo "$v $(outside env ${env[$v]} "$h" "${run_args[@]}" --save "${file[$v]}")"
      sync
    done
  done
}
# reads PAUSE: field_read_time's median read of each variant, "name seconds".
reads() {
  local path med rest v
  "$reader" "$REPEATS" "$1" "${file[text]}" "${file[nc0]}" "${file[nc1]}" |
    while read -r path med rest; do
      for v in "${variants[@]}"; do
        if [ "${file[$v]}" = "$path" ]; then echo "$v $med"; fi
      done
    done
}
# of NAME FILE: the median of NAME's seconds in FILE
of() { awk -v k="$1" '$1 == k {print $2}' "$2" | median; }

pauses=(0)
[ "$PAUSE" = 0 ] || pauses+=("$PAUSE")
for p in "${pauses[@]}"; do
  writes "$p" >"$scratch/writes$p"
  if [ "$p" = 0 ]; then
    # The files hold one field: bit for bit the same values.
    "$h" compare "${file[text]}" "${file[nc0]}" "${file[nc1]}" --atol 0 --rtol 0 >/dev/null
    cached=$(for v in "${variants[@]}"; do fincore -b -n -o RES,SIZE "${file[$v]}" 2>/dev/null || true; done |
      awk '{r += ($1 < $2 ? $1 : $2); s += $2} END {printf "%.1f%%", s ? 100 * r / s : 0}')
  fi
  reads "$p" >"$scratch/reads$p"
  for v in "${variants[@]}"; do
    grep -q "^$v " "$scratch/reads$p" || { echo "field_format_speed: $reader did not time ${file[$v]}" >&2; exit 1; }
  done
done

name() {
  case $1 in
  text) echo "text (%24.16E)" ;;
  nc0) echo "netcdf4 f64 deflate 0" ;;
  nc1) echo "netcdf4 f64 deflate 1" ;;
  esac
}
# table PAUSE: a line a variant, its write and read, text's over its own
table() {
  local v bare w r wtext rtext
  bare=$(of bare "$scratch/writes$1")
  printf '%-22s %12s %9s %9s %9s %9s\n' format bytes write_s read_s x_write x_read
  wtext=$(echo "$(of text "$scratch/writes$1") - $bare" | bc -l)
  rtext=$(of text "$scratch/reads$1")
  for v in "${variants[@]}"; do
    w=$(echo "$(of "$v" "$scratch/writes$1") - $bare" | bc -l)
    r=$(of "$v" "$scratch/reads$1")
    printf '%-22s %12d %9.3f %9.3f %9.1f %9.1f\n' "$(name "$v")" "$(stat -c %s "${file[$v]}")" \
      "$w" "$r" "$(echo "$wtext / $w" | bc -l)" "$(echo "$rtext / $r" | bc -l)"
  done
  printf '# (the bare run outside its loop: %.3f s)\n' "$bare"
}
{
  echo "# tools/tuning/field_format_speed.sh: N=$N STEPS=$STEPS REPEATS=$REPEATS PAUSE=$PAUSE"
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores, $("$h" --version)"
  echo "# $("$h" info | grep '^NETCDF=')"
  echo "# scratch on: $(df -T "$scratch" | awk 'NR == 2 {print $2}')"
  echo "# load before: $(cut -d" " -f1-3 /proc/loadavg) (other work on the machine slows every variant alike)"
  echo "# page cache before the reads: $cached of the three files' bytes"
  echo "# write_s = median(run --save) - median(run), each its wall less TOTAL_S, the file removed first;"
  echo "# read_s = heat2d_field_load alone, median (field_read_time); x_*: text's time over this one's"
  echo "# memory the last one freed (write: the file's last version's page cache; read: the last read's):"
  table 0
  if [ "$PAUSE" != 0 ]; then
    echo "# memory new to the VM's host: the same, $PAUSE s before each run and each read:"
    table "$PAUSE"
  fi
} | tee "$OUT.tmp"

# A series: RECORDS snapshots of the same run, as text step files and as
# one .nc series; SNAPSHOT_CALLBACK_S holds the check and the writing.
RECORDS=${RECORDS:-5}
series_args=(run --method cpu --nx "$N" --ny "$N" --steps $((RECORDS * STEPS)) --output-every "$STEPS")
callback() { printf '%.9f' "$("$@" | sed -n 's/^SNAPSHOT_CALLBACK_S= *//p')"; }
declare -A cb
for _ in $(seq "$REPEATS"); do
  cb[none]+="$(callback "$h" "${series_args[@]}") "
  rm -rf "$scratch/steps" "$scratch/series.nc"
  cb[text]+="$(callback "$h" "${series_args[@]}" --save-every "$scratch/steps") "
  cb[nc]+="$(callback "$h" "${series_args[@]}" --save-every "$scratch/series.nc") "
done
{
  echo "# series of $RECORDS records ($N² every $STEPS steps): SNAPSHOT_CALLBACK_S, medians (check alone: none)"
  for v in none text nc; do
    case $v in
    none) bytes=0 name="check only" ;;
    text) bytes=$(du -sb "$scratch/steps" | cut -f1) name="text step files" ;;
    nc) bytes=$(stat -c %s "$scratch/series.nc") name="netcdf4 series" ;;
    esac
    printf '%-22s %12d %9.3f s, %.3f s a record\n' "$name" "$bytes" \
      "$(tr ' ' '\n' <<<"${cb[$v]}" | grep . | median)" \
      "$(echo "$(tr ' ' '\n' <<<"${cb[$v]}" | grep . | median) / $RECORDS" | bc -l)"
  done
} | tee -a "$OUT.tmp"
rm -rf "$scratch/steps" "$scratch/series.nc"

# A dense field through the same library, chunks and filters.
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import netCDF4, numpy' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
  "$py" - "$N" "$REPEATS" "$scratch" <<'EOF' | tee -a "$OUT.tmp"
import os, sys, time, numpy as np, netCDF4
n, repeats, where = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
y, x = np.mgrid[0:n, 0:n] / n
u = np.sin(3 * np.pi * x) * np.sin(2 * np.pi * y) * np.exp(-x) + 1e-3 * np.cos(40 * x * y)
rows = max(1, min(n, (1 << 20) // (8 * n)))
print("# dense field (Python netCDF4, chunks %dx%d): every cell a full-precision value" % (rows, n))
for level in (0, 1):
    w, r = [], []
    for _ in range(repeats):
        path = os.path.join(where, "dense%d.nc" % level)
        t0 = time.perf_counter()
        d = netCDF4.Dataset(path, "w", format="NETCDF4")
        d.createDimension("y", n); d.createDimension("x", n)
        v = d.createVariable("u", "f8", ("y", "x"), chunksizes=(rows, n),
                             zlib=level > 0, complevel=max(level, 1), shuffle=level > 0)
        v[:] = u
        d.close()
        w.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        with netCDF4.Dataset(path) as d:
            back = d["u"][:]
        r.append(time.perf_counter() - t0)
        assert np.array_equal(back, u)
    print("%-22s %12d %9.3f %9.3f" % ("dense f64 deflate %d" % level, os.path.getsize(path),
                                        sorted(w)[len(w) // 2], sorted(r)[len(r) // 2]))
print("# (text of that field: %d bytes)" % (n * n * 25 + len("%d %d\n" % (n, n))))
EOF
fi
mv "$OUT.tmp" "$OUT"
