#!/usr/bin/env bash
# heat2d plot: a text field, a .nc field, a record of a series, a .nc series
# and a --save-every folder drawn by the bench's own plot script; each
# picture checked to be a PNG or GIF of the expected size (and frames), and
# the refusals in one line.
# usage: test_plot_command.sh BIN_DIR
set -e
. "$(dirname "$0")/lib.sh"
# pictures: stdout without the SCALE= line heat2d plot prints first.
pictures() { grep -v '^SCALE=' <<<"$out" || true; }
bin=$1
h=$bin/heat2d
tools=$(cd "$(dirname "$0")/../tools" && pwd)
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
expect_eq "$(pictures)" "PLOT=field.png" "a field file: field.png in the working directory"
expect_eq "$(size field.png)" 816x672 "field.png is a PNG of 816x672"

# ---- the pictures' names follow the rules of every file heat2d writes -------------------
# A picture is replaced (keeping its mode), a read-only one refused; a link's
# file is written, the link kept; a FIFO is written in place; a file that is
# not a picture is not heat2d's to replace: refused, before anything is drawn.
echo "my notes" >notes.png
expect_failure 1 "heat2d: plot: notes.png is not a picture (PNG or GIF), which heat2d would replace; remove it or choose another name" \
  "$h" plot field.dat --out notes
expect_eq "$(cat notes.png)" "my notes" "a text file named NAME.png: untouched"
cp field.png ro.png
chmod 444 ro.png
expect_failure 1 "heat2d: plot: ro.png is read-only (mode 444)" "$h" plot field.dat --out ro
cp field.png real.png
chmod 640 real.png
echo older >>real.png
ln -s real.png link.png
run "$h" plot field.dat --out link
expect_eq "$rc/$(pictures)" "0/PLOT=link.png" "a link to a picture: plotted through it"
expect_eq "$([ -L link.png ] && echo link)/$(size real.png)/$(stat -c %a real.png)/$(tail -c 6 real.png | tr -d '\n')" \
  "link/816x672/640/$(tail -c 6 field.png | tr -d '\n')" "the link kept, its file replaced whole, its mode kept"
ln -s notes.png to_notes.png
expect_failure 1 "heat2d: plot: to_notes.png is not a picture (PNG or GIF), which heat2d would replace; remove it or choose another name" \
  "$h" plot field.dat --out to_notes
mkfifo fifo.png
timeout 60 cat fifo.png >from_fifo &
reader=$!
run timeout 60 "$h" plot field.dat --out fifo
wait "$reader" || true
expect_eq "$rc/$(pictures)" "0/PLOT=fifo.png" "a FIFO: plotted into it"
expect_eq "$([ -p fifo.png ] && echo fifo)/$(size from_fifo)" "fifo/816x672" \
  "a FIFO: the picture went through it, the FIFO stays"
expect_eq "$(ls -A "${TMPDIR:-/tmp}" | grep -c "^heat2d-plot-" || true)" 0 "a FIFO: no scratch left"
# (a series: its GIF is not made when its PNG's name is refused)
mkdir series_notes
"$h" run --method cpu --nx 20 --ny 16 --steps 3 --output-every 1 --save-every series_notes/s >/dev/null
echo "my notes" >sn.png
run "$h" plot series_notes/s --out sn
expect_eq "$rc/$(cat sn.png)/$([ -e sn.gif ] && echo gif)" "1/my notes/" "a series into a text NAME.png: nothing made"

# ---- lines that name a picture cannot be forged -------------------------------------------
run "$h" plot field.dat --out $'p\nFORGED=1'
expect_eq "$rc/$(pictures)" '0/PLOT=p\nFORGED=1.png' "PLOT= escapes the name"

# ---- a plotter that exits 0 and makes nothing fails ------------------------------------
printf 'import sys\nsys.exit(0)\n' >lazy.py
run env HEAT2D_PLOT_SCRIPT="$w/lazy.py" "$h" plot field.dat --out lazy
expect_eq "$rc/$err" "1/heat2d: plot: $py $w/lazy.py exited 0 without making lazy.png" \
  "a plotter that makes no picture: the one line"

"$h" run --method cpu --nx 40 --ny 30 --steps 60 --output-every 1 --save-every steps >/dev/null
run "$h" plot steps --out folder
expect_rc 0 "plot a --save-every folder"
expect_eq "$(pictures)" $'PLOT=folder.gif\nPLOT=folder.png' "a folder: an animation and its last record"
expect_eq "$(size folder.gif)" 489x403 "folder.gif is a GIF of 489x403"
expect_eq "$(frames folder.gif)" 60 "folder.gif has a frame for each of 60 records"
expect_eq "$(size folder.png)" 816x672 "folder.png is a PNG of 816x672"

