#!/usr/bin/env python3
"""Plots of one heat2d bench folder, and of fields and series (heat2d plot).

usage: plot_bench.py DIR [FIELD]
       plot_bench.py --field SPEC OUT.png
       plot_bench.py --series SOURCE OUT.gif OUT.png
       plot_bench.py --auto SPEC STEM (heat2d plot: a series as --series into
                     STEM.gif and STEM.png, anything else as --field into STEM.png)

--field draws one field (a field file, FILE.nc, or FILE.nc:STEP) as a heat
map; --series draws every record of a series (a FILE.nc with a time
dimension, or a --save-every folder of step files) into an animated GIF,
one record at a time, and the last record as a PNG. A .nc input (also
FILE.nc:VAR[:STEP]) is read by heat2d's own reader, the heat2d named by
HEAT2D_READER (heat2d plot sets it), as run and compare read it.

Reads DIR/trials.csv (and the field file FIELD, else DIR/field_256.dat when
present) and writes
DIR/time_per_step.png, DIR/headline.png, DIR/phases.png (where each method's
time goes) and DIR/field.png; with runs of a distributed method over several
rank counts (bench --ranks) DIR/scaling.png; with snapshot runs (bench
--output-every) DIR/snapshots.png. No label may overlap another or leave its
axes, nor a whisker pass the axis limits: a picture
where one would is an error. Prints one PLOT=path line per picture; on any
error prints one line on stderr and exits 1.
heat2d bench runs this itself; run it by hand after installing matplotlib
(apt-get install python3-matplotlib) or after editing trials.csv, with
HEAT2D_RUN_OPTIONS naming the build's share/heat2d/run_options.json (the label
grammar; an installed script reads the one beside it).

Each picture is drawn by its own module of the package plots/ beside this
script (plots/common.py what they share), which this script finds wherever
it is run from.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

# The package beside this script, wherever it is run from (the source tree,
# PREFIX/share/heat2d); no bytecode written into either.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
try:
    from plots.cli import main
    # Names that scripts and tests use from plot_bench itself.
    from plots.common import PlotError, outside_axes, overlapping_texts
    from plots.fields import read_spec
    from plots.trials import label_of, method_order, read_axes, read_trials
except ImportError as exc:
    print(f"plot_bench: cannot load its package plots/ beside "
          f"{Path(__file__).resolve()}: {exc}", file=sys.stderr)
    sys.exit(1)

__all__ = ["PlotError", "label_of", "main", "method_order", "outside_axes", "overlapping_texts",
           "read_axes", "read_spec", "read_trials"]


def stop(signo, _frame):
    """A stop signal (the bench ends its helpers with SIGTERM) unwinds
    through replace_file, which removes its temporary picture."""
    raise SystemExit(128 + signo)


if __name__ == "__main__":
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    sys.exit(main(sys.argv))
