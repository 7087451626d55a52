"""time_per_step.png: time per step against grid size, one line a method."""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

from .common import save
from .trials import cells_text, host_note, legend_label, method_order, on_host


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
    return save(plt, fig, folder, "time_per_step.png", note=lambda f: host_note(f, rows))
