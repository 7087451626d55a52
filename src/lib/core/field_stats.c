/* A field's invariants, from a scan on the host or from what a method's
 * reductions found on the device, and the snapshot check from them,
 * whoever found them. */
#include "heat2d_cells.h"
#include "heat2d_run.h"

#include <math.h>

heat2d_field_stats heat2d_field_stats_empty(void)
{
    return (heat2d_field_stats){
        .sum = 0.0, .lo = INFINITY, .hi = -INFINITY, .nonfinite = 0, .first_nonfinite = SIZE_MAX};
}

heat2d_field_stats heat2d_field_stats_found(double sum, double lo, double hi, uint64_t nonfinite,
                                            uint64_t first)
{
    return (heat2d_field_stats){.sum = sum,
                                .lo = lo,
                                .hi = hi,
                                .nonfinite = nonfinite,
                                .first_nonfinite = nonfinite > 0 ? (size_t)first : SIZE_MAX};
}

void heat2d_field_stats_add(heat2d_field_stats *s, const void *field, int f32, size_t begin,
                            size_t end)
{
    heat2d_cells_of(f32 ? HEAT2D_F32 : HEAT2D_F64)->stats_add(s, field, begin, end);
}

void heat2d_field_stats_merge(heat2d_field_stats *into, const heat2d_field_stats *part)
{
    into->sum += part->sum;
    into->lo = part->lo < into->lo ? part->lo : into->lo;
    into->hi = part->hi > into->hi ? part->hi : into->hi;
    if (into->nonfinite == 0)
        into->first_nonfinite = part->first_nonfinite;
    into->nonfinite += part->nonfinite;
}

int heat2d_snapshot_verdict(const heat2d_config *cfg, size_t step, const heat2d_field_stats *s,
                            heat2d_error *err)
{
    if (s->nonfinite > 0) {
        const size_t k = s->first_nonfinite;
        if (k >= cfg->nx * cfg->ny)
            return heat2d_fail(err, "snapshot after step %zu: %llu non-finite values", step,
                               (unsigned long long)s->nonfinite);
        return heat2d_fail(err, "snapshot after step %zu: non-finite value at cell (%zu, %zu)",
                           step, k % cfg->nx, k / cfg->nx);
    }
    const int out = heat2d_check_bounds(cfg, step, s->lo, s->hi, s->sum);
    if (out == 1)
        return heat2d_fail(err,
                           "snapshot after step %zu: value outside physically expected bounds: "
                           "min %.17g, max %.17g",
                           step, s->lo, s->hi);
    if (out == 2)
        return heat2d_fail(err, "snapshot after step %zu: unexpected mass %.17g", step, s->sum);
    return 0;
}
