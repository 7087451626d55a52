#!/usr/bin/env python3
"""Plots of one heat2d bench folder, and of fields and series (heat2d plot).

usage: plot_bench.py DIR [FIELD]
       plot_bench.py --field SPEC OUT.png
       plot_bench.py --series SOURCE OUT.gif OUT.png
       plot_bench.py --auto SPEC STEM (heat2d plot: a series as --series into
                     STEM.gif and STEM.png, anything else as --field into STEM.png)

--field draws one field (a field file, FILE.nc, or FILE.nc:STEP) as a heat
map; --series draws every record of a series (a FILE.nc with a time
dimension, or a --save-every folder of step files) into an animated GIF,
one record at a time, and the last record as a PNG. A .nc input (also
FILE.nc:VAR[:STEP]) is read by heat2d's own reader, the heat2d named by
HEAT2D_READER (heat2d plot sets it), as run and compare read it.

Reads DIR/trials.csv (and the field file FIELD, else DIR/field_256.dat when
present) and writes
DIR/time_per_step.png, DIR/headline.png, DIR/phases.png (where each method's
time goes) and DIR/field.png; with runs of a distributed method over several
rank counts (bench --ranks) DIR/scaling.png; with snapshot runs (bench
--output-every) DIR/snapshots.png. No label may overlap another or leave its
axes, nor a whisker pass the axis limits: a picture
where one would is an error. Prints one PLOT=path line per picture; on any
error prints one line on stderr and exits 1.
heat2d bench runs this itself; run it by hand after installing matplotlib
(apt-get install python3-matplotlib) or after editing trials.csv, with
HEAT2D_RUN_OPTIONS naming the build's share/heat2d/run_options.json (the label
grammar; an installed script reads the one beside it).
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import json
import math
import statistics
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HEADLINE = (2048, 2048, 500)  # the article's headline table
FIELD_FILE = "field_256.dat"
HOST_METHODS = {"cpu", "omp", "mpi-cpu"}  # methods that never use a device
FIELD_FLOOR = 1e-16  # the field spans hundreds of decades; below this is noise to the eye


class PlotError(Exception):
    """A failure that deserves one line, not a traceback."""


def read_axes() -> list[dict]:
    """The run options that a label shows, from the run_options.json that the
    build writes from its table (HEAT2D_RUN_OPTIONS, else the one installed
    beside this script): the label grammar is not written twice."""
    named = os.environ.get("HEAT2D_RUN_OPTIONS") or ""
    for path in (Path(named) if named else None, Path(__file__).with_name("run_options.json")):
        if path is not None and path.is_file():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise PlotError(f"cannot read {path}: {exc}") from exc
    raise PlotError("run_options.json not found: set HEAT2D_RUN_OPTIONS to the one a heat2d "
                    "build writes (BUILD/share/heat2d/run_options.json)")


def label_of(row: dict[str, str], axes: list[dict], omit=frozenset()) -> str:
    """The bench's label of a row from its columns (the method column holds
    NAME[-pinned]), each axis in omit left out as if plain."""
    shown: dict[str, bool] = {}
    label = row["method"]
    for axis in axes:
        text = row.get(axis["column"]) or ""
        with_ = axis["with"]
        show = shown.get(with_, False) if with_ else text not in ("", *axis["plain"])
        shown[axis["column"]] = show = show and axis["column"] not in omit
        if show:
            label += axis["label"] + text
    return label


def read_trials(folder: Path) -> list[dict[str, str]]:
    axes = read_axes()
    path = folder / "trials.csv"
    try:
        with path.open(newline="", encoding="utf-8") as stream:
            rows = list(csv.DictReader(stream))
    except OSError as exc:
        raise PlotError(f"cannot read {path}: {exc.strerror}") from exc
    needed = {"method", "label", "nx", "ny", "steps", "total_s", "device"}
    if rows and not needed <= rows[0].keys():
        raise PlotError(f"{path} lacks columns {sorted(needed - rows[0].keys())}")
    good = []
    for row in rows:
        # An interrupted write can leave a short last row; skip what is not whole.
        try:
            row["_nx"], row["_ny"], row["_steps"] = int(row["nx"]), int(row["ny"]), int(row["steps"])
            row["_total"] = float(row["total_s"])
        except (TypeError, ValueError):
            continue
        # A distributed method's rank counts are one line of the scaling
        # plot: its label without ranks and snapshots (_base); a snapshot
        # run's line is its label without snapshots and writer (_family).
        row["_name"] = row["method"]  # the method column as written
        row["_ranks"] = int(row["ranks"]) if (row.get("ranks") or "").isdigit() else 0
        every = row.get("output_every") or ""
        row["_every"] = int(every) if every.isdigit() else 0
        row["_base"] = label_of(row, axes, omit={"ranks", "output_every", "snapshot_writer"})
        row["_family"] = label_of(row, axes, omit={"output_every", "snapshot_writer"})
        row["_writer"] = row.get("snapshot_writer") or "none"
        if (math.isfinite(row["_total"]) and row["_total"] > 0 and row["_nx"] > 0
                and row["_ny"] > 0 and row["_steps"] > 0):
            good.append(row)
    if not good:
        raise PlotError(f"{path} has no complete trial")
    return good


def method_order(rows: list[dict[str, str]]) -> list[str]:
    """Methods in order of first appearance, which is the bench's order."""
    return list(dict.fromkeys(row["label"] for row in rows))


def legend_label(method: str, device: str) -> str:
    # Say where it ran: an OpenACC method in a host build is not a GPU number.
    return f"{method} [{device}]"


