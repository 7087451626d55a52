#!/usr/bin/env bash
# --snapshot-writer none|text|netcdf, run and bench: on an odd grid, in f64
# and f32, each writer writes its records into a scratch folder under
# $TMPDIR that is gone afterwards (after a failed write too), and says what
# its files held (text: 25 bytes a value and the shape line, exactly); a
# build without NetCDF refuses netcdf with one line, exit 2. The bench
# multiplies each snapshot run by writer (labels, the trials.csv column),
# records the scratch folder's file system and write rate in bandwidth.txt,
# and its snapshot table has a row per writer, each cell against the bound
# recomputed here from trials.csv and bandwidth.txt.
# usage: test_snapshot_writer.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
h=$1/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
scratch=$w/scratch
mkdir "$scratch"
nc=false
"$h" info | grep -q '^NETCDF=NetCDF' && nc=true

# ---- run: each writer, each precision -----------------------------------------------------
nx=37 ny=23 steps=17 every=5 records=4 # steps 5, 10, 15 and 17
writers="none text"
$nc && writers="$writers netcdf"
for prec in f64 f32; do
  cell=8
  [ "$prec" = f32 ] && cell=4
  for wr in $writers; do
    run env TMPDIR="$scratch" "$h" run --method cpu --nx $nx --ny $ny --steps $steps \
      --precision $prec --output-every $every --snapshot-writer $wr
    expect_rc 0 "$wr $prec"
    expect_eq "$(key SNAPSHOTS) $(key SNAPSHOT_WRITER)" "$records $wr" "$wr $prec: records, writer"
    expect_eq "$(ls -A "$scratch")" "" "$wr $prec: no scratch folder left"
    bytes=$(key SNAPSHOT_BYTES_WRITTEN)
    case $wr in
    none) expect_eq "$bytes" "" "none writes nothing, says no bytes" ;;
    # The original's format, f32 widened: "NX NY\n", then 25 bytes a value.
    text) expect_eq "$bytes" $((records * (25 * nx * ny + ${#nx} + ${#ny} + 2))) "text $prec: bytes" ;;
    # A record is the field in the run's precision; the file's header and
    # HDF5's metadata come once, under 64 KiB.
    netcdf)
      data=$((records * nx * ny * cell))
      expect_eq "$([ "$bytes" -gt $data ] && [ "$bytes" -lt $((data + 65536)) ] && echo yes)" yes \
        "netcdf $prec: $bytes bytes, $data of records and a header"
      ;;
    esac
  done
done
# A write that fails (a 1 KiB file-size limit): one line naming the file in
# the scratch folder, exit 1, and the folder is gone.
wr=text
$nc && wr=netcdf
run bash -c "ulimit -f 1; TMPDIR='$scratch' '$h' run --method cpu --nx $nx --ny $ny --steps $steps --output-every $every --snapshot-writer $wr"
expect_rc 1 "$wr under a 1 KiB file limit"
expect_err_has "$scratch/heat2d-snapshots-" "$wr writes into its scratch folder"
expect_err_lines 1 "$wr under a 1 KiB file limit: one line"
expect_eq "$(ls -A "$scratch")" "" "a failed $wr leaves no scratch folder"
expect_failure 2 "heat2d: run: --snapshot-writer writes to a scratch folder and --save-every to $w/s: give one of them" \
  "$h" run --method cpu --nx 8 --ny 8 --steps 2 --output-every 1 --snapshot-writer text --save-every "$w/s"
# --save-every says what its snapshots were written as, and their bytes.
run "$h" run --method cpu --nx $nx --ny $ny --steps $steps --output-every $every --save-every "$w/d"
expect_eq "$(key SNAPSHOT_WRITER) $(key SNAPSHOT_BYTES_WRITTEN)" \
  "text $(cat "$w"/d/step_*.dat | wc -c)" "--save-every DIR: text, its step files' bytes"
if ! $nc; then
  skip "the netcdf writer's runs" "this build has no NetCDF (its refusals are checked instead)"
  fix="this heat2d was built without NetCDF (install libnetcdf-dev, or run tools/setup.sh, and build again)"
  expect_failure 2 "heat2d: run: --snapshot-writer netcdf: $fix" \
    env TMPDIR="$scratch" "$h" run --method cpu --nx 8 --ny 8 --steps 2 --output-every 1 --snapshot-writer netcdf
  expect_failure 2 "heat2d: bench: --snapshot-writer netcdf: $fix" \
    "$h" bench --methods cpu --sizes 8x8:2 --output-every 1 --snapshot-writer netcdf --out "$w/nb"
  expect_eq "$(ls -A "$scratch")" "" "a refused netcdf makes no scratch folder"
fi

# ---- bench: a row per writer, the write rate, the table's bounds --------------------------
expect_failure 2 "heat2d: bench: --snapshot-writer needs --output-every" \
  "$h" bench --methods cpu --sizes 8x8:2 --snapshot-writer text --out "$w/nb"
expect_failure 2 "heat2d: bench: --snapshot-writer 'none,csv': each item must be none, text or netcdf, e.g. none,netcdf" \
  "$h" bench --methods cpu --sizes 8x8:2 --output-every 1 --snapshot-writer none,csv --out "$w/nb"
b=$w/b
nx=21 ny=15 steps=9
list=$(tr ' ' , <<<"$writers")
run env TMPDIR="$scratch" "$h" bench --methods cpu --sizes ${nx}x$ny:$steps --output-every 1,4 \
  --snapshot-writer "$list" --repeats 1 --warmups 0 --out "$b"
expect_rc 0 "bench with writers $list"
expect_eq "$(ls -A "$scratch")" "" "the bench leaves no scratch folder"
want="cpu"
for k in 1 4; do
  for wr in $writers; do
    if [ $wr = none ]; then want="$want cpu-k$k-plain"; else want="$want cpu-k$k-plain-$wr"; fi
  done
done
csv=$b/trials.csv
expect_eq "$(python3 -c 'import csv, sys
print(" ".join(r["label"] for r in csv.DictReader(open(sys.argv[1], newline=""))))' "$csv")" \
  "$want" "one row a target, labelled by writer"
bw=$b/bandwidth.txt
expect_eq "$(sed -n 's/^SCRATCH_DIR=//p' "$bw")" "$scratch" "bandwidth.txt: the writers' folder"
fs=$(sed -n 's/^SCRATCH_FS=//p' "$bw")
if command -v findmnt >/dev/null; then
  expect_eq "$fs" "$(findmnt -n -o FSTYPE --target "$scratch" | tail -n 1)" "bandwidth.txt: its file system"
else
  skip "bandwidth.txt's file system" "no findmnt here to compare it with"
fi
expect_eq "$(sed -n 's/^SCRATCH_WRITE_BYTES=//p; s/^SCRATCH_WRITE_SYNC=//p' "$bw" | paste -sd' ')" \
  "$((nx * ny * 8)) none" "bandwidth.txt: files of the largest field, no fsync"
gbs=$(sed -n 's/^SCRATCH_WRITE_GBS=//p' "$bw")
expect_eq "$(awk -v g="$gbs" 'BEGIN { print (g + 0 > 0 && g + 0 < 1e6) ? "yes" : "no" }')" yes \
  "bandwidth.txt: a write rate ($gbs GB/s)"
summary=$b/summary.md
expect_eq "$(grep -c "^The snapshot writers' folder, $scratch ($fs), took files of " "$summary")" 1 \
  "the limits name the writers' folder"
expect_eq "$(grep -c "^| cpu | plain | text, 25 B/cell |" "$summary")" 1 "text: 25 bytes a cell"
# Each row's writer, snapshots and bytes; a table row per writer; each
# cell's ratio to its bound, max(the run without snapshots, ceil(steps/K)
# copies at the pinned D2H rate where measured, the records written inside
# the loop (cpu: all of them) x bytes each / the write rate), recomputed
# here from trials.csv and bandwidth.txt.
run python3 - "$csv" "$bw" "$summary" "$writers" $nx $ny $steps <<'PY'
import csv, math, re, sys
rows = {r["label"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
rates = dict(l.split("=", 1) for l in open(sys.argv[2]) if "=" in l)
summary = open(sys.argv[3]).read()
writers, nx, ny, steps = sys.argv[4].split(), *map(int, sys.argv[5:])
cells, bad = nx * ny, []
for label, r in rows.items():
    k = int(r["output_every"] or 0)
    want = "" if k == 0 else label.rsplit("-", 1)[1] if label.count("-") == 3 else "none"
    n, got = int(r["snapshots"] or 0), int(r["snapshot_bytes_written"] or 0)
    if r["snapshot_writer"] != want or (k and n != math.ceil(steps / k)):
        bad.append(f"{label}: writer {r['snapshot_writer']!r}, {n} snapshots")
    if want == "text" and got != n * (25 * cells + len(f"{nx} {ny}\n")):
        bad.append(f"{label}: {got} bytes")
    if want == "netcdf" and not n * cells * 8 < got < n * cells * 8 + 65536:
        bad.append(f"{label}: {got} bytes")
table = summary.split("### Snapshots at")[1].split("\n\n")[2].splitlines()[2:]
if [l.split("|")[3].strip().split(",")[0] for l in table] != writers:
    bad.append(f"table rows: {table}")
gbs, d2h = float(rates["SCRATCH_WRITE_GBS"]), float(rates.get("D2H_PINNED_GBS", 0))
loop = float(rows["cpu"]["cpu_loop_s"]) / steps
for line in table:
    writer = line.split("|")[3].strip().split(",")[0]
    for col, k in enumerate((1, 4)):
        r = rows[f"cpu-k{k}-plain" + ("" if writer == "none" else f"-{writer}")]
        records = math.ceil(steps / k)
        copies = records * cells * 8 / (d2h * 1e9) / steps if d2h > 0 else 0
        # cpu hands every record over inside its loop.
        written = records * int(r["snapshot_bytes_written"] or 0) / int(r["snapshots"]) / (gbs * 1e9) / steps
        want = float(r["cpu_loop_s"]) / steps / max(loop, copies, written)
        got = re.search(r"\(([0-9.]+)\)", line.split("|")[4 + col])
        if got is None or abs(float(got.group(1)) - want) > 0.006:
            bad.append(f"{r['label']}: {line.split('|')[4 + col]}, want ({want:.2f})")
print("; ".join(bad))
PY
expect_eq "$rc $out" "0 " "trials.csv and the snapshot table: writers, bytes, bounds ($err)"

# The plot draws a line per writer (test_plots.sh checks its labels).
if have_matplotlib "snapshots.png"; then
  expect_eq "$([ -s "$b/snapshots.png" ] && echo yes)" yes "snapshots.png drawn"
fi
finish
