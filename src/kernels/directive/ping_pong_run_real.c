/* The resident directive methods' loop, written once for both precisions
 * (heat2d_real.h, ping_pong_run.h). */
#include "ping_pong_run.h"

int FN(heat2d_ping_pong_advance)(void *run, size_t count, heat2d_error *err)
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
