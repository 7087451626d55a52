/* The manifest beside a --save-every run's step files, heat2d_series.txt:
 * the settings that make its step files one series (grid, alpha, method,
 * precision), so that a later run into the same folder can tell its own
 * files from another run's. */
#ifndef HEAT2D_SERIES_MANIFEST_H
#define HEAT2D_SERIES_MANIFEST_H

#include "heat2d.h"

#include <stdio.h>

#define HEAT2D_SERIES_FILE "heat2d_series.txt"
/* The most a manifest may hold: one of ours is under 200 bytes. */
#define HEAT2D_SERIES_MAX_BYTES 4096

typedef struct heat2d_series {
    size_t nx, ny;
    double alpha;
    char method[64];
    heat2d_precision precision;
} heat2d_series;

/* Parses the size bytes at text (any bytes), named name in messages:
 * "heat2d series 1", then one "KEY VALUE" line for each of nx, ny, alpha,
 * method, precision, once each, in any order. 0, or -1 with one line
 * "NAME:LINE: why" (or "NAME: why"). */
int heat2d_series_parse(const char *name, const char *text, size_t size, heat2d_series *s,
                        heat2d_error *err);

/* Writes s as heat2d_series_parse reads it; 0 or an errno value (a
 * heat2d_file_writer, ctx the series). */
int heat2d_series_write(FILE *f, void *ctx);

/* The first setting in which was differs from now, "alpha 0.1 there, 0.2
 * here", into what; false when they agree. */
bool heat2d_series_differ(const heat2d_series *was, const heat2d_series *now, char *what,
                          size_t size);

#endif
