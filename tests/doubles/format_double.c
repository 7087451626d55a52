/* A field format that is a test double, built only with
 * HEAT2D_TEST_DOUBLES=ON: a name that ends in .dbl, a file of a line of
 * its own and then the text field's lines with %.17g values. A test shows
 * with it that a format joins heat2d run's --save, its check of a file
 * already there, and every reader of fields from its file and its line in
 * the table of formats (src/lib/io/field_format.c) alone. */
#define _POSIX_C_SOURCE 200809L

#include "field_format.h"
#include "file_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[] = "heat2d test double field\n";
#define MAGIC_BYTES (sizeof magic - 1)

static bool double_writes(const char *path)
{
    const size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".dbl") == 0;
}

static int double_reads(const char *spec, heat2d_error *err)
{
    (void)err;
    return double_writes(spec);
}

static heat2d_holds double_sniff(const char *path, const unsigned char *head, size_t n)
{
    (void)path;
    return n >= MAGIC_BYTES && memcmp(head, magic, MAGIC_BYTES) == 0 ? HEAT2D_HOLDS_OURS
                                                                     : HEAT2D_HOLDS_OTHER;
}

typedef struct {
    size_t nx, ny;
    const double *field;
} double_values;

static int write_values(FILE *stream, void *ctx)
{
    const double_values *v = ctx;
    if (fputs(magic, stream) < 0 || fprintf(stream, "%zu %zu\n", v->nx, v->ny) < 0)
        return errno ? errno : EIO;
    for (size_t k = 0; k < v->nx * v->ny; ++k)
        if (fprintf(stream, "%.17g\n", v->field[k]) < 0)
            return errno ? errno : EIO;
    return 0;
}

static int double_write(const char *path, size_t nx, size_t ny, const double *field,
                        const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    (void)meta;
    if (nx != 0 && ny > SIZE_MAX / nx)
        return heat2d_fail(err, "cannot write field file '%s': %zux%zu cells overflow", path, nx,
                           ny);
    double_values v = {nx, ny, field};
    return heat2d_file_replace(path, "field file", write_values, &v, err);
}

/* The whole file, its size held to the memory limit before it is read. */
static char *read_whole(const char *path, size_t *size, heat2d_error *err)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size > heat2d_memory_limit(NULL)) {
        heat2d_fail(err, "cannot read field file '%s': not a regular file within the memory limit",
                    path);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *data = malloc((size_t)st.st_size + 1);
    ssize_t got = data != NULL ? read(fd, data, (size_t)st.st_size) : -1;
    close(fd);
    if (got != st.st_size) {
        free(data);
        heat2d_fail(err, "cannot read field file '%s': it changed or could not be read", path);
        return NULL;
    }
    *size = (size_t)got;
    return data;
}

static int double_read(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                       heat2d_error *err)
{
    (void)facts;
    *field = (heat2d_field){0};
    size_t size = 0;
    char *data = read_whole(spec, &size, err);
    if (data == NULL)
        return -1;
    int rc = -1;
    if (size < MAGIC_BYTES || memcmp(data, magic, MAGIC_BYTES) != 0)
        heat2d_fail(err, "%s: not a test double field (its first line is not '%.*s')", spec,
                    (int)MAGIC_BYTES - 1, magic);
    else
        rc = heat2d_field_parse(spec, data + MAGIC_BYTES, size - MAGIC_BYTES, field, err);
    free(data);
    return rc;
}

/* Its snapshots under --save-every are the text format's series, a folder
 * of step files, as they were before a format could have a series. */
const heat2d_field_format heat2d_format_double = {
    .name = "double",
    .holds = "a heat2d test double field",
    .writes = double_writes,
    .reads = double_reads,
    .sniff = double_sniff,
    .write = double_write,
    .read = double_read,
    .series = &heat2d_series_text,
};