def on_host(device: str) -> bool:
    return device.startswith("host")


def meant_for_device(row) -> bool:
    """A method of heat2d's meant for a device; a program (bench --program)
    runs where it runs."""
    return row["_name"] not in HOST_METHODS and not row.get("program")


def device_methods_on_host(rows) -> list[str]:
    """Methods meant for a device that ran on the host (a host-only OpenACC build)."""
    return list(dict.fromkeys(row["label"] for row in rows
                              if meant_for_device(row) and on_host(row["device"])))


def cells_text(cells: int) -> str:
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if cells >= div:
            return f"{cells / div:.3g}{unit} cells"
    return f"{cells} cells"


def host_reason(rows) -> str:
    """Why a GPU method ran on the host, as its device says ("host (OpenACC
    built for the host)", "host (ACC_DEVICE_TYPE=host)")."""
    for row in rows:
        device = row["device"]
        if meant_for_device(row) and on_host(device) and "(" in device:
            return device[device.index("(") + 1:].rstrip(")")
    return "no reason recorded"


def host_note(fig, rows) -> None:
    methods = device_methods_on_host(rows)
    if methods:
        fig.text(0.01, 0.01, f"[host]: ran on the CPU. {', '.join(methods)} ran on the host: "
                 f"{host_reason(rows)} (the article's host mode).",
                 fontsize=8, color="#555555", ha="left", va="bottom")


def overlapping_texts(fig) -> tuple[str, str] | None:
    """The first two visible texts of the figure (tick labels, titles,
    annotations, legend entries) whose boxes overlap, or None."""
    from matplotlib.text import Text
    renderer = fig.canvas.get_renderer()
    boxes = []
    undrawn = undrawn_tick_labels(fig)
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip() or id(text) in undrawn:
            continue
        # A tick label outside its axis' view limits is not drawn.
        if text.axes is not None and text.get_clip_on() and not text.axes.bbox.overlaps(
                text.get_window_extent(renderer)):
            continue
        box = text.get_window_extent(renderer).shrunk(0.97, 0.9)
        for other, other_box in boxes:
            if box.overlaps(other_box):
                return other.get_text(), text.get_text()
        boxes.append((text, box))
    return None


def outside_axes(fig) -> str | None:
    """What a reader would lose at an axis' edge: a point's annotation whose
    box leaves its axes, or a line drawn in data coordinates (a whisker, a
    curve) that passes the y view limits; None when everything is inside."""
    from matplotlib.collections import LineCollection
    from matplotlib.text import Annotation
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        for text in ax.texts:
            if not isinstance(text, Annotation) or not text.get_visible() or not text.get_text().strip():
                continue
            box = text.get_window_extent(renderer)
            if not (ax.bbox.contains(box.x0, box.y0) and ax.bbox.contains(box.x1, box.y1)):
                return f"label {text.get_text()!r}"
        low, high = sorted(ax.get_ylim())
        slack = (high - low) * 1e-9
        ys = [y for line in ax.get_lines() if line.get_transform() == ax.transData
              for y in line.get_ydata()]
        ys += [point[1] for col in ax.collections
               if isinstance(col, LineCollection) and col.get_transform() == ax.transData
               for segment in col.get_segments() for point in segment]
        for y in ys:
            if math.isfinite(float(y)) and not low - slack <= float(y) <= high + slack:
                return f"a line at y={float(y):.4g}"
    return None


def undrawn_tick_labels(fig) -> set[int]:
    """The ids of tick labels whose tick lies outside its axis' view: matplotlib
    keeps them, visible but not drawn (a log axis' 10^-3 below the data)."""
    undrawn = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            span = (high - low) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - span <= tick.get_loc() <= high + span:
                    undrawn.update((id(tick.label1), id(tick.label2)))
    return undrawn


def declutter(fig) -> None:
    """Hides each tick label and point annotation that would overlap one
    drawn before it (their tick or point stays): close grid sizes or close
    points would otherwise print over each other. A label marked "keep" (a
    method's name) is never hidden: its overlap is an error."""
    from matplotlib.text import Annotation
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        for labels in (ax.get_xticklabels(), ax.get_yticklabels(),
                       [t for t in ax.texts if isinstance(t, Annotation)]):
            kept = []
            for text in labels:
                if not text.get_visible() or not text.get_text().strip():
                    continue
                box = text.get_window_extent(renderer)
                if any(box.overlaps(other) for other in kept):
                    if text.get_gid() == "keep":
                        raise PlotError(f"the label {text.get_text()!r} would overlap another "
                                        "and cannot be left out")
                    text.set_visible(False)
                else:
                    kept.append(box)


def save(plt, fig, folder: Path, name: str, note_rows=None) -> Path:
    """Lays out, notes host-run methods when note_rows is given, checks that
    no two labels overlap, writes folder/name and frees the figure."""
    fig.tight_layout(rect=(0, 0.03, 1, 1) if note_rows is not None else None)
    if note_rows is not None:
        host_note(fig, note_rows)
    fig.canvas.draw()
    declutter(fig)
    clash = overlapping_texts(fig)
    if clash is not None:
        plt.close(fig)
        raise PlotError(f"labels overlap in {name}: {clash[0]!r} and {clash[1]!r}")
    outside = outside_axes(fig)
    if outside is not None:
        plt.close(fig)
        raise PlotError(f"{outside} falls outside the axes in {name}")
    out = folder / name
    try:
        replace_file(out, lambda tmp: fig.savefig(tmp, dpi=120, format="png"))
    finally:
        plt.close(fig)
    return out