if "$h" run --method cpu --nx 64 --ny 48 --steps 100 --save field.nc >/dev/null 2>&1; then
  run "$h" plot field.nc
  expect_rc 0 "plot a .nc field"
  expect_eq "$(size field.png)" 816x672 "the .nc field's picture is a PNG of 816x672"
  "$h" run --method cpu --nx 40 --ny 30 --steps 250 --output-every 1 --save-every series.nc >/dev/null
  run "$h" plot series.nc:40
  expect_rc 0 "plot a record of a series"
  expect_eq "$(pictures)" "PLOT=series_40.png" "a record: NAME_STEP.png"
  expect_eq "$(size series_40.png)" 816x672 "series_40.png is a PNG of 816x672"
  # A .nc series animated: a frame for each record. Beyond 200 records the
  # frames are sampled evenly, first and last kept (the rule alone: drawing
  # 200 frames is 20 s of python's work, which the folder's 60 show).
  "$h" run --method cpu --nx 40 --ny 30 --steps 110 --output-every 10 --save-every short_series.nc >/dev/null
  run "$h" plot short_series.nc
  expect_rc 0 "plot a .nc series of 12 records"
  expect_eq "$(size short_series.gif)" 489x403 "short_series.gif is a GIF of 489x403"
  expect_eq "$(frames short_series.gif)" 12 "12 records: 12 frames"
  expect_eq "$(size short_series.png)" 816x672 "short_series.png is a PNG of 816x672"
  run "$py" -c '
import sys
sys.path.insert(0, sys.argv[1])
from plots.field_pictures import frame_picks
for n in (12, 200, 201, 251, 100000):
    p = frame_picks(n)
    gaps = {b - a for a, b in zip(p, p[1:])}
    print(n, len(p), p[0], p[-1], min(gaps), max(gaps))' "$tools"
  expect_eq "$rc/$(paste -sd' ' <<<"$out")" \
    "0/12 12 0 11 1 1 200 200 0 199 1 1 201 200 0 200 1 2 251 200 0 250 1 2 100000 200 0 99999 502 503" \
    "frames: every record up to 200, then 200 spread evenly with the first and the last"
  expect_failure 1 "heat2d: plot: series.nc holds no record of step 251 (251 records, steps 0 to 250)" \
    "$h" plot series.nc:251
  # A file in metres and seconds: the axes in metres, a record's time in seconds.
  "$h" run --method cpu --nx 40 --ny 30 --steps 20 --output-every 10 --dx 10 --dt 0.5 --diffusivity 2 \
    --save-every metres.nc >/dev/null
  expect_eq "$("$h" plot --values metres.nc:20 | head -n 1 | tr -d '\0')" "field 40 30 dx=10 dt=0.5" \
    "plot's reader hands on the cell size and the time step"
  run env HEAT2D_READER="$h" "$py" -c '
import sys
sys.path.insert(0, sys.argv[1])
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from plots import field_pictures, field_scale, fields
for spec in sys.argv[2:]:
    field, meta = fields.read_spec(spec)
    title = field_pictures.field_title(field, meta)
    fig, ax, _ = field_pictures.draw_field(plt, field, title, field_scale.choose(field), meta)
    print(ax.get_xlabel(), "|", ax.get_ylabel(), "|", ax.get_xlim(), "|", title.splitlines()[0])' \
    "$tools" metres.nc:20 series.nc:40
  expect_eq "$rc/$(sed -n 1p <<<"$out")" "0/x [m] | y [m] | (-5.0, 395.0) | metres.nc, 40x30, step 20 (t = 10 s)" \
    "a field in metres: its axes in metres, its time in seconds"
  expect_eq "$(sed -n 2p <<<"$out")" "i (cell index) | j (cell index) | (-0.5, 39.5) | series.nc, 40x30, step 40" \
    "a field in cells: its axes in cell indices"
else
  echo "test_plot_command: this heat2d has no NetCDF: the .nc pictures are not tried"
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
# ---- the colour scale: chosen from the values, or as asked --------------------------------
# A point source's bell spans many decades: log, from the round-off foot
# (max*1e-16) to the max. A 5 m mound on 0, as given and after 40 steps,
# keeps its top: linear from 0.
"$h" run --method cpu --nx 128 --ny 128 --steps 100 --save point.dat >/dev/null
awk 'BEGIN { print 64, 64; for (j = 0; j < 64; ++j) for (i = 0; i < 64; ++i)
  print ((i - 32) ^ 2 + (j - 32) ^ 2 < 100) ? 5 : 0 }' >mound.dat
"$h" run --method cpu --initial mound.dat --steps 40 --save mound40.dat >/dev/null
scale() { sed -n 's/^SCALE=\([a-z]*\) VMIN=\([^ ]*\) .*CMAP=\(.*\)$/\1 \2 \3/p' <<<"$out"; }
run "$h" run --method cpu --nx 128 --ny 128 --steps 100
point_max=$(key MAX)
run "$h" plot point.dat
expect_eq "$rc/$(cut -d' ' -f1,3 <<<"$(scale)")/$(pictures)" "0/log inferno/PLOT=point.png" "a point source: log"
expect_eq "$("$py" -c 'import sys; v = [float(x) for x in sys.argv[1:]]; print(v[0] == v[2], v[1] == v[2] * 1e-16)' \
  "$(sed -n 's/.* VMAX=\([^ ]*\) .*/\1/p' <<<"$out")" "$(cut -d' ' -f2 <<<"$(scale)")" "$point_max")" \
  "True True" "a point source: from max*1e-16 to its max ($point_max)"
