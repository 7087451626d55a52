/* Whether two names are one file: run refuses to write over the file its
 * --initial reads, and two outputs that are one file, however spelt
 * (./x/../f, a link, another hard link). */
#ifndef HEAT2D_SAME_FILE_H
#define HEAT2D_SAME_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* path's full name into out (size bytes), its folder resolved (links, ..)
 * and the file itself too when it exists; false when the folder does not
 * exist or the name does not fit. */
bool heat2d_path_resolved(const char *path, char *out, size_t size);

/* Whether a and b name one file: the same device and inode when both
 * exist, else the same resolved name (a file not made yet). */
bool heat2d_same_file(const char *a, const char *b);

#endif
