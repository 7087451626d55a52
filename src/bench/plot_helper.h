/* heat2d's plotting helpers, which the bench's plots and heat2d plot
 * share: a python with matplotlib, the plotting script, their time limits. */
#ifndef HEAT2D_BENCH_PLOT_HELPER_H
#define HEAT2D_BENCH_PLOT_HELPER_H

#include "heat2d.h"

#include <stdbool.h>
#include <stddef.h>

/* Time limits of the plotting helpers, in seconds: the matplotlib probe (an
 * import, under a second when python is well) and the plotting script
 * (seconds for a folder, minutes for a very large one). Past its limit a
 * helper's process group is killed and the plots are skipped, not failed.
 * HEAT2D_PLOT_TIMEOUT (seconds) replaces both, for a slow machine or a
 * test. */
#define BENCH_PROBE_TIMEOUT_S 30.0
#define BENCH_PLOT_TIMEOUT_S  300.0

/* Reads HEAT2D_PLOT_TIMEOUT and checks HEAT2D_PLOT_SCRIPT, up front. */
int bench_check_plot_env(heat2d_error *err);
/* A helper's limit: HEAT2D_PLOT_TIMEOUT, else fallback. */
double bench_plot_limit(double fallback);

/* HEAT2D_PYTHON, else each python3 on PATH in turn, then /usr/bin/python3:
 * the first with matplotlib, NULL for none (tried lists them). One whose
 * probe hangs ends the search: *hung names it, *limit the time it had. */
const char *bench_find_python(char *tried, size_t tried_size, const char **hung, double *limit);

/* The plotting script (HEAT2D_PLOT_SCRIPT, installed, the source tree, the
 * working directory) into path; false when there is none. */
bool bench_find_plot_script(char *path, size_t size);

/* Whether path is a regular file that is a PNG or GIF, by its first bytes
 * (never waiting on a FIFO): a plot is reported only when it is one, or a
 * stream it was written into. */
bool bench_is_image(const char *path);

/* The PLOT=FILE lines of the plotter's output whose FILE is an image or a
 * stream (the rest of it is the helper's chatter), each name escaped as heat2d prints
 * names (heat2d_print_name), malloc'd; the first FILE that is not one into
 * bad ("" for none). NULL when out of memory. */
char *bench_plot_lines(const char *out, char *bad, size_t bad_size);

/* Whether the plotter's output has a PLOT= line naming path (the same
 * file) and path is an image (or a stream): a picture it was asked for and
 * made. */
bool bench_plot_reported(const char *out, const char *path);

#endif
