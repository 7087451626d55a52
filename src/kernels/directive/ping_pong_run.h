/* The resident directive methods' loop state (acc-resident's and
 * omp-target-resident's), written once: the host pointers name the device
 * copies, from the field after `done` steps and to the next; swapping them
 * swaps which device array is read and which is written, without moving
 * data. A backend's *_real.h includes this file once per precision, with
 * FN and REAL defined (heat2d_precisions.h); no include guard, on purpose.
 * Host code, no pragmas: each backend's step launches its own regions. */

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
static int FN(heat2d_ping_pong_advance)(void *run, size_t count, heat2d_error *err)
{
    (void)err;
    FN(heat2d_ping_pong_run) *r = run;
    for (size_t end = r->done + count; r->done < end; ++r->done) {
        r->step(r->done, r->cfg->nx, r->cfg->ny, r->alpha, r->from, r->to);
        REAL *swap = r->from;
        r->from = r->to;
        r->to = swap;
    }
    return 0;
}
