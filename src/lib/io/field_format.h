/* A field file's format: what a name asks for, and whether a file that is
 * there already holds it. */
#ifndef HEAT2D_FIELD_FORMAT_H
#define HEAT2D_FIELD_FORMAT_H

#include "heat2d_error.h"

#include <stdbool.h>

/* heat2d run's rule for a file that is already where an output goes
 * (docs/usage.md, "Files that are there already"): a regular file, or the
 * one a link names, is replaced only when it holds what heat2d writes
 * under that name (a NetCDF file heat2d wrote for a .nc name, text for any
 * other) or nothing; otherwise, and for a link to nothing, -1 with
 * "OPTION PATH: it holds binary data, not text; give --force to replace
 * it" and the like. force: anything goes. Streams are not judged. */
int heat2d_file_check_kind(const char *option, const char *path, bool force, heat2d_error *err);

#endif /* HEAT2D_FIELD_FORMAT_H */
