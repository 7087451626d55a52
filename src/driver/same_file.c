/* Whether two names are one file (same_file.h). */
#define _GNU_SOURCE /* realpath */
#include "same_file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool heat2d_path_resolved(const char *path, char *out, size_t size)
{
    char *full = realpath(path, NULL);
    if (full == NULL) {
        char copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", path);
        char *slash = strrchr(copy, '/');
        const char *base = slash != NULL ? slash + 1 : copy;
        if (slash == copy)
            full = realpath("/", NULL);
        else {
            if (slash != NULL)
                *slash = '\0';
            full = realpath(slash != NULL ? copy : ".", NULL);
        }
        if (full == NULL)
            return false;
        int n = snprintf(out, size, "%s/%s", strcmp(full, "/") == 0 ? "" : full, base);
        free(full);
        return n > 0 && (size_t)n < size;
    }
    int n = snprintf(out, size, "%s", full);
    free(full);
    return n > 0 && (size_t)n < size;
}

bool heat2d_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char full_a[PATH_MAX], full_b[PATH_MAX];
    return strcmp(a, b) == 0 ||
           (heat2d_path_resolved(a, full_a, sizeof full_a) &&
            heat2d_path_resolved(b, full_b, sizeof full_b) && strcmp(full_a, full_b) == 0);
}
