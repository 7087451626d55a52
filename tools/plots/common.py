"""What every picture shares: one-line failures, matplotlib without a
display, the layout checks (no label over another or outside its axes) and
writing a picture by the rules of every file heat2d writes."""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path


class PlotError(Exception):
    """A failure that deserves one line, not a traceback."""


class UsageError(PlotError):
    """A request that cannot be met as asked (exit 2, as heat2d's refusals)."""


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


def save(plt, fig, folder: Path, name: str, note=None) -> Path:
    """Lays out (leaving room at the foot for note(fig), a line under the
    axes, when given), checks that no two labels overlap, writes
    folder/name and frees the figure."""
    fig.tight_layout(rect=(0, 0.03, 1, 1) if note is not None else None)
    if note is not None:
        note(fig)
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
    follow (src/lib/sys/file_replace.c, --save's): (path, mode to keep or None,
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
    stderr and exit 1 (2 for a request refused), never a traceback."""
    try:
        work()
    except UsageError as exc:
        print(f"plot_bench: {exc}", file=sys.stderr)
        return 2
    except PlotError as exc:
        print(f"plot_bench: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        print(f"plot_bench: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0
