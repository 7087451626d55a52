/* Writing a file the user named: streams in place, regular files replaced
 * whole (see file_replace.c for the rules). */
#ifndef HEAT2D_FILE_REPLACE_H
#define HEAT2D_FILE_REPLACE_H

#include "heat2d_error.h"

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

/* The descriptor a path names by itself (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N), or -1. */
int heat2d_file_named_descriptor(const char *path);

/* A file that heat2d keeps as its own (a bench's ledger and summary) must
 * be a regular file: a FIFO or a device there would hang or swallow it.
 * 0 when path is one or does not exist, else -1 with "F is not a regular
 * file (a FIFO)" and the like. */
int heat2d_file_check_regular(const char *path, heat2d_error *err);

/* What a file of that mode is, for messages: "a FIFO", "a directory", ... */
const char *heat2d_file_kind(mode_t mode);

#endif
