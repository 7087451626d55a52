#!/usr/bin/env bash
# --snapshot-writer none|text|netcdf: on an odd grid, in f64
# and f32, each writer writes its records into a scratch folder under
# $TMPDIR that is gone afterwards (after a failed write too), and says what
# its files held (text: 25 bytes a value and the shape line, exactly); a
# build without NetCDF refuses netcdf with one line, exit 2.
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
  fix="this heat2d was built without NetCDF (install libnetcdf-dev, or run tools/setup.sh, and build again)"
  expect_failure 2 "heat2d: run: --snapshot-writer netcdf: $fix" \
    env TMPDIR="$scratch" "$h" run --method cpu --nx 8 --ny 8 --steps 2 --output-every 1 --snapshot-writer netcdf
  expect_eq "$(ls -A "$scratch")" "" "a refused netcdf makes no scratch folder"
fi

finish
