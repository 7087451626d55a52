#!/usr/bin/env bash
# tools/plot_bench.py on a folder like a GPU machine's: many methods, long
# device names, several sizes, rank counts, snapshot runs. Every picture is
# made and no label overlaps another (the script refuses a picture where one
# would); the overlap check itself finds overlapping labels.
# usage: test_plots.sh BIN_DIR SOURCE_DIR
set -e
. "$(dirname "$0")/lib.sh"
bin=$1
src=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
py=$(matplotlib_python)
[ -n "$py" ] || { echo "SKIP: no python with matplotlib (tools/setup.sh installs it)"; exit 77; }

# The columns as this build writes them, then rows a GPU run would write.
run "$bin/heat2d" bench --methods cpu --sizes 8x8:1 --repeats 1 --warmups 0 --out "$w/h"
expect_rc 0 "the bench that gives this build's columns ($err)"
header=$(head -n 1 "$w/h/trials.csv" 2>/dev/null || true)
expect_eq "$(tr , '\n' <<<"$header" | grep -cxE 'method|label|total_s|precision|output_every')" 5 \
  "trials.csv's header holds the columns the rows below fill"
mkdir "$w/g"
"$py" - "$header" "$w/g" <<'PY'
import csv, sys
header, out = sys.argv[1].split(","), sys.argv[2]
gpu = "NVIDIA H200 (ACC_SCHEDULE=columns) with a very long name indeed"
methods = [("cpu", "host", 0), ("omp", "host (32 threads)", 0), ("acc-each", gpu, 0),
           ("acc-resident", gpu, 0), ("cuda-each", gpu, 0), ("cuda-each-pinned", gpu, 0),
           ("cuda-resident", gpu, 0), ("cuda-resident-pinned", gpu, 0), ("cuda-graph", gpu, 0),
           ("cuda-tb", gpu, 0), ("cuda-tb-pinned", gpu, 0), ("cuda-overlap", gpu, 0)]
rows = []
for n, (nx, steps) in enumerate([(128, 50), (160, 50), (512, 200), (1024, 300), (2048, 500)]):
    for k, (m, dev, _) in enumerate(methods):
        for trial in (1, 2, 3):
            t = 1e-3 * (k + 1) * (n + 1) * (1 + 0.01 * trial)
            r = dict.fromkeys(header, "")
            r.update(method=m.replace("-pinned", "-pinned"), label=m, trial=trial, nx=nx, ny=nx,
                     steps=steps, total_s=t, mass=1.0, centre=0.1, process_s=t + 0.1,
                     device=dev, precision="f64", run="20261201-000000", transfers="measured")
            if "each" in m:
                r.update(step_regions_s=0.9 * t, h2d_s=0.4 * t, d2h_s=0.3 * t)
            elif m in ("cpu", "omp"):
                r.update(cpu_loop_s=0.95 * t)
            else:
                r.update(enter_s=0.2 * t, gpu_loop_s=0.6 * t, readback_s=0.1 * t)
            rows.append(r)
for K in (1, 10, 100, 500):
    for m in ("cuda-resident", "cuda-tb"):
        for copy in ("plain", "overlap"):
            r = dict.fromkeys(header, "")
            t = 0.02 * 500 / K + 0.01
            r.update(method=m, label=f"{m}-k{K}-{copy}", trial=1, nx=2048, ny=2048, steps=500,
                     total_s=t, mass=1.0, centre=0.1, process_s=t, device=gpu, precision="f64",
                     enter_s=0.001, gpu_loop_s=t * 0.9, readback_s=0.0006, output_every=K,
                     snapshot_copy=copy, run="20261201-000000")
            rows.append(r)
# K=100 once more for each writer: a line each, its bound from the bytes
# written and bandwidth.txt's write rate.
for writer, per_cell in (("text", 25), ("netcdf", 8)):
    r = dict.fromkeys(header, "")
    t = 0.02 * 5 + 0.01 + 0.05 * per_cell / 8
    r.update(method="cuda-resident", label=f"cuda-resident-k100-overlap-{writer}", trial=1,
             nx=2048, ny=2048, steps=500, total_s=t, mass=1.0, centre=0.1, process_s=t,
             device=gpu, precision="f64", enter_s=0.001, gpu_loop_s=t * 0.9, readback_s=0.0006,
             output_every=100, snapshot_copy="overlap", snapshot_writer=writer, snapshots=5,
             snapshot_bytes_written=5 * 2048 * 2048 * per_cell, run="20261201-000000")
    rows.append(r)
for p in (1, 2, 4, 8):
    r = dict.fromkeys(header, "")
    t = 1.0 / p * (1 + 0.02 * p)
    r.update(method="mpi-cpu", label=f"mpi-cpu-p{p}", trial=1, nx=1024, ny=1024, steps=300,
             total_s=t, mass=1.0, centre=0.1, process_s=t, device=f"host ({p} ranks)",
             precision="f64", ranks=p, decomp=f"{p}x1", halo_bytes_per_step=0, cpu_loop_s=t,
             run="20261201-000000")
    rows.append(r)
