/* A precision's cells (heat2d_cells.h), written once for both precisions
 * (heat2d_real.h): each compilation makes its precision's table. */
#include "heat2d_real.h"
#include "heat2d_cells.h"

#include <math.h>

double FN(heat2d_cell_get)(const void *field, size_t k)
{
    return (double)((const REAL *)field)[k];
}

void FN(heat2d_cell_set)(void *field, size_t k, double value)
{
    ((REAL *)field)[k] = (REAL)value;
}

static void FN(widen)(double *to, const void *from, size_t n)
{
    const REAL *cells = from;
    for (size_t k = 0; k < n; ++k)
        to[k] = (double)cells[k];
}

static void FN(narrow)(void *to, const double *from, size_t n)
{
    REAL *cells = to;
    for (size_t k = 0; k < n; ++k)
        cells[k] = (REAL)from[k];
}

static void FN(stats_add)(heat2d_field_stats *s, const void *field, size_t begin, size_t end)
{
    const REAL *cells = field;
    for (size_t k = begin; k < end; ++k) {
        const double x = (double)cells[k];
        s->sum += x;
        s->lo = x < s->lo ? x : s->lo;
        s->hi = x > s->hi ? x : s->hi;
        if (!isfinite(x)) {
            if (s->nonfinite == 0)
                s->first_nonfinite = k;
            s->nonfinite++;
        }
    }
}

/* kLanes independent lanes combined in a fixed order: no branch and no
 * chain of dependent adds in the loop, so the compiler vectorises it and a
 * thread streams its cells at memory speed (one sum in one chain, with a
 * test for NaN at every cell, ran at about a tenth of that). */
enum { kLanes = 8 };

static void FN(scan)(heat2d_field_stats *s, const void *field, size_t begin, size_t end)
{
    const REAL *cells = field;
    double sum[kLanes], lo[kLanes], hi[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        sum[l] = 0.0;
        lo[l] = INFINITY;
        hi[l] = -INFINITY;
    }
    size_t k = begin;
    for (; k + kLanes <= end; k += kLanes)
        for (int l = 0; l < kLanes; ++l) {
            const double x = (double)cells[k + (size_t)l];
            sum[l] += x;
            lo[l] = x < lo[l] ? x : lo[l];
            hi[l] = x > hi[l] ? x : hi[l];
        }
    for (; k < end; ++k) {
        const double x = (double)cells[k];
        sum[0] += x;
        lo[0] = x < lo[0] ? x : lo[0];
        hi[0] = x > hi[0] ? x : hi[0];
    }
    for (int l = 0; l < kLanes; ++l) {
        s->sum += sum[l];
        s->lo = lo[l] < s->lo ? lo[l] : s->lo;
        s->hi = hi[l] > s->hi ? hi[l] : s->hi;
    }
}

const heat2d_cells FN(heat2d_cells_table) = {
    .bytes = sizeof(REAL),
    .get = FN(heat2d_cell_get),
    .set = FN(heat2d_cell_set),
    .widen = FN(widen),
    .narrow = FN(narrow),
    .stats_add = FN(stats_add),
    .scan = FN(scan),
};
