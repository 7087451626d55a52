#!/usr/bin/env bash
# heat2d plot: a text field, a .nc field, a record of a series, a .nc series
# and a --save-every folder drawn by the bench's own plot script; each
# picture checked to be a PNG or GIF of the expected size (and frames), and
# the refusals in one line.
# usage: test_plot_command.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
h=$bin/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
py=$(matplotlib_python)
[ -n "$py" ] || { echo "SKIP: no python with matplotlib (tools/setup.sh installs it)"; exit 77; }
export HEAT2D_PYTHON=$py
cd "$w"

# size FILE: "WIDTHxHEIGHT" from a PNG's IHDR or a GIF's logical screen.
size() {
  "$py" - "$1" <<'PY'
import struct, sys
head = open(sys.argv[1], "rb").read(32)
if head[:8] == b"\x89PNG\r\n\x1a\n":
    w, h = struct.unpack(">II", head[16:24])
elif head[:6] == b"GIF89a":
    w, h = struct.unpack("<HH", head[6:10])
else:
    w = h = 0
print(f"{w}x{h}")
PY
}
frames() { "$py" -c "import sys; from PIL import Image; print(Image.open(sys.argv[1]).n_frames)" "$1"; }

"$h" run --method cpu --nx 64 --ny 48 --steps 100 --save field.dat >/dev/null
run "$h" plot field.dat
expect_rc 0 "plot a field file"
expect_eq "$out" "PLOT=field.png" "a field file: field.png in the working directory"
expect_eq "$(size field.png)" 816x672 "field.png is a PNG of 816x672"

# ---- lines that name a picture cannot be forged -------------------------------------------
run "$h" plot field.dat --out $'p\nFORGED=1'
expect_eq "$rc/$out" '0/PLOT=p\nFORGED=1.png' "PLOT= escapes the name"

"$h" run --method cpu --nx 40 --ny 30 --steps 60 --output-every 1 --save-every steps >/dev/null
run "$h" plot steps --out folder
expect_rc 0 "plot a --save-every folder"
expect_eq "$out" $'PLOT=folder.gif\nPLOT=folder.png' "a folder: an animation and its last record"
expect_eq "$(size folder.gif)" 489x403 "folder.gif is a GIF of 489x403"
expect_eq "$(frames folder.gif)" 60 "folder.gif has a frame for each of 60 records"
expect_eq "$(size folder.png)" 816x672 "folder.png is a PNG of 816x672"

if "$h" run --method cpu --nx 64 --ny 48 --steps 100 --save field.nc >/dev/null 2>&1 &&
  "$py" -c "import netCDF4" 2>/dev/null; then
  run "$h" plot field.nc
  expect_rc 0 "plot a .nc field"
  expect_eq "$(size field.png)" 816x672 "the .nc field's picture is a PNG of 816x672"
  "$h" run --method cpu --nx 40 --ny 30 --steps 250 --output-every 1 --save-every series.nc >/dev/null
  run "$h" plot series.nc:40
  expect_rc 0 "plot a record of a series"
  expect_eq "$out" "PLOT=series_40.png" "a record: NAME_STEP.png"
  expect_eq "$(size series_40.png)" 816x672 "series_40.png is a PNG of 816x672"
  # The animation of 250 records is python's work alone (heat2d hands it
  # the series as it does a record), 20 s of it: not again under the
  # sanitizers, which see only heat2d.
  if [ "$("$h" info | sed -n 's/^SANITIZE=//p')" = off ]; then
    run "$h" plot series.nc
    expect_rc 0 "plot a .nc series of 250 records"
    expect_eq "$(size series.gif)" 489x403 "series.gif is a GIF of 489x403"
    expect_eq "$(frames series.gif)" 200 "250 records: 200 frames, sampled evenly"
    expect_eq "$(size series.png)" 816x672 "series.png is a PNG of 816x672"
  fi
  expect_failure 1 "heat2d: plot: series.nc has no record at step 41.5 (its steps: 1, 2, 3, 4, 5, 6, 7, 8, ...)" \
    "$h" plot series.nc:41.5
else
  echo "test_plot_command: no NetCDF (heat2d or Python's netCDF4): the .nc pictures are not tried"
fi

expect_failure 1 "heat2d: plot: cannot open 'none.dat': No such file or directory" "$h" plot none.dat
expect_failure 2 "heat2d: plot: a field or series is required" "$h" plot
expect_failure 2 "heat2d: plot: one field or series at a time" "$h" plot field.dat field.dat
expect_failure 1 "heat2d: plot: no python with matplotlib (tried /bin/false): apt-get install python3-matplotlib" \
  env HEAT2D_PYTHON=/bin/false "$h" plot field.dat
printf '5 5\n1\n' >short.dat
run "$h" plot short.dat --out short
expect_rc 1 "a field file with too few values"
expect_err_lines 1 "a bad field: one line"
expect_eq "$([ -e short.png ] && echo made)" "" "a bad field leaves no picture"
finish
