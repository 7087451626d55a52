/* heat2d bench: its results folder. A bench writes only into a folder of
 * its own, every file it writes there checked before anything runs. */
#ifndef HEAT2D_BENCH_FOLDER_H
#define HEAT2D_BENCH_FOLDER_H

#include "bench.h"

/* "results/HOST-RUN_ID", HOST with anything but [A-Za-z0-9._-] made '-',
 * into path. */
void bench_default_folder(const bench_run_info *info, char *path, size_t size);

/* The folder dir readied: refused when it is the user's (not new, not
 * empty, no trials.csv: "--out DIR is not a heat2d bench folder: ..."),
 * made with its parents, writable, and every file the bench writes there
 * a regular file it may replace. 0, or -1 with err. */
int bench_folder_ready(const char *dir, heat2d_error *err);

#endif /* HEAT2D_BENCH_FOLDER_H */
