"""headline.png: each method's total at the headline size, its speedup over cpu."""

from __future__ import annotations

import statistics
from pathlib import Path

from .common import save
from .trials import headline_size, host_note, method_order, on_host


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
    return save(plt, fig, folder, "headline.png", note=lambda f: host_note(f, at_size))
