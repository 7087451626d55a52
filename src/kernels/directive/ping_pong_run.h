/* The resident directive methods' loop state (acc-resident's and
 * omp-target-resident's), written once: the host pointers name the device
 * copies, from the field after `done` steps and to the next; swapping them
 * swaps which device array is read and which is written, without moving
 * data. Over REAL and FN (heat2d_real.h), for the backends' *_real.c
 * files; the advance is ping_pong_run_real.c's, one compilation a
 * precision. Host code, no pragmas: each backend's step launches its own
 * regions. */
#ifndef HEAT2D_PING_PONG_RUN_H
#define HEAT2D_PING_PONG_RUN_H

#include "heat2d.h"
#include "heat2d_real.h"

typedef struct FN(heat2d_ping_pong_run) {
    const heat2d_config *cfg;
    heat2d_report *rep;
    REAL alpha;
    REAL *from, *to;
    size_t done;
    /* One step from `from` into `to`; `step` counts from 0. */
    void (*step)(size_t step, size_t nx, size_t ny, REAL alpha, const REAL *restrict from,
                 REAL *restrict to);
} FN(heat2d_ping_pong_run);

/* heat2d_run_segments' advance: `count` steps, swapping after each. */
int FN(heat2d_ping_pong_advance)(void *run, size_t count, heat2d_error *err);

#endif
