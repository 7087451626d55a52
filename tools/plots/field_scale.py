"""The colour scale of a heat map: linear or log, its limits and colormap,
as heat2d plot's --scale, --vmin, --vmax and --cmap ask, the rest chosen
from the field's values."""

from __future__ import annotations

from dataclasses import dataclass

from .common import UsageError

# Below the maximum times this, a value is at the round-off of the maximum:
# a log scale's default foot.
ROUND_OFF = 1e-16
# A log scale by default only for a field whose positive values span at
# least this many decades above the round-off foot ...
LOG_DECADES = 6
# ... and of which fewer than this share lie within a decade of the
# maximum: a bell spread far from a point source (about one cell in
# sixteen, however long it has run), not a mound whose top is still there.
LOG_TOP_SHARE = 0.1
# The smallest --vmin of a log scale: below it matplotlib's norm refuses
# the limits (heat2d plot refuses them first, src/driver/cmd_plot.c).
LOG_FLOOR = 1e-200


@dataclass(frozen=True)
class Scale:
    kind: str  # "linear" or "log"
    vmin: float
    vmax: float
    cmap: str

    def norm(self):
        from matplotlib.colors import LogNorm, Normalize

        if self.kind == "log":
            return LogNorm(vmin=self.vmin, vmax=self.vmax)
        return Normalize(vmin=self.vmin, vmax=self.vmax)

    def shown(self, field):
        """What is drawn: on a log scale, values below its foot (zeros
        among them) at the foot's colour, not left blank."""
        import numpy as np

        return np.clip(field, self.vmin, None) if self.kind == "log" else field

    def label(self) -> str:
        if self.kind == "log":
            return f"u (log scale; values below {self.vmin:.3g} shown as {self.vmin:.3g})"
        return "u"

    def line(self) -> str:
        """SCALE=... as heat2d plot prints it: what to pass to draw another
        field the same way."""
        return (f"SCALE={self.kind} VMIN={float(self.vmin)!r} VMAX={float(self.vmax)!r} "
                f"CMAP={self.cmap}")


def check_cmap(name: str | None) -> None:
    """A colormap that matplotlib names, refused in one line otherwise."""
    import matplotlib

    if name is not None and name not in matplotlib.colormaps:
        raise UsageError(f"--cmap {name}: not a matplotlib colormap (such as viridis, inferno, "
                         "coolwarm, Blues)")


def spans_decades(values) -> bool:
    """Whether positive values are a point source's bell: many decades above
    the round-off foot, few of them near the top (LOG_DECADES, LOG_TOP_SHARE)."""
    import numpy as np

    top = float(values.max())
    if not top > 0:
        return False
    kept = values[values > top * ROUND_OFF]
    decades = np.log10(top / float(kept.min()))
    return decades >= LOG_DECADES and float((kept >= top / 10).mean()) < LOG_TOP_SHARE


def default_kind(values) -> str:
    return "log" if float(values.min()) >= 0 and spans_decades(values) else "linear"


def default_limits(values, kind: str, vmin, vmax) -> tuple[float, float, bool]:
    """The limits not given, from the values: a log scale from the round-off
    foot (or the smallest positive value) to the maximum; a linear one from
    0 (or the minimum, when below) to the maximum, symmetric about 0 when
    the values have both signs. The last item: whether it is symmetric."""
    import numpy as np

    low, top = float(values.min()), float(values.max())
    if kind == "log":
        if vmin is None and not top > 0:
            raise UsageError(f"--scale log: the field has no positive value (its maximum is "
                             f"{top:.6g}); give --vmin and --vmax")
        smallest = float(values[values > 0].min()) if top > 0 else 0.0
        if vmin is None:
            vmin = smallest if top * ROUND_OFF < smallest < top else top * ROUND_OFF
        return vmin, top if vmax is None else vmax, False
    both = low < 0 < top
    if both and vmin is None and vmax is None:
        edge = float(np.abs(values).max())
        return -edge, edge, True
    if vmin is None and vmax is None and min(low, 0.0) == top:
        return top, top + 1.0, False  # a flat 0 or below: one colour, a scale above it
    return min(low, 0.0) if vmin is None else vmin, top if vmax is None else vmax, False


def choose(values, scale=None, vmin=None, vmax=None, cmap=None) -> Scale:
    """The scale asked for, what was not asked for chosen from values (every
    value a picture will show, so that one scale holds them all)."""
    # A --vmin a log scale cannot start from (0 or below, or under the
    # smallest limit heat2d plot lets a log scale take) asks for a linear one.
    log_possible = vmin is None or vmin >= LOG_FLOOR
    kind = scale or (default_kind(values) if log_possible else "linear")
    low, high, symmetric = default_limits(values, kind, vmin, vmax)
    if not low < high and vmin is not None:
        raise UsageError(f"--vmin {vmin:g} is not below the field's maximum {high:.6g}: give "
                         "--vmax as well")
    if not low < high:
        raise UsageError(f"--vmax {vmax:g} is not above the scale's foot {low:.6g}: give --vmin "
                         "as well")
    return Scale(kind, low, high, cmap or ("coolwarm" if symmetric else "inferno"))
