/* The snapshot schedule (heat2d_schedule.h): the one place that says which
 * steps are snapshots. */
#include "heat2d_schedule.h"

size_t heat2d_next_snapshot(size_t done, size_t steps, size_t every)
{
    if (every == 0 || done >= steps)
        return steps;
    const size_t to_next = every - done % every; /* 1..every, no overflow */
    return to_next < steps - done ? done + to_next : steps;
}

bool heat2d_is_snapshot_step(size_t done, size_t steps, size_t every)
{
    return every > 0 && done > 0 && done <= steps &&
           heat2d_next_snapshot(done - 1, steps, every) == done;
}

size_t heat2d_snapshot_count(size_t steps, size_t every)
{
    /* The multiples of every up to steps, and the last step where it is
     * none of them. */
    return every == 0 ? 0 : steps / every + (steps % every != 0 ? 1 : 0);
}

int heat2d_run_segments(const heat2d_config *cfg, heat2d_advance_fn advance, heat2d_copy_fn copy,
                        void *method, heat2d_error *err)
{
    size_t done = 0;
    while (done < cfg->steps) {
        const size_t end = heat2d_next_snapshot(done, cfg->steps, cfg->output_every);
        int rc = advance(method, end - done, err);
        if (rc != 0)
            return rc;
        done = end;
        if (done < cfg->steps && (rc = copy(method, done, err)) != 0)
            return rc;
    }
    return 0;
}
