#!/usr/bin/env bash
# The programs modellers open heat2d's series with, as the distribution
# installs them, each running the commands docs/usage.md gives (read from
# its "<!-- client: NAME -->" blocks) on a series written by cpu and one
# written by mpi-cpu on 2 ranks (--dx 10 --dt 0.5 --diffusivity 2), and
# asserting on what it prints: xarray decodes the times (0, 2, ... s after
# the reference), the steps, x in metres and the values (bit for bit the
# run's); CDO's sinfon and infon print no warning, the time axis and a
# distinct timestamp a record, and each record's maximum; NCO's ncks lists
# every variable and reads each whole; ParaView's pvpython (headless under
# xvfb-run -s -noreset, as docs/usage.md says; one process for both series)
# opens the series with the one setting docs/usage.md names (Dimensions;
# Spherical Coordinates left as it comes), sees every record at its time, a
# flat grid in metres (spacing dx) and u's range per record, and saves a
# picture that shows the field; unasked, its reader's Dimensions and
# OpenDataFile's reader are what docs/usage.md says. Each tool's copy of a
# series (cdo copy, cdo seltimestep, ncrcat of ncks pieces, an xarray round
# trip) continues with --append to the records, times and header of one run;
# gdalinfo finds a --dx field's geotransform, and GDAL's north-up copy of it
# runs as the field, bit for bit. Iris's loading rule (Iris is not packaged)
# drops a --dx field's x and y and keeps those of docs/usage.md's copy for
# it, which runs as the field. A client that is not installed is named and
# the test skips (77), unless HEAT2D_REQUIRE_CLIENTS=1 (CI), where it fails.
# usage: test_netcdf_clients.sh BIN_DIR SOURCE_DIR
set -e
bin=$(cd "$1" && pwd)
usage_md=$(cd "$2" && pwd)/docs/usage.md
. "$(dirname "$0")/lib.sh"
h=$bin/heat2d
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
need_netcdf "$h"
missing=()
# block NAME: the code of docs/usage.md's block after "<!-- client: NAME -->"
block() {
  awk -v tag="<!-- client: $1 -->" '$0 == tag {on=1; next} on && /^```/ {if (in_code) exit; in_code=1; next} on && in_code' "$usage_md"
}
for name in xarray cdo nco paraview; do
  [ -n "$(block $name)" ] || ko "docs/usage.md has no '<!-- client: $name -->' block"
