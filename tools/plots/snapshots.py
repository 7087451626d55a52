"""snapshots.png: time per step against the steps between snapshots, with
the bound that the copies' and writes' rates set."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from .common import save
from .trials import phase_split


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