run "$h" plot mound.dat
expect_eq "$rc/$(scale)/$(pictures)" "0/linear 0.0 inferno/PLOT=mound.png" "a 5 m mound on 0: linear from 0"
expect_eq "$(sed -n 's/.* VMAX=\([^ ]*\) .*/\1/p' <<<"$out")" "5.0" "the mound's scale ends at its 5 m"
run "$h" plot mound40.dat
expect_eq "$rc/$(scale)" "0/linear 0.0 inferno" "the mound after 40 steps: still linear"
run "$h" plot point.dat --scale linear --vmax 0.001 --cmap viridis --out asked
expect_eq "$rc/$out" $'0/SCALE=linear VMIN=0.0 VMAX=0.001 CMAP=viridis\nPLOT=asked.png' "the scale as asked"
run "$h" plot mound.dat --scale log --vmin 0.01 --vmax 10 --out asked
expect_eq "$rc/$(scale)" "0/log 0.01 inferno" "a log scale as asked"
run "$h" plot series_notes/s --scale linear --vmin 0 --vmax 1 --out sn2
expect_eq "$rc/$out" $'0/SCALE=linear VMIN=0.0 VMAX=1.0 CMAP=inferno\nPLOT=sn2.gif\nPLOT=sn2.png' \
  "a series: one scale for the animation and its last record"
# Refused in one line, exit 2, nothing drawn.
refused() {
  local want=$1
  shift
  expect_failure 2 "heat2d: plot: $want" "$h" plot "$@" --out refused
  expect_eq "$(ls refused.* 2>/dev/null)" "" "refused ($*): no picture"
}
refused "--scale cubic: linear or log" point.dat --scale cubic
refused "--vmin 1 is not below --vmax 1" point.dat --vmin 1 --vmax 1
refused "--vmin 2 is not below --vmax 1" point.dat --vmin 2 --vmax 1
refused "--vmin nan: not a finite number" point.dat --vmin nan
refused "--vmax inf: not a finite number" point.dat --vmax inf
refused "--vmin 1e999: not a finite number" point.dat --vmin 1e999
refused "--vmax x: not a finite number" point.dat --vmax x
refused "--vmin 0: a log scale starts above 0" point.dat --scale log --vmin 0
# Finite limits the colour bar cannot draw (its ticks overflow, its norm
# refuses a subnormal): refused before the plotter starts, never its
# exception; the widest it can draw, drawn.
refused "--vmin -1.7e308: too large for a colour scale (at most 1e+200 in size)" \
  point.dat --vmin -1.7e308 --vmax 1.7e308
refused "--vmax 1e300: too large for a colour scale (at most 1e+200 in size)" \
  point.dat --scale log --vmin 1 --vmax 1e300
refused "--vmin 1e-320: a log scale starts at 1e-200 or above" point.dat --scale log --vmin 1e-320
run "$h" plot point.dat --scale log --vmin 1e-200 --vmax 1e200 --out widest
expect_eq "$rc/$(pictures)" "0/PLOT=widest.png" "the widest log scale drawn"
# (A point source's scale is log by default; a --vmin of 0 or below asks
# for a linear one, never a log scale from below 0.)
run "$h" plot point.dat --vmin -1e200 --vmax 1e200 --out widest
expect_eq "$rc/$(scale | cut -d' ' -f1)/$(pictures)" "0/linear/PLOT=widest.png" \
  "the widest linear scale drawn, for a --vmin below 0 on a point source"
# A name that is a folder's: no picture called .png made in it.
mkdir -p pics
for name in / pics/ . pics/..; do
  sep=/
  [ "${name: -1}" = / ] && sep=
  expect_failure 2 "heat2d: plot: --out $name names a folder, not a picture; give the picture's name, e.g. --out $name${sep}field for $name${sep}field.png" \
    "$h" plot point.dat --out "$name"
done
expect_eq "$(ls -a / pics . | grep -c '^\.png$')" "0" "no .png made in /, pics or here"
refused "--vmin -1: a log scale starts above 0" point.dat --scale log --vmin -1
refused "--cmap nosuch: not a matplotlib colormap (such as viridis, inferno, coolwarm, Blues)" \
  point.dat --cmap nosuch
refused "--cmap: not a matplotlib colormap name" point.dat --cmap 'a b'
refused "--vmin 6 is not below the field's maximum 5: give --vmax as well" mound.dat --vmin 6
refused "--vmax -1 is not above the scale's foot 0: give --vmin as well" mound.dat --vmax -1
awk 'BEGIN { print 8, 8; for (k = 0; k < 64; ++k) print 0 }' >zero.dat
refused "--scale log: the field has no positive value (its maximum is 0); give --vmin and --vmax" \
  zero.dat --scale log
finish