done
# each_command NAME FILE CHECK: each command of NAME's shell block run on
# FILE (for series.nc) with `run`, then CHECK COMMAND FILE on its output.
each_command() {
  local line cmd
  while IFS= read -r line; do
    cmd=${line%%#*}
    [ -n "${cmd// /}" ] || continue
    run bash -c "${cmd//series.nc/$2}"
    expect_rc 0 "$1: $cmd on $2 ($err)"
    "$3" "$cmd" "$2"
  done < <(block "$1")
}
# Debian's python has the distribution's xarray (python3-xarray); another
# python on PATH may not.
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import xarray, netCDF4, numpy' 2>/dev/null; then py=$p; break; fi
done

# ---- the series: cpu, and mpi-cpu on 2 ranks ------------------------------------------------
grid=(--nx 40 --ny 30 --steps 20 --output-every 4 --dx 10 --dt 0.5 --diffusivity 2)
run "$h" run --method cpu "${grid[@]}" --save-every series.nc --save last.dat
expect_rc 0 "cpu writes the series"
max=$(key MAX)
series=(series.nc)
if "$h" methods | grep -q '^mpi-cpu ' && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launch=(env ${HEAT2D_MPI_LSAN_OPTIONS:+"LSAN_OPTIONS=$HEAT2D_MPI_LSAN_OPTIONS"} mpirun)
  mpirun --version 2>&1 | grep -qE 'Open MPI|OpenRTE' && launch+=(-q --oversubscribe)
  run timeout 60 "${launch[@]}" -np 2 "$h" run --method mpi-cpu "${grid[@]}" --save-every mpi.nc
  expect_rc 0 "mpi-cpu on 2 ranks writes the series"
  series+=(mpi.nc)
else
  missing+=("mpi-cpu or mpirun (the 2-rank series)")
fi
times="0,2,4,6,8,10"
steps="0,4,8,12,16,20"

# ---- xarray -----------------------------------------------------------------------------------
if [ -n "$py" ]; then
  for s in "${series[@]}"; do
    { block xarray | sed "s/series\.nc/$s/g"
      cat <<'PY'
import numpy as np
seconds = (ds.time.values - np.datetime64("1970-01-01T00:00:00")) / np.timedelta64(1, "s")
print("TIMES=" + ",".join("%g" % t for t in seconds))
print("STEPS=" + ",".join(str(int(k)) for k in ds.step.values))
print("X=%g..%g %s Y=%g..%g %s" % (ds.x[0], ds.x[-1], ds.x.units, ds.y[0], ds.y[-1], ds.y.units))
with open("last.dat") as f:
    nx, ny = map(int, f.readline().split())
    last = np.array([float(v) for v in f]).reshape(ny, nx)
print("LAST_IS_THE_RUNS=%s" % np.array_equal(ds.u.isel(time=-1).values, last))
first = ds.u.isel(time=0).values
print("FIRST_IS_THE_INITIAL_STATE=%s" % (first[14, 19] == 1.0 and first.sum() == 1.0))
PY
    } >xr.py
    run "$py" xr.py
    expect_rc 0 "xarray runs docs/usage.md's block on $s"
    expect_eq "$(sed -n 3p <<<"$out")" "[0 4 8]" "xarray, $s: the block's steps"
    expect_eq "$(sed -n 4p <<<"$out")" "m 10.0" "xarray, $s: the block's x in metres"
    expect_eq "$(sed -n 5p <<<"$out")" "$(printf '%.17g' "$max" | "$py" -c 'print(float(input()))')" \
      "xarray, $s: the block's last maximum is the run's MAX"
    for line in "TIMES=$times" "STEPS=$steps" "X=0..390 m Y=0..290 m" "LAST_IS_THE_RUNS=True" \
      "FIRST_IS_THE_INITIAL_STATE=True"; do
      expect_out_has "$line" "xarray, $s"
    done
  done
else
  missing+=("python3-xarray (no python3 here imports xarray, netCDF4 and numpy)")
fi

# ---- CDO --------------------------------------------------------------------------------------
cdo_printed() { # COMMAND FILE
  expect_eq "$(grep -ciE 'warning|unsupported|error|can.t' <<<"$out$err" || true)" 0 \
    "CDO: $1 on $2 prints no warning ($err)"
  case $1 in
  *sinfon*)
    stamps=$(sed -n '/YYYY-MM-DD hh:mm:ss/,$p' <<<"$out" | grep -oE '1970-01-01 [0-9:]{8}' | paste -sd, -)
    expect_eq "$stamps" "$(for t in ${times//,/ }; do printf '1970-01-01 00:00:%02d\n' "$t"; done | paste -sd, -)" \
      "CDO sinfon, $2: a distinct timestamp a record, 2 s apart"
    expect_out_has "x : 0 to 390 by 10 m" "CDO sinfon, $2: x in metres"
    expect_out_has "RefTime =  1970-01-01 00:00:00  Units = seconds" "CDO sinfon, $2: the time axis"
    ;;
  *infon*)
    expect_eq "$(grep -c ': u *$' <<<"$out")" 6 "CDO infon, $2: six records of u"
    expect_eq "$(grep ': u *$' <<<"$out" | tail -n 1 | awk '{print $(NF-2)}')" \
      "$(printf '%.5f' "$max")" "CDO infon, $2: the last record's maximum is the run's MAX"
    ;;
  esac
}
if command -v cdo >/dev/null; then
  for s in "${series[@]}"; do each_command cdo "$s" cdo_printed; done
else
  missing+=("cdo")
fi

