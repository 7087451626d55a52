"""phases.png: where each method's time goes at the headline size."""

from __future__ import annotations

import statistics
from pathlib import Path

from .common import save
from .trials import PHASES, headline_size, method_order, phase_split


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