with open(f"{out}/trials.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=header)
    w.writeheader()
    w.writerows(rows)
open(f"{out}/bandwidth.txt", "w").write("D2H_PINNED_GBS=55.0\nSCRATCH_WRITE_GBS=2.5\n")
PY
run "$py" "$src/tools/plot_bench.py" "$w/g"
expect_rc 0 "plot_bench.py on a GPU-like folder: no label overlaps ($err)"
for png in time_per_step headline phases scaling snapshots; do
  expect_out_has "PLOT=$w/g/$png.png" "$png.png made"
  expect_eq "$(head -c 8 "$w/g/$png.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" \
    "89504e470d0a1a0a" "$png.png is a PNG"
done

# The labels the script builds from the columns are the bench's own.
run "$py" - "$src/tools" "$w/g/trials.csv" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[1])
import plot_bench
axes = plot_bench.read_axes()
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
rows += [dict(method="mpi-cpu", halo_depth="2", ranks="4", precision="f32", output_every="10",
              snapshot_copy="overlap", label="mpi-cpu-h2-p4-f32-k10-overlap"),
         dict(method="mpi-cpu", halo_depth="2", ranks="4", precision="f32", output_every="10",
              snapshot_copy="overlap", snapshot_writer="netcdf",
              label="mpi-cpu-h2-p4-f32-k10-overlap-netcdf"),
         dict(method="mpi-cpu", halo_depth="1", ranks="2", precision="f64", label="mpi-cpu-p2")]
print(sum(plot_bench.label_of(r, axes) != r["label"] for r in rows), len(rows) > 100)
PY
expect_eq "$rc/$out" "0/0 True" "plot_bench.label_of gives each row's label from its columns"

# A picture is replaced as heat2d replaces its files: a private one keeps
# its mode, a read-only one is refused, left as it was, with one line.
chmod 600 "$w/g/headline.png"
run "$py" "$src/tools/plot_bench.py" "$w/g"
expect_eq "$rc/$(stat -c %a "$w/g/headline.png")" "0/600" "a replaced picture keeps its mode"
echo precious >"$w/g/phases.png"
chmod 444 "$w/g/phases.png"
run "$py" "$src/tools/plot_bench.py" "$w/g"
expect_rc 1 "a read-only picture: the plotter fails"
expect_eq "$err" "plot_bench: $w/g/phases.png is read-only (mode 444)" "a read-only picture: one line"
expect_eq "$(cat "$w/g/phases.png")/$(stat -c %a "$w/g/phases.png")" "precious/444" "a read-only picture: left as it was"
expect_eq "$(ls -A "$w/g" | grep -c '\.tmp\.' || true)" 0 "no temporary picture left"

# The check finds two labels drawn over each other.
run "$py" - "$src/tools" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import plot_bench
fig, ax = plt.subplots()
ax.text(0.5, 0.5, "one label")
ax.text(0.5, 0.5, "another label")
fig.canvas.draw()
print(plot_bench.overlapping_texts(fig))
PY
expect_eq "$out" "('one label', 'another label')" "overlapping labels are found"

# ... and an annotation past the axes, or a whisker past the axis limit.
run "$py" - "$src/tools" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import plot_bench
fig, ax = plt.subplots()
ax.bar([0], [1.0], yerr=[[0.1], [0.5]])
ax.set_ylim(0, 1.2)
fig.canvas.draw()
print(plot_bench.outside_axes(fig))
ax.set_ylim(0, 2.0)
ax.annotate("a label", (0, 1.9), xytext=(0, 30), textcoords="offset points")
fig.canvas.draw()
print(plot_bench.outside_axes(fig))
PY
expect_eq "$out" $'a line at y=1.5\nlabel \'a label\'' "a whisker and a label past the axes are found"

# Hand-edited rows whose time, grid or steps are not positive are no trials:
# the plots are made from the others.
mkdir "$w/edited"
cp "$w/g/trials.csv" "$w/g/bandwidth.txt" "$w/edited/"
"$py" - "$w/edited/trials.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path, newline="")))
header = list(rows[0].keys())
for column in ("total_s", "steps", "nx"):
    bad = dict(rows[0])
    bad[column] = "0"
    rows.append(bad)
w = csv.DictWriter(open(path, "w", newline=""), fieldnames=header)
w.writeheader()
w.writerows(rows)
PY
# A weak-scaling point near 0 (a slow machine, a sanitizer build): its
# label stays inside the axes.
"$py" - "$w/edited/trials.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path, newline="")))
header = list(rows[0].keys())
for p, t in ((1, 0.01), (2, 5.0), (4, 9.0)):
    r = dict.fromkeys(header, "")
    r.update(method="mpi-cpu", label=f"mpi-cpu-p{p}", trial=1, nx=24 * p, ny=20, steps=5,
             total_s=t, mass=1.0, centre=0.1, process_s=t, device=f"host ({p} ranks)",
             precision="f64", ranks=p, decomp=f"{p}x1", halo_bytes_per_step=0, cpu_loop_s=t,
             run="20261201-000000")
    rows.append(r)
w = csv.DictWriter(open(path, "w", newline=""), fieldnames=header)
w.writeheader()
w.writerows(rows)
PY
run "$py" "$src/tools/plot_bench.py" "$w/edited"
expect_rc 0 "rows with total_s, steps or nx 0: the plots are made ($err)"
expect_out_has "PLOT=$w/edited/headline.png" "rows with 0: headline.png made"
finish