# ---- NCO ---------------------------------------------------------------------------------------
nco_printed() { # COMMAND FILE
  case $1 in
  *-m*)
    expect_eq "$(grep -oE '^[a-z]+: type' <<<"$out" | sed 's/: type//' | sort | paste -sd' ' -)" \
      "step time u x y" "NCO, $2: every variable listed"
    ;;
  *"-v step"*)
    expect_eq "$(paste -sd' ' <<<"$out" | tr -s ' ')" \
      "time[0]=0 step[0]=0 time[1]=2 step[1]=4 time[2]=4 step[2]=8 time[3]=6 step[3]=12 time[4]=8 step[4]=16 time[5]=10 step[5]=20 " \
      "NCO, $2: each record's time and step"
    ;;
  *"-v u"*)
    expect_eq "$(grep -c '^time\[1\]=2 y\[[0-9]*\]=[0-9]* x\[[0-9]*\]=[0-9]* u\[' <<<"$out")" 1200 \
      "NCO, $2: the second record's 1200 cells, at 2 s, in metres"
    ;;
  esac
}
if command -v ncks >/dev/null; then
  for s in "${series[@]}"; do
    each_command nco "$s" nco_printed
    # Every variable read whole: its values, one a line.
    for want in x:40 y:30 time:6 step:6 u:7200; do
      v=${want%%:*}
      run ncks --trd -H -C -v "$v" "$s"
      expect_eq "$rc/$(grep -c "^.*$v\[[0-9]*\]=" <<<"$out")" "0/${want#*:}" "NCO reads $v of $s whole"
    done
  done
else
  missing+=("nco (ncks)")
fi

# ---- round trips: each tool's copy of a series continues with --append --------------------------
# A series of 10 steps, copied by a tool, appended to by 10 more steps with
# nothing typed again: the same records, times and header as one run of 20.
rt=(--method cpu --nx 30 --ny 20 --output-every 5 --dx 10 --dt 0.5 --diffusivity 2)
"$h" run "${rt[@]}" --steps 20 --save-every rt_full.nc >/dev/null
"$h" run "${rt[@]}" --steps 10 --save-every rt_half.nc >/dev/null
nc_values() { # nc_values VAR FILE: its values, blank-separated
  ncdump -v "$1" "$2" | awk -v v=" $1 = " 'index($0, v) == 1 {on=1} on {printf "%s", $0} on && /;/ {exit}' |
    sed "s/^ $1 = //; s/ *;.*//" | tr -d ' ' | tr ',' ' '
}
appended() { # appended COPY TOOL: COPY (steps 0 to 10) continued to 20 is rt_full
  run "$h" run --method cpu --steps 10 --output-every 5 --initial "$1:10" --save-every "$1" --append
  expect_rc 0 "$2's copy continues with --append ($err)"
  expect_eq "$(nc_values step "$1")/$(nc_values time "$1")" "0 5 10 15 20/0 2.5 5 7.5 10" \
    "$2's copy, appended: the steps and times of one run"
  local k
  for k in 0 5 10 15 20; do
    run "$h" compare "rt_full.nc:$k" "$1:$k" --atol 0 --rtol 0
    expect_eq "$rc/$(grep -c 'FAILURES=0' <<<"$out")" 0/1 "$2's copy, appended: record $k that of one run, bit for bit"
  done
  expect_eq "$(ncdump -h "$1" | grep -cE ':complete = "true"|heat2d run --method cpu --steps 10 --output-every 5 --initial')" 2 \
    "$2's copy, appended: complete, its history naming the append"
  expect_eq "$(ncdump -h "$1" | grep -cE ':(steps|nx|ny) = ')" 0 "$2's copy, appended: no count to go stale"
}
if command -v cdo >/dev/null; then
  cdo -s -f nc4 copy rt_half.nc cdo_copy.nc
  appended cdo_copy.nc "cdo copy"
  cdo -s seltimestep,1/3 rt_full.nc cdo_sel.nc
  appended cdo_sel.nc "cdo seltimestep"
fi
if command -v ncrcat >/dev/null; then
  ncks -O -d time,0,1 rt_half.nc nco_a.nc
  ncks -O -d time,2 rt_half.nc nco_b.nc
  ncrcat -O nco_a.nc nco_b.nc nco_cat.nc
  appended nco_cat.nc ncrcat
else
  missing+=("nco (ncrcat)")
fi
if [ -n "$py" ]; then
  "$py" -c 'import xarray; xarray.open_dataset("rt_half.nc").load().to_netcdf("xr_copy.nc")'
  expect_eq "$(ncdump -h xr_copy.nc | grep -c 'time:units = "seconds since 1970-01-01" ;')" 1 \
    "xarray writes the time units back in another spelling"
  appended xr_copy.nc "xarray"
fi

