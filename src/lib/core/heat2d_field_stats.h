/* A snapshot's invariants as numbers, found wherever the field is: on the
 * host by a scan, or on the device by the method that made it, so that a
 * run on a GPU need not scan its snapshots on the host to check them. */
#ifndef HEAT2D_FIELD_STATS_H
#define HEAT2D_FIELD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "heat2d_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct heat2d_config;

/* sum: of every cell, in whatever order the finder adds them; lo, hi: the
 * least and greatest cell that is not NaN; nonfinite: cells that are NaN
 * or infinite; first_nonfinite: the first of them in storage order,
 * SIZE_MAX when there is none. */
typedef struct heat2d_field_stats {
    double sum;
    double lo;
    double hi;
    uint64_t nonfinite;
    size_t first_nonfinite;
} heat2d_field_stats;

/* Nothing seen yet: sum 0, lo +inf, hi -inf, no non-finite cell. */
heat2d_field_stats heat2d_field_stats_empty(void);

/* The invariants a method's reductions found on the device: first, the
 * least index of a non-finite cell, is kept only when nonfinite > 0. */
heat2d_field_stats heat2d_field_stats_found(double sum, double lo, double hi, uint64_t nonfinite,
                                            uint64_t first);

/* Cells [begin, end) of field (doubles, or floats when f32), in storage
 * order, added into s. */
void heat2d_field_stats_add(heat2d_field_stats *s, const void *field, int f32, size_t begin,
                            size_t end);

/* part, of cells that follow those of into, merged into into. */
void heat2d_field_stats_merge(heat2d_field_stats *into, const heat2d_field_stats *part);

/* The snapshot check of a field after step, from its stats: the first
 * non-finite cell ("snapshot after step S: non-finite value at cell (i,
 * j)"), then heat2d_check_bounds. 0, or -1 with err. */
int heat2d_snapshot_verdict(const struct heat2d_config *cfg, size_t step,
                            const heat2d_field_stats *s, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_FIELD_STATS_H */
