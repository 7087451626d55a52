"""plot_bench.py's two command lines: a bench folder's pictures, and
heat2d plot's field and series modes."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from . import field_scale
from .common import PlotError, UsageError, picture_target, plot_line, pyplot, reported
from .field_pictures import plot_field, plot_one_field, plot_series
from .fields import is_series
from .headline import plot_headline
from .phases import plot_phases
from .scaling import plot_scaling
from .snapshots import plot_snapshots
from .time_per_step import plot_time_per_step
from .trials import read_trials

FIELD_FILE = "field_256.dat"


SCALE_OPTIONS = ("--scale", "--vmin", "--vmax", "--cmap")


def scale_request(pairs: list[str]) -> dict:
    """heat2d plot's --scale, --vmin, --vmax and --cmap (each OPTION VALUE)
    as field_scale.choose's arguments, each checked."""
    asked: dict = {}
    if len(pairs) % 2 or any(o not in SCALE_OPTIONS for o in pairs[::2]):
        raise UsageError("after the pictures' names: --scale linear|log, --vmin V, --vmax V, "
                         "--cmap NAME")
    for option, text in zip(pairs[::2], pairs[1::2]):
        key = option[2:]
        if key in ("vmin", "vmax"):
            try:
                asked[key] = float(text)
            except ValueError:
                asked[key] = math.nan
            if not math.isfinite(asked[key]):
                raise UsageError(f"{option} {text}: not a finite number")
        else:
            asked[key] = text
    if asked.get("scale") not in (None, "linear", "log"):
        raise UsageError(f"--scale {asked['scale']}: linear or log")
    if asked.get("scale") == "log" and asked.get("vmin", 1.0) <= 0:
        raise UsageError(f"--vmin {asked['vmin']:g}: a log scale starts above 0")
    if "vmin" in asked and "vmax" in asked and not asked["vmin"] < asked["vmax"]:
        raise UsageError(f"--vmin {asked['vmin']:g} is not below --vmax {asked['vmax']:g}")
    field_scale.check_cmap(asked.get("cmap"))
    return asked


def plot_command(argv: list[str]) -> int:
    """heat2d plot's modes: --field SPEC OUT.png, --series SOURCE OUT.gif OUT.png,
    --auto SPEC STEM, each followed by the scale's options."""
    names_end = 5 if argv[1] == "--series" else 4
    if len(argv) < names_end or any(a in SCALE_OPTIONS for a in argv[2:names_end]):
        print("usage: plot_bench.py --field SPEC OUT.png | --series SOURCE OUT.gif OUT.png "
              "| --auto SPEC STEM, then [--scale linear|log] [--vmin V] [--vmax V] "
              "[--cmap NAME]", file=sys.stderr)
        return 2

    def work():
        plt = pyplot()
        asked = scale_request(argv[names_end:])
        if argv[1] == "--auto" and is_series(argv[2]):
            names = [Path(argv[3] + ".gif"), Path(argv[3] + ".png")]
        elif argv[1] == "--auto":
            names = [Path(argv[3] + ".png")]
        else:
            names = [Path(name) for name in argv[3:names_end]]
        for name in names:  # every picture's name refused or not before any is drawn
            picture_target(name)
        if len(names) == 2:
            scale, outputs = plot_series(plt, Path(argv[2]), *names, asked)
        else:
            scale, outputs = plot_one_field(plt, argv[2], names[0], asked)
        print(scale.line())
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