# ---- GDAL: a north-up copy runs as the south-up field ----------------------------------------------
field=(--nx 30 --ny 20 --dx 10)
"$h" run --method cpu "${field[@]}" --steps 10 --dt 0.1 --diffusivity 2 --save south.nc >/dev/null
run "$h" run --method cpu --steps 10 --initial south.nc --save from_south.dat
south_dt=$(key DT)
if command -v gdal_translate >/dev/null; then
  # GDAL takes x and y for its geotransform by their standard_name alone
  # (docs/usage.md): the outer corner of the first row and the cell size.
  run gdalinfo NETCDF:south.nc:u
  expect_eq "$rc/$(grep -E '^(Origin|Pixel Size) = ' <<<"$out" | paste -sd' ' -)" \
    "0/$(awk -v ny="${field[3]}" -v dx="${field[5]}" 'BEGIN {printf "Origin = (%.15f,%.15f) Pixel Size = (%.15f,%.15f)", -dx / 2, ny * dx - dx / 2, dx, -dx}')" \
    "gdalinfo: a --dx field's origin and pixel size in metres"
  # GDAL takes a raster without a coordinate system for latitude and
  # longitude: give it one in metres.
  run gdal_translate -q -of netCDF -a_srs EPSG:3857 -co WRITE_BOTTOMUP=NO NETCDF:south.nc:u north.nc
  expect_rc 0 "gdal_translate writes a north-up copy ($err)"
  expect_eq "$(nc_values y north.nc | cut -d' ' -f1-2)" "190 180" "GDAL's copy is north-up (y descending)"
  run "$h" run --method cpu --steps 10 --initial north.nc --save from_north.dat
  expect_eq "$rc/$(key DX)" "0/1.0000000000000000E+01" "a run from GDAL's copy: dx from its coordinates"
  # GDAL writes dt = 0.1 back as a float (0.1f), read as the 0.1 it was.
  expect_eq "$(ncdump -h north.nc | grep -c ':dt = 0.1f ;')/$(key DT)" "1/$south_dt" \
    "GDAL's copy holds dt as a float: the run from it keeps the original's dt, 0.1"
  expect_eq "$(cmp from_south.dat from_north.dat && echo same)" same "the north-up copy runs as the south-up field, bit for bit"
else
  missing+=("gdal-bin (gdal_translate)")
fi

# ---- Iris's loading rule (Iris is not packaged for Debian) -------------------------------------
# Iris builds a coordinate whose standard_name (else long_name) is
# projection_x/y_coordinate only under a projected grid_mapping on the data
# variable, and drops it otherwise (iris/fileformats/_nc_load_rules):
# docs/usage.md says so of a --dx file, and that a copy without those
# standard names keeps x and y and runs as the original.
if [ -n "$py" ] && command -v ncatted >/dev/null; then
  ncatted -O -a standard_name,x,d,, -a standard_name,y,d,, south.nc iris.nc
  run "$py" - south.nc iris.nc <<'PY'
import sys, netCDF4
latlon = ("latitude_longitude", "rotated_latitude_longitude")
for path in sys.argv[1:]:
    d = netCDF4.Dataset(path)
    mapping = getattr(d["u"], "grid_mapping", None)
    projected = mapping in d.variables and \
        getattr(d[mapping], "grid_mapping_name", None) not in (None,) + latlon
    for v in ("x", "y"):
        name = getattr(d[v], "standard_name", None) or getattr(d[v], "long_name", None)
        kept = name != "projection_%s_coordinate" % v or projected
        print("IRIS %s %s %s %s" % (path, v, "kept" if kept else "dropped", d[v].units))
PY
  expect_eq "$rc/$(grep '^IRIS ' <<<"$out" | paste -sd' ' -)" \
    "0/IRIS south.nc x dropped m IRIS south.nc y dropped m IRIS iris.nc x kept m IRIS iris.nc y kept m" \
    "Iris's rule: a --dx file's x and y dropped, the copy's kept, in metres"
  run "$h" run --method cpu --steps 10 --initial iris.nc --save from_iris.dat
  expect_eq "$rc/$(key DX)/$(cmp from_south.dat from_iris.dat && echo same)" "0/1.0000000000000000E+01/same" \
    "the copy for Iris runs as the original, dx and all, bit for bit"
else
  [ -n "$py" ] || missing+=("a python with netCDF4 for Iris's rule")
  command -v ncatted >/dev/null || missing+=("nco (ncatted)")
fi

