/* The rate at which a folder's file system takes a file, the bound of every
 * snapshot writer that writes there (heat2d run --snapshot-writer). */
#ifndef HEAT2D_WRITE_RATE_H
#define HEAT2D_WRITE_RATE_H

#include "heat2d.h"

#include <signal.h>

typedef struct heat2d_write_rate {
    /* The file system's type as the mount table names it (tmpfs, ext4,
     * overlay, ...), else statfs's f_type in hex; magic is that f_type. */
    char fs[64];
    unsigned long long magic;
    double gbs;        /* all the files' bytes over their seconds, 1e9 bytes a second */
    size_t file_bytes; /* the most one file held (bytes asked, unless the time ran out) */
    size_t files;      /* files timed */
    size_t bytes;      /* their bytes together */
} heat2d_write_rate;

/* Writes files of `bytes` bytes into dir, as the snapshot writers write:
 * created, written with write(), closed, and no fsync (their records stay
 * in the page cache, and their scratch folder is removed at the end, before
 * most would reach a disk). Up to 8 files, one after another, each kept
 * until the last is written, as a run's records are, stopping once max_s
 * seconds have passed (a file then cut short), in a scratch folder of the
 * probe's own in dir (heat2d_scratch_make: removed after, by a fatal
 * signal, or by the next heat2d after a SIGKILL). The rate is their bytes
 * over their seconds. A non-zero *stop (a stop signal's flag; NULL: none)
 * ends the probe within a write of 1 MiB. 0, or -1 with err. */
int heat2d_write_rate_probe(const char *dir, size_t bytes, double max_s,
                            const volatile sig_atomic_t *stop, heat2d_write_rate *out,
                            heat2d_error *err);

#endif /* HEAT2D_WRITE_RATE_H */
