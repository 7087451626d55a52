/* Writing a field file: "nx ny", then one %24.16E value a line, by the
 * rules of file_replace.c (a stream in place, a file replaced whole). */
#define _POSIX_C_SOURCE 200809L

#include "file_replace.h"
#include "heat2d.h"
#include "real_format.h"

#include <errno.h>
#include <stdint.h>

#define WRITE_CHUNK_LINES 1024

/* On any failure returns errno's value. */
static int write_values(FILE *stream, size_t nx, size_t ny, const double *field)
{
    if (fprintf(stream, "%zu %zu\n", nx, ny) < 0)
        return errno ? errno : EIO;
    char chunk[WRITE_CHUNK_LINES * (E16_WIDTH + 1)];
    size_t n = nx * ny;
    for (size_t i = 0; i < n;) {
        size_t lines = n - i < WRITE_CHUNK_LINES ? n - i : WRITE_CHUNK_LINES;
        char *c = chunk;
        for (size_t l = 0; l < lines; ++l) {
            heat2d_format_e16(field[i + l], c);
            c[E16_WIDTH] = '\n';
            c += E16_WIDTH + 1;
        }
        size_t bytes = (size_t)(c - chunk);
        if (fwrite(chunk, 1, bytes, stream) != bytes)
            return errno ? errno : EIO;
        i += lines;
    }
    return 0;
}

typedef struct {
    size_t nx, ny;
    const double *field;
} field_values;

static int write_field(FILE *stream, void *ctx)
{
    const field_values *v = ctx;
    return write_values(stream, v->nx, v->ny, v->field);
}

int heat2d_field_write(const char *path, size_t nx, size_t ny, const double *field,
                       heat2d_error *err)
{
    if (nx != 0 && ny > SIZE_MAX / nx)
        return heat2d_fail(err, "cannot write field file '%s': %zux%zu cells overflow", path, nx,
                           ny);
    field_values v = {nx, ny, field};
    return heat2d_file_replace(path, "field file", write_field, &v, err);
}

int heat2d_field_check_writable(const char *path, heat2d_error *err)
{
    return heat2d_file_check_replaceable(path, "field file", err);
}
