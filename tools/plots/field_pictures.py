"""Heat maps of fields: the bench's field.png, and heat2d plot's field
(NAME.png) and series (NAME.gif and its last record, NAME.png)."""

from __future__ import annotations

import os
from pathlib import Path

from . import field_scale
from .common import replace_file, save
from .fields import Series, read_field, read_spec

FIELD_FLOOR = 1e-16  # the field spans hundreds of decades; below this is noise to the eye


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


def field_title(field, meta: dict, step=None) -> str:
    ny, nx = field.shape
    step = meta.get("step") if step is None else step
    words = [meta["name"], f"{nx}x{ny}"]
    if step is not None:
        words.append(f"step {step}" + (f" (t = {step * meta['dt']:g} s)" if "dt" in meta else ""))
    words += [meta[k] for k in ("method", "precision") if k in meta]
    return ", ".join(words) + f"\nmax {field.max():.3g}, min {field.min():.3g}, sum {field.sum():.6g}"


def draw_field(plt, field, title: str, scale, meta=None):
    """A heat map: its axes in metres (cell centres at i*dx) where the
    file gives the cells' size, else in cell indices."""
    fig, ax = plt.subplots(figsize=(6.8, 5.6))
    dx = (meta or {}).get("dx")
    ny, nx = field.shape
    extent = None if dx is None else (-dx / 2, (nx - 0.5) * dx, -dx / 2, (ny - 0.5) * dx)
    image = ax.imshow(scale.shown(field), origin="lower", cmap=scale.cmap, norm=scale.norm(),
                      interpolation="nearest", extent=extent)
    fig.colorbar(image, ax=ax).set_label(scale.label())
    ax.set_xlabel("i (cell index)" if dx is None else "x [m]")
    ax.set_ylabel("j (cell index)" if dx is None else "y [m]")
    ax.set_title(title, fontsize=10)
    return fig, ax, image


def plot_one_field(plt, spec: str, out: Path, asked: dict):
    """The field named by spec into out, on the scale asked for (heat2d
    plot's --scale, --vmin, --vmax, --cmap), the rest chosen from its
    values: (the scale, [out])."""
    field, meta = read_spec(spec)
    scale = field_scale.choose(field, **asked)
    fig, _, _ = draw_field(plt, field, field_title(field, meta), scale, meta)
    return scale, [save(plt, fig, out.parent, out.name)]


def frame_picks(n: int) -> list:
    """The records an animation of n records shows: all of them, or
    MAX_FRAMES spread evenly from the first to the last."""
    if n <= MAX_FRAMES:
        return list(range(n))
    return sorted({round(k * (n - 1) / (MAX_FRAMES - 1)) for k in range(MAX_FRAMES)})


def plot_series(plt, source: Path, gif: Path, png: Path, asked: dict):
    """Every record into gif, one read and drawn at a time (at most
    MAX_FRAMES, sampled evenly), and the last record into png, all on one
    scale: the one asked for, the rest chosen from the first and the last
    records. (the scale, [gif, png])."""
    import numpy as np
    from matplotlib.animation import PillowWriter

    series = Series(source)
    try:
        n = len(series.steps)
        picks = frame_picks(n)
        step, field, meta = series.record(picks[0])
        last = series.record(n - 1)
        scale = field_scale.choose(np.concatenate((field.ravel(), last[1].ravel())), **asked)
        fig, ax, image = draw_field(plt, field, field_title(field, meta, step), scale, meta)
        writer = PillowWriter(fps=10)
        def write_gif(tmp):
            # Pillow takes the format from the name: write NAME.gif, then
            # move it onto replace_file's temporary name.
            named = f"{tmp}.gif"
            try:
                with writer.saving(fig, named, dpi=72):
                    for k in picks:
                        step, field, meta = series.record(k)
                        image.set_data(scale.shown(field))
                        ax.set_title(field_title(field, meta, step), fontsize=10)
                        writer.grab_frame()
                os.replace(named, tmp)
            finally:
                if os.path.exists(named):
                    os.unlink(named)
        replace_file(gif, write_gif)
        plt.close(fig)
        step, field, meta = last
        fig, _, _ = draw_field(plt, field, field_title(field, meta, step), scale, meta)
        return scale, [gif, save(plt, fig, png.parent, png.name)]
    finally:
        series.close()
