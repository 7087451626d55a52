/* The file of a program's host<->device copies, shared by every process of
 * the program: the injection library (src/probes/transfer_inject.c)
 * appends to it, the bench reads it back (transfer_record.c). Each process
 * that loads the library appends a marker at once, then, as it exits, one
 * record: its copies, "no CUDA" (it never initialised CUDA) or "untraced"
 * (its trace could not start). A marker without its record is a process
 * that ended without exit handlers (_exit, a signal, exec): its copies are
 * unknown, never taken for none. Appends are whole, under an exclusive
 * lock, so that processes never interleave. No CUDA here and nothing else
 * of the library, so that the injection library can carry it. */
#ifndef HEAT2D_TRANSFER_RECORD_H
#define HEAT2D_TRANSFER_RECORD_H

#include "copy_tally.h"

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A record file heat2d reads: at most this many bytes (some 2,000
 * processes' records). */
#define HEAT2D_TRANSFER_RECORD_MAX_BYTES (1u << 20)

/* What a process ended with. */
typedef enum heat2d_transfer_end {
    HEAT2D_TRANSFER_NO_CUDA,  /* loaded, CUDA never initialised */
    HEAT2D_TRANSFER_UNTRACED, /* its trace could not start or stop */
    HEAT2D_TRANSFER_COPIES    /* its copies, counted */
} heat2d_transfer_end;

/* HEAT2D_TRANSFER_ARRAY_BYTES's text as a count of bytes: decimal digits
 * alone, more than 0, no overflow; 0, or -1 with "'-128' is not a positive
 * whole number of bytes" in why. */
int heat2d_transfer_array_bytes(const char *text, uint64_t *bytes, char *why, size_t size);

/* path opened to append records: made (mode 600) where nothing is there;
 * never a link followed nor anything but a regular file written, never a
 * FIFO waited on, nor a file that does not begin with a marker, and never
 * a name of PATH_MAX bytes or more. The descriptor, or -1 with why
 * ("'/dev/full' is not a regular file (a character device)"). */
int heat2d_transfer_record_open(const char *path, char *why, size_t size);

/* The marker of process pid, appended whole under the lock. 0, or -1 with
 * why (errno's text). */
int heat2d_transfer_record_loaded(int fd, pid_t pid, char *why, size_t size);

/* The record of how process pid ended (tally only with COPIES). */
int heat2d_transfer_record_end(int fd, pid_t pid, heat2d_transfer_end end,
                               const heat2d_copy_tally *tally, char *why, size_t size);

/* What a record file says of the program. */
typedef struct heat2d_transfer_records {
    unsigned processes;      /* markers: processes that loaded the library */
    unsigned ended[3];       /* records, by heat2d_transfer_end */
    unsigned unrecorded;     /* markers with no record */
    heat2d_copy_tally tally; /* the COPIES records summed */
} heat2d_transfer_records;

/* path read back: 1 when there is no file (no process loaded the library),
 * 0 with r, or -1 with why: not a regular file, over the size above, a
 * record for no marker, a line out of place, counts that overflow when
 * summed, records of different array sizes. Never blocks on a FIFO. */
int heat2d_transfer_records_read(const char *path, heat2d_transfer_records *r, char *why,
                                 size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_TRANSFER_RECORD_H */
