/* Writing a file the user named: streams in place, regular files replaced
 * whole (see file_replace.c for the rules). */
#ifndef HEAT2D_FILE_REPLACE_H
#define HEAT2D_FILE_REPLACE_H

#include "heat2d.h"

#include <stdio.h>
#include <sys/types.h>

/* Writes the content to stream; 0, or an errno value. */
typedef int (*heat2d_file_writer)(FILE *stream, void *ctx);

/* Writes path through write. what names the file in messages ("field
 * file"). 0, or -1 with err set; on failure an existing file is untouched
 * and no temporary file is left. */
int heat2d_file_replace(const char *path, const char *what, heat2d_file_writer write, void *ctx,
                        heat2d_error *err);

/* The same refusals, before any work is done: a folder, a read-only file,
 * a closed descriptor, a folder that cannot be written. */
int heat2d_file_check_replaceable(const char *path, const char *what, heat2d_error *err);

/* The name a write to path lands on: the file a symbolic link names
 * (resolved), else path itself; false when it does not fit in out. */
bool heat2d_file_final_name(const char *path, char *out, size_t size);

/* heat2d run's rule for a file that is already where an output goes
 * (docs/usage.md, "Files that are there already"): a regular file, or the
 * one a link names, is replaced only when it holds what heat2d writes
 * under that name (a NetCDF file heat2d wrote for a .nc name, text for any
 * other) or nothing; otherwise, and for a link to nothing, -1 with
 * "OPTION PATH: it holds binary data, not text; give --force to replace
 * it" and the like. force: anything goes. Streams are not judged. */
int heat2d_file_check_kind(const char *option, const char *path, bool force, heat2d_error *err);

/* A file that heat2d keeps as its own (a bench's ledger and summary) must
 * be a regular file: a FIFO or a device there would hang or swallow it.
 * 0 when path is one or does not exist, else -1 with "F is not a regular
 * file (a FIFO)" and the like. */
int heat2d_file_check_regular(const char *path, heat2d_error *err);

/* What a file of that mode is, for messages: "a FIFO", "a directory", ... */
const char *heat2d_file_kind(mode_t mode);

#endif
