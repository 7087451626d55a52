"""scaling.png: strong and weak scaling efficiency of the distributed methods."""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

from .common import save


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
