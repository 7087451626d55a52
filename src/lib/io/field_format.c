/* The table of field formats, the one place that picks a format for a
 * name or for what a file holds (field_format.h), and what follows from
 * it: the final field's writer, a series' format, and whether a file
 * already where an output goes holds what heat2d writes under that name. */
#define _POSIX_C_SOURCE 200809L

#include "field_format.h"
#include "file_replace.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HEAT2D_TEST_DOUBLES
extern const heat2d_field_format heat2d_format_double;
#endif

/* Asked in order: text, which takes every name, last. */
static const heat2d_field_format *const formats[] = {
    &heat2d_format_netcdf,
#ifdef HEAT2D_TEST_DOUBLES
    &heat2d_format_double,
#endif
    &heat2d_format_text,
};
#define FORMATS (sizeof formats / sizeof formats[0])

const heat2d_field_format *heat2d_field_format_writing(const char *path)
{
    for (size_t k = 0; k + 1 < FORMATS; ++k)
        if (formats[k]->writes(path))
            return formats[k];
    return &heat2d_format_text;
}

const heat2d_field_format *heat2d_field_format_reading(const char *spec, heat2d_error *err)
{
    for (size_t k = 0; k + 1 < FORMATS; ++k) {
        const int asked = formats[k]->reads(spec, err);
        if (asked != 0)
            return asked > 0 ? formats[k] : NULL;
    }
    return &heat2d_format_text;
}

const heat2d_series_format *heat2d_series_format_writing(const char *path, heat2d_error *err)
{
    const heat2d_field_format *format = heat2d_field_format_writing(path);
    if (format->series == NULL)
        heat2d_fail(err, "--save-every %s: the %s format writes no series of snapshots", path,
                    format->name);
    return format->series;
}

int heat2d_field_save(const char *path, size_t nx, size_t ny, const double *field,
                      const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    return heat2d_field_format_writing(path)->write(path, nx, ny, field, meta, err);
}

/* What the regular file at path holds, in words, from its first bytes; ""
 * when it is empty; *ours when it is what *format writes. */
static const char *holds(const char *path, const heat2d_field_format **format, bool *ours)
{
    unsigned char head[4096];
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    const ssize_t got = fd >= 0 ? read(fd, head, sizeof head) : -1;
    if (fd >= 0)
        close(fd);
    *format = NULL;
    *ours = false;
    if (got <= 0)
        return got == 0 ? "" : "binary data";
    for (size_t k = 0; k < FORMATS; ++k) {
        const heat2d_holds found = formats[k]->sniff(path, head, (size_t)got);
        if (found == HEAT2D_HOLDS_OTHER)
            continue;
        *format = formats[k];
        *ours = found == HEAT2D_HOLDS_OURS;
        return *ours ? formats[k]->holds : formats[k]->foreign;
    }
    return "binary data";
}

int heat2d_file_check_kind(const char *option, const char *path, bool force, heat2d_error *err)
{
    struct stat link, st;
    if (force || heat2d_file_named_descriptor(path) >= 0 || lstat(path, &link) != 0)
        return 0;
    const bool is_link = S_ISLNK(link.st_mode);
    char link_target[PATH_MAX] = "";
    if (is_link) {
        const ssize_t n = readlink(path, link_target, sizeof link_target - 1);
        link_target[n > 0 ? n : 0] = '\0';
    }
    if (stat(path, &st) != 0)
        return heat2d_fail(err,
                           "%s %s: it is a link to %s, which does not exist; give --force to "
                           "replace the link",
                           option, path, link_target);
    if (!S_ISREG(st.st_mode))
        return 0; /* a stream, written in place; a folder is refused elsewhere */
    const heat2d_field_format *wanted = heat2d_field_format_writing(path), *found;
    bool ours;
    const char *said = holds(path, &found, &ours);
    if (said[0] == '\0' || (found == wanted && ours))
        return 0;
    if (is_link)
        return heat2d_fail(err,
                           "%s %s: it is a link to %s, which holds %s, not %s; give --force to "
                           "replace it",
                           option, path, link_target, said, wanted->holds);
    return heat2d_fail(err, "%s %s: it holds %s, not %s; give --force to replace it", option, path,
                       said, wanted->holds);
}
