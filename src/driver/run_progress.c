/* heat2d run's progress line (run_progress.h). */
#include "run_progress.h"
#include "process.h"

int heat2d_run_progress_wire(heat2d_run_progress *p, heat2d_config *cfg, heat2d_error *err)
{
    *p = (heat2d_run_progress){
        .steps = cfg->steps, .cells = (double)cfg->nx * (double)cfg->ny, .first_at = -1.0};
    if (heat2d_progress_begin(&p->line, err) != 0)
        return -1;
    /* Under mpirun only rank 0 speaks, as it alone prints the output. */
    p->line.on = p->line.on && heat2d_process_rank() == 0;
    if (p->line.on) {
        cfg->progress = heat2d_run_progress_update;
        cfg->progress_ctx = p;
    }
    return 0;
}

void heat2d_run_progress_update(void *ctx, size_t done)
{
    heat2d_run_progress *p = ctx;
    const double now = heat2d_now();
    if (p->first_at < 0.0) {
        p->first_at = now;
        p->first_done = done;
    }
    if (!heat2d_progress_due(&p->line, now))
        return;
    /* The rate from the first report on, past the loop's start-up: none
     * until a report after it. */
    char rate[96] = "";
    if (done > p->first_done && now > p->first_at) {
        const double steps_per_s = (double)(done - p->first_done) / (now - p->first_at);
        char d[32];
        heat2d_progress_duration((double)(p->steps - done) / steps_per_s, d, sizeof d);
        snprintf(rate, sizeof rate, ", %.*f steps/s, %.3g Gcell/s, about %s left",
                 steps_per_s < 100.0 ? 1 : 0, steps_per_s, steps_per_s * p->cells / 1e9, d);
    }
    heat2d_progress_draw(&p->line, now, "heat2d: run: step %zu of %zu (%.0f%%)%s", done, p->steps,
                         100.0 * (double)done / (double)p->steps, rate);
}