# ---- ParaView (one pvpython for both series) ---------------------------------------------------
if command -v pvpython >/dev/null && command -v xvfb-run >/dev/null && [ -n "$py" ]; then
  # u's range in each record, as netCDF4 reads it: what ParaView must show.
  for s in "${series[@]}"; do
    "$py" - "$s" <<'PY' >"$s.ranges"
import sys, netCDF4
u = netCDF4.Dataset(sys.argv[1])["u"][:]
for k in range(u.shape[0]):
    print("RANGE %s %d %r %r" % (sys.argv[1], k, float(u[k].min()), float(u[k].max())))
PY
  done
  block paraview >client.py
  cat >pv.py <<'PY'
import sys
code = open("client.py").read()
for s in sys.argv[1:]:
    exec(code.replace("series.nc", s).replace("series.png", s + ".png"))
    print("TIMES %s %s" % (s, ",".join("%g" % t for t in r.TimestepValues)))
    for k, t in enumerate(r.TimestepValues):
        r.UpdatePipeline(t)
        data = servermanager.Fetch(r)
        print("GRID %s %d %s %d %s %s" % (s, k, data.GetClassName(), data.GetNumberOfPoints(),
                                          ",".join("%g" % b for b in data.GetBounds()),
                                          ",".join("%g" % b for b in data.GetSpacing())))
        u = data.GetPointData().GetArray("u")
        print("RANGE %s %d %r %r" % ((s, k) + tuple(u.GetRange())))
    # What docs/usage.md says ParaView does unasked: the NetCDF Reader's
    # Dimensions as it comes, and the reader OpenDataFile picks.
    default = NetCDFReader(FileName=[s])
    default.UpdatePipelineInformation()
    print("DEFAULT %s %s %s" % (s, default.SMProxy.GetProperty("Dimensions").GetElement(0),
                                 OpenDataFile(s).GetXMLName()))
PY
  run timeout 300 xvfb-run -a -s -noreset pvpython pv.py "${series[@]}"
  expect_rc 0 "pvpython runs docs/usage.md's block (stderr: $(tail -n 3 <<<"$err"))"
  seen=$out
  for s in "${series[@]}"; do
    expect_eq "$(grep "^TIMES $s " <<<"$seen")" "TIMES $s $times" "ParaView, $s: a record at each time, in seconds"
    expect_eq "$(grep -c "^GRID $s [0-9] vtkImageData 1200 0,390,0,290,0,0 10,10,1$" <<<"$seen")" 6 \
      "ParaView, $s: every record on a flat 40x30 grid in metres, 10 m apart"
    expect_eq "$(grep "^DEFAULT $s " <<<"$seen")" "DEFAULT $s () NetCDFCAMReader" \
      "ParaView, $s: the NetCDF Reader's Dimensions as they come, and OpenDataFile's reader, as docs/usage.md says"
    expect_eq "$(grep "^RANGE $s " <<<"$seen" | paste -sd' ')" "$(paste -sd' ' "$s.ranges")" \
      "ParaView, $s: u's range in each record"
    # The picture: a PNG of 800x600 that shows the field (the grid's blue,
    # the background, and the warm centre among its colours).
    run "$py" - "$s.png" <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB")
colours = image.getcolors(1 << 20)
warm = sum(n for n, (r, g, b) in colours if r > 150 and b < 100)
print("%s %dx%d %s %s" % (image.format or "PNG", image.width, image.height,
                          len(colours) > 20, warm > 0))
PY
    expect_eq "$out" "PNG 800x600 True True" "ParaView, $s: the saved picture shows the field"
  done
else
  command -v pvpython >/dev/null || missing+=("paraview's pvpython (python3-paraview)")
  command -v xvfb-run >/dev/null || missing+=("xvfb-run (xvfb)")
  [ -n "$py" ] || missing+=("a python with netCDF4 for ParaView's expected ranges")
fi

finish >&2 || exit 1
if [ ${#missing[@]} -gt 0 ]; then
  reason="not installed here: $(IFS=,; echo "${missing[*]}" | sed 's/,/, /g') (make test's set-up installs them: tools/setup.sh test)"
  if [ "${HEAT2D_REQUIRE_CLIENTS:-0}" = 1 ]; then
    echo "test_netcdf_clients: FAIL: $reason" >&2
    exit 1
  fi
  echo "SKIP: $reason"
  exit 77
fi
