/* Field files in the original's text format: writing, reading and parsing. */
#ifndef HEAT2D_FIELD_H
#define HEAT2D_FIELD_H

#include "heat2d_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* First line "nx ny", then one "%24.16E" value per line, i fastest. Written
 * to a temporary name in the same directory, then renamed; any write or close
 * error is an error and leaves no file behind. */
int heat2d_field_write(const char *path, size_t nx, size_t ny, const double *field,
                       heat2d_error *err);

/* Fails early, before any computation, when path's directory does not exist
 * or cannot be written, so that a long run does not end in a lost result. */
int heat2d_field_check_writable(const char *path, heat2d_error *err);

typedef struct heat2d_field {
    size_t nx;
    size_t ny;
    double *values;
} heat2d_field;

/* The longest line a field file may have, its terminator not counted: far
 * more than any double written out in full (printf's %.1074f of -DBL_MAX
 * is 1385 characters) with blanks around it. So a header of nx*ny values
 * bounds the file: at most the header and nx*ny lines of this many bytes
 * and a \r\n, and anything longer (/dev/zero, a sparse file) is refused as
 * soon as that is known. */
#define HEAT2D_FIELD_MAX_LINE 4096

/* Reads a field file, checking header, shape (>= 5x5), line count and that
 * every value is a finite number. Accepts the original's three-digit exponent
 * form without 'E' (e.g. 8.8357301208401164-271) and 'D' exponents.
 * Reads with read() in chunks, in memory for the values alone (refused up
 * front, or as they come, when more than heat2d_memory_limit), from
 * anything that can be opened: a regular file is held to its size, and one
 * that shrinks, grows or is rewritten while read is an error; a pipe or
 * device is refused at the first value past the header's count. */
int heat2d_field_read(const char *path, heat2d_field *field, heat2d_error *err);
void heat2d_field_free(heat2d_field *field);

/* heat2d_field_read on a file that must be a regular file, and is opened
 * as one that may not be (no link followed, no wait for a FIFO's writer):
 * a field that another program wrote, whose name it could have made a
 * FIFO or a link. "'P' is not a regular file (a FIFO)" and the like. */
int heat2d_field_read_regular(const char *path, heat2d_field *field, heat2d_error *err);

/* heat2d_field_read with its reads under a test's control: chunk_bytes per
 * read() (0: the default, 1 MiB), and after_read(ctx, bytes so far) called
 * after each, where a test cuts the file short or rewrites it. */
typedef struct heat2d_field_read_hook {
    size_t chunk_bytes;
    void (*after_read)(void *ctx, uint64_t bytes_read);
    void *ctx;
} heat2d_field_read_hook;
int heat2d_field_read_hooked(const char *path, const heat2d_field_read_hook *hook,
                             heat2d_field *field, heat2d_error *err);

/* The checks of heat2d_field_read on the size bytes at data (no terminating
 * NUL needed, none read), as on a regular file of that size, with messages
 * that name the file `name`. */
int heat2d_field_parse(const char *name, const char *data, size_t size, heat2d_field *field,
                       heat2d_error *err);

/* Parses one number as the field reader does; returns 0 and sets *value, or
 * -1 when text[0..len) is not a number. Exposed for tests and fuzzing. */
int heat2d_parse_real(const char *text, size_t len, double *value);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_FIELD_H */