PICTURE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"GIF89a", b"GIF87a")


def is_picture(path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    return any(head.startswith(magic) for magic in PICTURE_MAGIC)


def picture_target(target: Path):
    """Where the picture named target goes, by the rules heat2d's own files
    follow (src/lib/file_replace.c, --save's): (path, mode to keep or None,
    whether it is a stream). A link's file is written, not the link; a FIFO
    or a device is written in place, as a stream; a read-only file is
    refused; a replaced file keeps its mode. A file that holds something and
    is not a picture (PNG, GIF) is refused too: its name is one heat2d made
    from its input, and what is kept there is not heat2d's to replace."""
    path = Path(os.path.realpath(target)) if target.is_symlink() and target.exists() else target
    try:
        st = path.stat()
    except FileNotFoundError:
        return path, None, False
    if stat.S_ISDIR(st.st_mode):
        raise PlotError(f"cannot write {target}: Is a directory")
    if not stat.S_ISREG(st.st_mode):
        if not os.access(path, os.W_OK):
            raise PlotError(f"cannot write {target}: Permission denied")
        return path, None, True
    if not os.access(path, os.W_OK) or st.st_mode & 0o222 == 0:
        raise PlotError(f"{target} is read-only (mode {st.st_mode & 0o777:03o})")
    if st.st_size > 0 and not is_picture(path):
        raise PlotError(f"{target} is not a picture (PNG or GIF), which heat2d would replace; "
                        "remove it or choose another name")
    return path, st.st_mode & 0o7777, False


@contextlib.contextmanager
def scratch_folder():
    """A folder of this process's own under TMPDIR, named and locked as
    heat2d's scratch folders are (heat2d-plot-PID-XXXXXX, under flock while
    it lives), so that should this process be killed the next heat2d run
    removes it."""
    folder = tempfile.mkdtemp(prefix=f"heat2d-plot-{os.getpid()}-",
                              dir=os.environ.get("TMPDIR") or "/tmp")
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def replace_file(target: Path, write) -> None:
    """Writes target through write(PATH) by picture_target's rules: a
    regular file appears whole or not at all (written beside it, then
    renamed); a stream gets the picture's bytes once it is made."""
    path, mode, stream = picture_target(target)
    if stream:
        with scratch_folder() as folder:
            tmp = os.path.join(folder, "picture")
            write(tmp)
            out = os.open(path, os.O_WRONLY)
            with open(tmp, "rb") as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
        return
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".tmp.", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def plot_line(path) -> str:
    """PLOT=PATH as heat2d reads it back: every byte of the name that is not
    printable ASCII, and the backslash, as \\xHH, so that no name can start
    a line of its own."""
    raw = os.fsencode(str(path))
    return "PLOT=" + "".join(chr(b) if 0x20 <= b < 0x7f and b != 0x5c else f"\\x{b:02x}"
                             for b in raw)


def plot_time_per_step(plt, rows, folder: Path) -> Path:
    per_step: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    device: dict[str, str] = {}
    rows = [row for row in rows if row["_every"] == 0]  # snapshots.png has those
    for row in rows:
        cells = row["_nx"] * row["_ny"]
        per_step[row["label"]][cells].append(row["_total"] / row["_steps"])
        device[row["label"]] = row["device"]

    fig, ax = plt.subplots(figsize=(9, 6))
    markers = "osD^vP*Xh<>"
    # Methods with the same speed draw the same line; different dashes and
    # hollow markers keep every one of them visible.
    styles = ["-", "--", "-.", ":"]
    for k, method in enumerate(method_order(rows)):
        points = sorted(per_step[method].items())
        xs = [cells for cells, _ in points]
        ys = [statistics.median(times) * 1e3 for _, times in points]
        # The spread over trials, so that a reader sees how far to trust a gap.
        low = [y - min(times) * 1e3 for y, (_, times) in zip(ys, points)]
        high = [max(times) * 1e3 - y for y, (_, times) in zip(ys, points)]
        ax.errorbar(xs, ys, yerr=[low, high], capsize=3, elinewidth=1,
                    marker=markers[k % len(markers)], linestyle=styles[k % len(styles)],
                    linewidth=1.8, markersize=8 if k % 2 else 6,
                    markerfacecolor="none" if k % 2 else None,
                    label=legend_label(method, device[method]))
    ax.set_xscale("log")
    ax.set_yscale("log")
    sides = sorted({(row["_nx"], row["_ny"]) for row in rows}, key=lambda s: s[0] * s[1])
    ax.set_xticks([nx * ny for nx, ny in sides])
    ax.set_xticklabels([f"{nx}x{ny}\n{cells_text(nx * ny)}" for nx, ny in sides])
    ax.minorticks_off()
    ax.set_xlabel("grid size (log scale)")
    ax.set_ylabel("time per step [ms], log scale\n(median TOTAL_S / steps; bars: min to max)")
    title = "heat2d: time per step against grid size (lower is faster)"
    if any(not on_host(d) for d in device.values()):
        title += ("\nGPU lines flatten at small grids (launch and transfer overhead);\n"
                  "a per-step (each) method moves the whole grid every step")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    if len(per_step) > 6:
        # Many lines: the legend beside the axes, where it hides none of them.
        fig.set_size_inches(13, 6)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    else:
        ax.legend(fontsize=9)
    return save(plt, fig, folder, "time_per_step.png", rows)


def headline_size(rows) -> tuple[tuple[int, int, int], bool]:
    sizes = {(row["_nx"], row["_ny"], row["_steps"]) for row in rows}
    if HEADLINE in sizes:
        return HEADLINE, True
    return max(sizes, key=lambda s: (s[0] * s[1], s[2])), False


def plot_headline(plt, rows, folder: Path) -> Path:
    rows = [row for row in rows if row["_every"] == 0]
    size, exact = headline_size(rows)
    at_size = [row for row in rows if (row["_nx"], row["_ny"], row["_steps"]) == size]
    methods = method_order(at_size)
    medians = {m: statistics.median(r["_total"] for r in at_size if r["label"] == m)
               for m in methods}
    device = {r["label"]: r["device"] for r in at_size}
    cpu = medians.get("cpu")

    fig, ax = plt.subplots(figsize=(max(6.5, 1.4 * len(methods) + 2.5), 6))
    values = [medians[m] for m in methods]
    # Colour says where it ran: the baseline, the host, a GPU.
    kinds = {"cpu": ("#555555", "cpu: the baseline"),
             "host": ("#8fb3d9", "ran on the host"),
             "gpu": ("#3a9e5f", "ran on a GPU")}
    kind = ["cpu" if m == "cpu" else ("host" if on_host(device[m]) else "gpu") for m in methods]
    times = {m: [r["_total"] for r in at_size if r["label"] == m] for m in methods}
    spread = [[medians[m] - min(times[m]) for m in methods],
              [max(times[m]) - medians[m] for m in methods]]
    bars = ax.bar(range(len(methods)), values, color=[kinds[k][0] for k in kind],
                  yerr=spread, capsize=4, error_kw={"elinewidth": 1, "ecolor": "#333333"})
    from matplotlib.patches import Patch
    # Beside the axes, where no bar or label can meet it.
    ax.legend(handles=[Patch(color=kinds[k][0], label=kinds[k][1])
                       for k in ("cpu", "host", "gpu") if k in kind],
              fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    # Linear bars hide a 100x faster method; switch to log when the range is
    # wide. The limits hold every whisker, from the fastest trial to the
    # slowest, and room above it for the two-line label.
    lowest = min(min(t) for t in times.values())
    highest = max(max(t) for t in times.values())
    if max(values) / min(values) > 30:
        ax.set_yscale("log")
        ax.set_ylabel("median TOTAL_S [s], log scale (bars: min to max)")
        ax.set_ylim(lowest / 3, highest * 8)
    else:
        ax.set_ylabel("median TOTAL_S [s] (bars: min to max)")
        ax.set_ylim(0, highest * 1.3)
    for bar, method in zip(bars, methods):
        text = f"{medians[method]:.3g} s"
        if method == "cpu":
            text += "\nbaseline"
        elif cpu is not None:
            ratio = cpu / medians[method]
            text += f"\n{ratio:.3g}x speedup" if ratio >= 1 else f"\n{1 / ratio:.3g}x slower"
        ax.annotate(text, (bar.get_x() + bar.get_width() / 2, max(times[method])),
                    xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                    fontsize=9)
    # Names slanted steeply, so that long ones do not meet (at 35 degrees
    # cuda-resident-pinned-f32 met its neighbour); where each ran is the
    # bar's colour, and the devices are listed below the title.
    ax.set_xticks(range(len(methods)))
    for label in ax.set_xticklabels(methods, fontsize=9, rotation=55, ha="right",
                                    rotation_mode="anchor"):
        label.set_gid("keep")
    nx, ny, steps = size
    title = f"heat2d headline: {nx}x{ny}, {steps} steps (lower is faster; speedup over cpu)"
    if not exact:
        title += "\nnot the article's 2048x2048/500: the largest size this run measured"
    if cpu is None:
        title += "\n(no cpu run at this size: no speedups)"
    devices = sorted({d for d in device.values() if not on_host(d)})
    if devices:
        title += "\nGPU: " + "; ".join(devices)
    ax.set_title(title, fontsize=10)
    return save(plt, fig, folder, "headline.png", at_size)


PHASES = (("phase_upload", "upload", "#d95f02"), ("phase_loop", "loop", "#1b9e77"),
          ("phase_readback", "read-back", "#7570b3"), ("phase_other", "other", "#bbbbbb"))


def seconds(row, column: str) -> float:
    try:
        value = float(row.get(column) or "")
    except ValueError:
        return -1.0
    return value if math.isfinite(value) else -1.0


def phase_split(row) -> dict[str, float]:
    """Where one trial's TOTAL_S went, as summary.md's headline table says:
    a per-step method's copies (timed apart) out of its loop, a resident
    method's entry and read-back around its loop."""
    loop = 0.0
    for column in ("device_loop_s", "gpu_loop_s", "cpu_loop_s", "step_regions_s"):
        if seconds(row, column) >= 0:
            loop = seconds(row, column)
            break
    if seconds(row, "step_regions_s") >= 0:
        up, back = max(seconds(row, "h2d_s"), 0.0), max(seconds(row, "d2h_s"), 0.0)
        loop = max(seconds(row, "step_regions_s") - up - back, 0.0)
    else:
        up, back = max(seconds(row, "enter_s"), 0.0), max(seconds(row, "readback_s"), 0.0)
    return {"phase_upload": up, "phase_loop": loop, "phase_readback": back,
            "phase_other": max(row["_total"] - up - loop - back, 0.0)}


def plot_phases(plt, rows, folder: Path) -> Path:
    """The article's question in one picture: for each method at the
    headline size, the share of its time that goes to the upload, the loop,
    the read-back and the rest (means over trials), its total beside it."""
    rows = [row for row in rows if row["_every"] == 0]
    size, exact = headline_size(rows)
    at_size = [row for row in rows if (row["_nx"], row["_ny"], row["_steps"]) == size]
    methods = method_order(at_size)
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.45 * len(methods) + 2)))
    for y, method in enumerate(methods):
        trials = [r for r in at_size if r["label"] == method]
        parts = [statistics.mean(phase_split(r)[key] for r in trials) for key, _, _ in PHASES]
        total = sum(parts) or 1.0
        left = 0.0
        for (key, name, colour), part in zip(PHASES, parts):
            ax.barh(y, part / total, left=left, color=colour, label=name if y == 0 else None)
            left += part / total
        median = statistics.median(r["_total"] for r in trials)
        ax.text(1.01, y, f"{median * 1e3:.4g} ms", va="center", fontsize=8,
                transform=ax.get_yaxis_transform())
    ax.set_yticks(range(len(methods)))
    ax.set_yticklabels(methods, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of TOTAL_S (median TOTAL_S at the right)")
    nx, ny, steps = size
    title = f"heat2d: where the time goes, {nx}x{ny}, {steps} steps"
    if not exact:
        title += " (the largest size run)"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=4, loc="lower center", bbox_to_anchor=(0.5, 1.08),
              borderaxespad=0)
    return save(plt, fig, folder, "phases.png")


