"""A bench folder's trials.csv read as the bench pictures use it: each
row's label (the grammar of run_options.json), method order, where each
method ran, and where its time went."""

from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path

from .common import PlotError

HEADLINE = (2048, 2048, 500)  # the article's headline table


HOST_METHODS = {"cpu", "omp", "mpi-cpu"}  # methods that never use a device


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


def headline_size(rows) -> tuple[tuple[int, int, int], bool]:
    sizes = {(row["_nx"], row["_ny"], row["_steps"]) for row in rows}
    if HEADLINE in sizes:
        return HEADLINE, True
    return max(sizes, key=lambda s: (s[0] * s[1], s[2])), False


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
