"""Fields and series read for a picture: a field file, a --save-every
folder, and a .nc input through heat2d's own reader (heat2d plot --values)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .common import PlotError


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
GRIDS: dict = {}  # a field's cell size (dx, metres) and time step (dt, s), where the file has them


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
    if len(words) >= 3 and words[0] == b"field":
        nx, ny = int(words[1]), int(words[2])
        GRIDS[spec] = {k.decode(): float(v) for k, _, v in (w.partition(b"=") for w in words[3:])
                       if k in (b"dx", b"dt")}
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
            return self.steps[k], field, {"name": self.source.name}
        record = f"{self.source}:{self.steps[k]}"
        _, field = heat2d_values(record)
        return self.steps[k], field, {"name": Path(nc_parts(str(self.source))[0]).name,
                                      **GRIDS.get(record, {})}

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
    meta = {"name": Path(parts[0]).name, **GRIDS.get(spec, {})}
    if parts[1]:
        meta["name"] += f":{parts[1]}"
    if parts[2]:
        meta["step"] = int(parts[2])
    return answer, meta


def is_series(spec: str) -> bool:
    """A --save-every folder, or a .nc input whose variable has records."""
    path = Path(spec)
    if path.is_dir():
        return True
    if nc_parts(spec) is None or nc_parts(spec)[2] or (path.exists() and not spec.endswith(".nc")):
        return False
    return heat2d_values(spec)[0] == "series"
