/* Whether a file that is already where an output goes holds what heat2d
 * writes under that name, judged from its first bytes. */
#define _POSIX_C_SOURCE 200809L

#include "field_format.h"
#include "field_netcdf.h"
#include "file_replace.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a regular file holds, from its first bytes. */
typedef enum { HOLDS_NOTHING, HOLDS_TEXT, HOLDS_BINARY, HOLDS_NETCDF, HOLDS_OTHER_NETCDF } holds;

static holds sniff(const char *path)
{
    static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char head[4096];
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    ssize_t got = fd >= 0 ? read(fd, head, sizeof head) : -1;
    if (fd >= 0)
        close(fd);
    if (got <= 0)
        return got == 0 ? HOLDS_NOTHING : HOLDS_BINARY;
    const size_t n = (size_t)got;
    const bool classic =
        n >= 4 && memcmp(head, "CDF", 3) == 0 && (head[3] == 1 || head[3] == 2 || head[3] == 5);
    if (classic || (n >= sizeof hdf5 && memcmp(head, hdf5, sizeof hdf5) == 0))
        return heat2d_netcdf_is_heat2d(path) ? HOLDS_NETCDF : HOLDS_OTHER_NETCDF;
    /* Text: no control character but the blanks (UTF-8's bytes pass). */
    for (size_t k = 0; k < n; ++k)
        if ((head[k] < 0x20 && (head[k] == 0 || strchr("\t\n\v\f\r", head[k]) == NULL)) ||
            head[k] == 0x7f)
            return HOLDS_BINARY;
    return HOLDS_TEXT;
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
    const bool netcdf = heat2d_netcdf_path(path);
    const holds found = sniff(path);
    if (found == HOLDS_NOTHING || found == (netcdf ? HOLDS_NETCDF : HOLDS_TEXT))
        return 0;
    static const char *const said[] = {"", "text", "binary data", "a heat2d NetCDF file",
                                       "NetCDF data that heat2d did not write (or cannot open)"};
    const char *wanted = netcdf ? "a heat2d NetCDF file" : "text";
    if (is_link)
        return heat2d_fail(err,
                           "%s %s: it is a link to %s, which holds %s, not %s; give --force to "
                           "replace it",
                           option, path, link_target, said[found], wanted);
    return heat2d_fail(err, "%s %s: it holds %s, not %s; give --force to replace it", option, path,
                       said[found], wanted);
}