def measured_gbs(folder: Path, key: str) -> float:
    """A rate the same run measured (bandwidth.txt's KEY=), 0 when it did not."""
    try:
        for line in (folder / "bandwidth.txt").read_text(encoding="utf-8").splitlines():
            if line.startswith(key + "="):
                return float(line.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return 0.0


def records_timed(row, records: int) -> int:
    """Of a row's records, those written inside its loop and read-back, as
    summary.md's snapshot table counts them: all but the last for a method
    that reports READBACK_S, all for one that does not (cpu), none for a
    distributed method, whose loop leaves its snapshots out."""
    if row["_ranks"] > 0:
        return 0
    return records - 1 if (row.get("readback_s") or "") and records > 0 else records


def record_bytes(row) -> float:
    """The bytes a row's snapshot files hold per record, 0 when not reported."""
    try:
        return float(row["snapshot_bytes_written"]) / float(row["snapshots"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return 0.0


def plot_snapshots(plt, rows, folder: Path) -> Path | None:
    """Time per step against K, the steps between snapshots, for each method,
    copy and writer, at each size that has snapshot runs: the article's
    figure completed. K=1 is the per-step end, the dotted line each method's
    run without snapshots (the resident end), the thin curve the bound
    max(that run, the snapshots' bytes at the pinned download rate, the
    bytes written inside the measured time at the writers' folder's rate)."""
    snap = [row for row in rows if row["_every"] > 0]
    if not snap:
        return None
    sizes = sorted({(r["_nx"], r["_ny"], r["_steps"]) for r in snap}, key=lambda s: s[0] * s[1])
    link = measured_gbs(folder, "D2H_PINNED_GBS")
    disk = measured_gbs(folder, "SCRATCH_WRITE_GBS")
    fig, axes = plt.subplots(1, len(sizes), figsize=(7.5 * len(sizes) + 3, 6), squeeze=False)
    markers = "osD^vP*Xh<>"
    for ax, size in zip(axes[0], sizes):
        nx, ny, steps = size
        here = [r for r in rows if (r["_nx"], r["_ny"], r["_steps"]) == size]

        def per_step_ms(trials) -> float:
            split = [phase_split(r) for r in trials]
            return statistics.median(p["phase_loop"] + p["phase_readback"] for p in split) / steps * 1e3

        lines = list(dict.fromkeys((r["_family"], r["snapshot_copy"], r["_writer"]) for r in here
                                   if r["_every"] > 0))
        for n, (family, copy, writer) in enumerate(lines):
            mine = [r for r in here if r["_every"] > 0 and r["_family"] == family
                    and r["snapshot_copy"] == copy and r["_writer"] == writer]
            ks = sorted({r["_every"] for r in mine})
            ys = [per_step_ms([r for r in mine if r["_every"] == k]) for k in ks]
            written = f", {writer} writer" if writer != "none" else ""
            line, = ax.plot(ks, ys, marker=markers[n % len(markers)],
                            linestyle="-" if copy == "overlap" else "--",
                            label=f"{family}, {copy} copy{written}")
            base = [r for r in here if r["_every"] == 0 and r["_family"] == family]
            if not base:
                continue
            t0 = per_step_ms(base)
            ax.axhline(t0, color=line.get_color(), linestyle=":", linewidth=1)
            per_record = record_bytes(mine[-1]) if writer != "none" and disk > 0 else 0.0
            if link > 0 or per_record > 0:
                cell_bytes = 4 if base[0].get("precision") == "f32" else 8
                grid = sorted({1, *ks, steps})
                bound = []
                for k in grid:
                    records = math.ceil(steps / k)
                    copies = records * nx * ny * cell_bytes / (link * 1e9) if link > 0 else 0.0
                    writes = (records_timed(mine[-1], records) * per_record / (disk * 1e9)
                              if per_record > 0 else 0.0)
                    bound.append(max(t0, max(copies, writes) / steps * 1e3))
                ax.plot(grid, bound, color=line.get_color(), linewidth=0.8, alpha=0.5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("K: steps between snapshots (log scale)")
        ax.set_ylabel("time per step [ms], log scale\n(loop and read-back, median)")
        ax.set_title(f"{nx}x{ny}, {steps} steps", fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
    fig.suptitle("heat2d: the field on the host every K steps\n(dotted: the run without "
                 "snapshots; thin: the bound max(that, snapshot bytes / pinned download, "
                 "bytes written / write rate))",
                 fontsize=10)
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return save(plt, fig, folder, "snapshots.png")


def plot_scaling(plt, rows, folder: Path) -> Path | None:
    """Scaling efficiency of each distributed method against P, from the
    medians, as summary.md's tables: strong T1/(P*TP) on one grid, weak T1/TP
    where the grid at P ranks has P times the one-rank grid's cells (--weak)."""
    times: dict[tuple, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row["_ranks"] > 0:
            times[(row["_base"], row["_nx"], row["_ny"], row["_steps"])][row["_ranks"]].append(
                row["_total"])
    # A line needs its one-rank baseline and at least one other P.
    lines = {key: by_p for key, by_p in times.items() if 1 in by_p and len(by_p) > 1}
    weak = {}
    for (method, nx, ny, steps), by_p in times.items():
        if 1 not in by_p:
            continue
        t1 = statistics.median(by_p[1])
        points = {1: 1.0}
        for (m2, nx2, ny2, s2), by_p2 in times.items():
            for p, ts in by_p2.items():
                if m2 == method and s2 == steps and p > 1 and nx2 * ny2 == p * nx * ny:
                    points[p] = t1 / statistics.median(ts)
        if len(points) > 1:
            weak[(method, nx, ny, steps)] = points
    if not lines and not weak:
        return None
    fig, ax = plt.subplots(figsize=(8, 5.5))
    all_p = sorted({p for by_p in lines.values() for p in by_p})
    ax.axhline(1.0, color="#555555", linestyle="--", linewidth=1, label="ideal")
    for (method, nx, ny, steps), by_p in sorted(lines.items()):
        t1 = statistics.median(by_p[1])
        ps = sorted(by_p)
        eff = [t1 / (p * statistics.median(by_p[p])) for p in ps]
        ax.plot(ps, eff, marker="o", label=f"{method} strong, {nx}x{ny}/{steps}")
        label_points(ax, ps, eff, below=False)
    for (method, nx, ny, steps), points in sorted(weak.items()):
        ps = sorted(points)
        ax.plot(ps, [points[p] for p in ps], marker="s", linestyle="--",
                label=f"{method} weak, {nx}x{ny}/{steps} per rank")
        label_points(ax, ps, [points[p] for p in ps], below=True)
    all_p = sorted(set(all_p) | {p for points in weak.values() for p in points})
    ax.set_xscale("log", base=2)
    ax.set_xticks(all_p)
    ax.set_xticklabels([str(p) for p in all_p])
    ax.minorticks_off()
    ax.set_xlabel("ranks P")
    ax.set_ylabel("efficiency: strong T1 / (P * TP), weak T1 / TP\n(medians of TOTAL_S)")
    # Room for the labels above the highest point and above 1.0.
    ax.set_ylim(bottom=0, top=max(1.1, ax.get_ylim()[1] * 1.08))
    ax.set_title("heat2d: scaling efficiency over ranks (1.0 is ideal)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=9)
    return save(plt, fig, folder, "scaling.png")


def label_points(ax, xs, ys, below: bool) -> None:
    """Writes each efficiency next to its point (past P = 1, where it is 1
    by definition), so that a reader need not estimate it from the axis. A
    label meant below a point near the axis' floor (0) goes above it, where
    the axis has room."""
    for x, y in zip(xs, ys):
        if x > 1:
            under = below and y > 0.15
            ax.annotate(f"{y:.3f}", (x, y), textcoords="offset points",
                        xytext=(-8, -14 if under else 8), ha="right", fontsize=8)


def read_field(path: Path):
    import numpy as np

    try:
        with path.open(encoding="utf-8") as stream:
            header = stream.readline().split()
            nx, ny = int(header[0]), int(header[1])
            # heat2d writes valid numbers; the original's three-digit exponents
            # without 'E' never reach this file.
            values = np.loadtxt(stream, dtype=float)
    except (OSError, ValueError, IndexError) as exc:
        raise PlotError(f"cannot read field {path}: {exc}") from exc
    if values.size != nx * ny:
        raise PlotError(f"{path}: {values.size} values, header says {nx}x{ny}")
    return values.reshape(ny, nx), nx, ny  # i fastest: row j holds cells (0..nx-1, j)


def plot_field(plt, folder: Path, path: Path) -> Path | None:
    from matplotlib.colors import LogNorm
    import numpy as np

    if not path.exists():
        return None
    field, nx, ny = read_field(path)
    shown = np.clip(field, FIELD_FLOOR, None)
    fig, ax = plt.subplots(figsize=(6.8, 5.6))
    image = ax.imshow(shown, origin="lower", cmap="inferno",
                      norm=LogNorm(vmin=FIELD_FLOOR, vmax=float(shown.max())),
                      interpolation="nearest")
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(f"u (log scale; values below {FIELD_FLOOR:g} shown as {FIELD_FLOOR:g})")
    ax.set_xlabel("i (cell index)")
    ax.set_ylabel("j (cell index)")
    ax.set_title(f"final field, cpu, {nx}x{ny} after 400 steps\n"
                 f"unit heat at the centre; max {field.max():.3g}, sum {field.sum():.6f}")
    return save(plt, fig, folder, "field.png")


MAX_FRAMES = 200  # an animation's frames: more records are sampled evenly


def nc_parts(spec: str):
    """(FILE, VAR, STEP) of a .nc input, FILE.nc[:VAR][:STEP] (VAR and STEP
    "" when absent), or None for anything else."""
    if spec.endswith(".nc"):
        return spec, "", ""
    head, _, tail = spec.rpartition(":")
    if head.endswith(".nc"):
        return (head, "", tail) if tail.isdigit() else (head, tail, "")
    file, _, var = head.rpartition(":")
    return (file, var, tail) if file.endswith(".nc") and tail.isdigit() else None


_SURVEYS: dict = {}  # a series' answer, asked once for is_series and Series


def heat2d_values(spec: str):
    """A .nc input as heat2d's own reader reads it (heat2d plot --values,
    through the heat2d that runs this script): ("field", array ny x nx) or
    ("series", [step, ...])."""
    import numpy as np

    if spec in _SURVEYS:
        return _SURVEYS[spec]
    reader = os.environ.get("HEAT2D_READER")
    if not reader:
        raise PlotError(f"{spec}: a .nc input is read by heat2d's own reader: draw it with "
                        "heat2d plot")
    done = subprocess.run([reader, "plot", "--values", spec], capture_output=True)
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        raise PlotError(lines[-1].removeprefix("heat2d: plot: ") if lines else
                        f"{reader} plot --values {spec} exited with status {done.returncode}")
    head, _, body = done.stdout.partition(b"\n")
    words = head.split()
    if words == [b"series"]:
        _SURVEYS[spec] = ("series", [int(x) for x in body.split()])
        return _SURVEYS[spec]
    if len(words) == 3 and words[0] == b"field":
        nx, ny = int(words[1]), int(words[2])
        values = np.frombuffer(body, dtype=np.float64)
        if values.size == nx * ny:
            return "field", values.reshape(ny, nx)  # i fastest: row j holds cells (0..nx-1, j)
    raise PlotError(f"{spec}: heat2d's reader answered {head[:40]!r}")


class Series:
    """The records of a series, read one at a time: (step, field, meta)."""

    def __init__(self, source: Path):
        self.source = source
        if source.is_dir():
            self.files = sorted(source.glob("step_*.dat"),
                                key=lambda f: int(f.stem.split("_")[1]))
            if not self.files:
                raise PlotError(f"{source} holds no step_*.dat files")
            self.steps = [int(f.stem.split("_")[1]) for f in self.files]
        else:
            self.files = None
            kind, steps = heat2d_values(str(source))
            if kind != "series":
                raise PlotError(f"{source} is one field, not a series: heat2d plot draws it "
                                "as a field")
            self.steps = steps
            if not self.steps:
                raise PlotError(f"{source} holds no records")

    def record(self, k: int):
        if self.files is not None:
            field, _, _ = read_field(self.files[k])
        else:
            _, field = heat2d_values(f"{self.source}:{self.steps[k]}")
        return self.steps[k], field, {"name": Path(nc_parts(str(self.source))[0]).name
                                      if self.files is None else self.source.name}

    def close(self):
        pass


def read_spec(spec: str):
    """A field and what its title says, from a field file, FILE.nc or
    FILE.nc:STEP (FILE.nc:VAR, FILE.nc:VAR:STEP)."""
    parts = nc_parts(spec)
    if parts is None or Path(spec).exists() and not spec.endswith(".nc"):
        field, _, _ = read_field(Path(spec))
        return field, {"name": Path(spec).name}
    kind, answer = heat2d_values(spec)
    if kind == "series":
        raise PlotError(f"{spec} is a series of {len(answer)} records: name one as {spec}:STEP, "
                        "or heat2d plot draws them all")
    meta = {"name": Path(parts[0]).name}
    if parts[1]:
        meta["name"] += f":{parts[1]}"
    if parts[2]:
        meta["step"] = int(parts[2])
    return answer, meta


def field_title(field, meta: dict, step=None) -> str:
    ny, nx = field.shape
    step = meta.get("step") if step is None else step
    words = [meta["name"], f"{nx}x{ny}"]
    if step is not None:
        words.append(f"step {step}")
    words += [meta[k] for k in ("method", "precision") if k in meta]
    return ", ".join(words) + f"\nmax {field.max():.3g}, min {field.min():.3g}, sum {field.sum():.6g}"


def field_norm(field):
    """Log scale for a field of one sign (heat spans many decades), linear
    and symmetric for one with both signs."""
    from matplotlib.colors import LogNorm, Normalize
    import numpy as np

    if field.min() < 0:
        top = float(np.abs(field).max()) or 1.0
        return Normalize(vmin=-top, vmax=top), "coolwarm", field
    top = max(float(field.max()), FIELD_FLOOR * 10)
    return LogNorm(vmin=FIELD_FLOOR, vmax=top), "inferno", np.clip(field, FIELD_FLOOR, None)


def draw_field(plt, field, title: str, norm_of=None):
    fig, ax = plt.subplots(figsize=(6.8, 5.6))
    norm, cmap, shown = field_norm(field) if norm_of is None else norm_of(field)
    image = ax.imshow(shown, origin="lower", cmap=cmap, norm=norm, interpolation="nearest")
    fig.colorbar(image, ax=ax).set_label("u")
    ax.set_xlabel("i (cell index)")
    ax.set_ylabel("j (cell index)")
    ax.set_title(title, fontsize=10)
    return fig, ax, image


def plot_one_field(plt, spec: str, out: Path) -> Path:
    field, meta = read_spec(spec)
    fig, _, _ = draw_field(plt, field, field_title(field, meta))
    return save(plt, fig, out.parent, out.name)


def plot_series(plt, source: Path, gif: Path, png: Path) -> list[Path]:
    """Every record into gif, one read and drawn at a time (at most
    MAX_FRAMES, sampled evenly), the colour scale of the first; the last
    record into png."""
    from matplotlib.animation import PillowWriter

    series = Series(source)
    try:
        n = len(series.steps)
        picks = sorted({round(k * (n - 1) / (MAX_FRAMES - 1)) for k in range(MAX_FRAMES)}) \
            if n > MAX_FRAMES else list(range(n))
        step, field, meta = series.record(picks[0])
        scale = field_norm(field)[:2]
        norm_of = lambda f: (scale[0], scale[1], field_norm(f)[2] if scale[1] == "inferno" else f)
        fig, ax, image = draw_field(plt, field, field_title(field, meta, step), norm_of)
        writer = PillowWriter(fps=10)
        def write_gif(tmp):
            # Pillow takes the format from the name: write NAME.gif, then
            # move it onto replace_file's temporary name.
            named = f"{tmp}.gif"
            try:
                with writer.saving(fig, named, dpi=72):
                    for k in picks:
                        step, field, meta = series.record(k)
                        image.set_data(norm_of(field)[2])
                        ax.set_title(field_title(field, meta, step), fontsize=10)
                        writer.grab_frame()
                os.replace(named, tmp)
            finally:
                if os.path.exists(named):
                    os.unlink(named)
        replace_file(gif, write_gif)
        plt.close(fig)
        step, field, meta = series.record(n - 1)
        fig, _, _ = draw_field(plt, field, field_title(field, meta, step))
        return [gif, save(plt, fig, png.parent, png.name)]
    finally:
        series.close()


def is_series(spec: str) -> bool:
    """A --save-every folder, or a .nc input whose variable has records."""
    path = Path(spec)
    if path.is_dir():
        return True
    if nc_parts(spec) is None or nc_parts(spec)[2] or (path.exists() and not spec.endswith(".nc")):
        return False
    return heat2d_values(spec)[0] == "series"


def pyplot():
    try:
        import matplotlib
    except ImportError as exc:
        raise PlotError("matplotlib is not installed: apt-get install python3-matplotlib") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def reported(work) -> int:
    """Runs work(), which prints its PLOT= lines; any failure is one line on
    stderr and exit 1, never a traceback."""
    try:
        work()
    except PlotError as exc:
        print(f"plot_bench: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        print(f"plot_bench: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


def plot_command(argv: list[str]) -> int:
    """heat2d plot's modes: --field SPEC OUT.png, --series SOURCE OUT.gif OUT.png,
    --auto SPEC STEM."""
    if not ((argv[1] in ("--field", "--auto") and len(argv) == 4) or
            (argv[1] == "--series" and len(argv) == 5)):
        print("usage: plot_bench.py --field SPEC OUT.png | --series SOURCE OUT.gif OUT.png "
              "| --auto SPEC STEM", file=sys.stderr)
        return 2

    def work():
        plt = pyplot()
        if argv[1] == "--auto" and is_series(argv[2]):
            names = [Path(argv[3] + ".gif"), Path(argv[3] + ".png")]
        elif argv[1] == "--auto":
            names = [Path(argv[3] + ".png")]
        else:
            names = [Path(name) for name in argv[3:]]
        for name in names:  # every picture's name refused or not before any is drawn
            picture_target(name)
        if len(names) == 2:
            outputs = plot_series(plt, Path(argv[2]), *names)
        else:
            outputs = [plot_one_field(plt, argv[2], names[0])]
        for out in outputs:
            print(plot_line(out))

    return reported(work)


def main(argv: list[str]) -> int:
    if len(argv) > 1 and argv[1] in ("--field", "--series", "--auto"):
        return plot_command(argv)
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print("usage: plot_bench.py DIR [FIELD] (a heat2d bench folder, a field file)",
              file=sys.stderr)
        return 2 if len(argv) not in (2, 3) else 0
    folder = Path(argv[1])
    field_path = Path(argv[2]) if len(argv) == 3 else folder / FIELD_FILE

    def work():
        if not folder.is_dir():
            raise PlotError(f"{folder} is not a folder")
        for name in ("time_per_step.png", "headline.png", "phases.png", "scaling.png",
                     "snapshots.png", "field.png"):
            picture_target(folder / name)
        plt = pyplot()
        rows = read_trials(folder)
        outputs = [plot_time_per_step(plt, rows, folder), plot_headline(plt, rows, folder),
                   plot_phases(plt, rows, folder)]
        for extra in (plot_scaling(plt, rows, folder), plot_snapshots(plt, rows, folder)):
            if extra is not None:
                outputs.append(extra)
        field = plot_field(plt, folder, field_path)
        for out in outputs:
            print(plot_line(out))
        if field is not None:
            print(plot_line(field))
        elif not (folder / "field.png").exists():
            print(f"plot_bench: no {field_path}: field.png not made", file=sys.stderr)

    return reported(work)


def stop(signo, _frame):
    """A stop signal (the bench ends its helpers with SIGTERM) unwinds
    through replace_file, which removes its temporary picture."""
    raise SystemExit(128 + signo)


if __name__ == "__main__":
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    sys.exit(main(sys.argv))
