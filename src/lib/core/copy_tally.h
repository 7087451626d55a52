/* What crossed between host and device as the CUDA driver performed it:
 * every copy counted, summed and timed per direction, and those of exactly
 * one array's size singled out (the quantity of the transfer model). The
 * CUPTI trace fills it (src/probes), in heat2d's own process or, through
 * the injection library, in any program; the bench reads it back from the
 * file the library writes. No CUDA here, and copy_tally.c needs nothing
 * else of the library, so that the injection library can carry it. */
#ifndef HEAT2D_COPY_TALLY_H
#define HEAT2D_COPY_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heat2d_copy_way {
    uint64_t copies, bytes, ns;         /* every copy of this direction */
    uint64_t array_copies, array_bytes; /* those of exactly the array size */
} heat2d_copy_way;

typedef struct heat2d_copy_tally {
    uint64_t array_size;  /* bytes of one array; 0: none singled out */
    heat2d_copy_way up;   /* host to device */
    heat2d_copy_way down; /* device to host */
} heat2d_copy_tally;

/* Zero counts, with the array size to single out. */
void heat2d_copy_tally_reset(heat2d_copy_tally *t, uint64_t array_size);

/* One copy of bytes that took ns nanoseconds, host to device when up. */
void heat2d_copy_tally_add(heat2d_copy_tally *t, bool up, uint64_t bytes, uint64_t ns);

/* The tally as KEY=VALUE lines (TRANSFER_ARRAY_BYTES, TRANSFER_H2D_COPIES,
 * ...) into buf; the length written, or the length needed when it does not
 * fit (as snprintf). */
size_t heat2d_copy_tally_format(const heat2d_copy_tally *t, char *buf, size_t size);

struct heat2d_report;

/* What crossed, into a report: copies of exactly the array size in h2d_*
 * and d2h_*, every other copy (a runtime's own, such as GCC's per-launch
 * kernel-argument tables) in h2d_other_* and d2h_other_*, and the summed
 * duration of all copies in h2d_s and d2h_s (copy_tally_report.c). */
void heat2d_copy_tally_to_report(const heat2d_copy_tally *t, struct heat2d_report *rep);

/* The lines heat2d_copy_tally_format wrote, read back strictly: every key
 * once, each an unsigned decimal, nothing else; 0, or -1 with the first
 * line at fault in why[size]. */
int heat2d_copy_tally_parse(const char *text, heat2d_copy_tally *t, char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_COPY_TALLY_H */
